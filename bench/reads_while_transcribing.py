#!/usr/bin/env python3
"""Read latency of the API while an import is being transcribed.

Starts `recorder serve` (RECORDER_BIN, default target/release/recorder) on a
fresh data folder with the tiny.en test model, imports a long speech file
(jfk.wav repeated, made with sox), and while the meeting is `transcribing`
times list, get, transcript and search requests. The same requests are timed
again once the service is idle. Prints a Markdown table (ms).

Run: python3 bench/reads_while_transcribing.py  (after scripts/test-model.sh)
"""

import http.client
import json
import os
import pathlib
import subprocess
import tempfile
import time

from harness.common import MODELS, ROOT, percentile
from harness.service import Service

BIN = os.environ.get("RECORDER_BIN", str(ROOT / "target/release/recorder"))
COPIES = int(os.environ.get("BENCH_COPIES", "30"))


def main():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="recorder-reads-"))
    data = folder / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"general": {"allow_remote_start": True}}))
    audio = folder / "long.wav"
    subprocess.run(["sox", *[str(MODELS / "jfk.wav")] * COPIES, str(audio)], check=True)
    env = dict(os.environ, RECORDER_MODEL_PATH=str(MODELS / "ggml-tiny.en-q8_0.bin"))
    service = Service(BIN, data, env=env)
    try:
        port = service.wait_listening(None)
        token = service.api
        connection = http.client.HTTPConnection("127.0.0.1", port)

        def call(method, path, body=None):
            payload = json.dumps(body) if body is not None else None
            started = time.perf_counter()
            connection.request(method, path, body=payload, headers={
                "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
            response = connection.getresponse()
            content = response.read()
            return response.status, content, (time.perf_counter() - started) * 1000

        status, content, _ = call("POST", "/v1/import", {"path": str(audio)})
        assert status == 202, content
        meeting = json.loads(content)["id"]
        paths = {"list": "/v1/meetings", "get": f"/v1/meetings/{meeting}",
                 "transcript": f"/v1/meetings/{meeting}/transcript?format=md",
                 "search": "/v1/search?q=country"}
        busy = {name: [] for name in paths}
        while json.loads(call("GET", f"/v1/meetings/{meeting}")[1])["status"] == "transcribing":
            for name, path in paths.items():
                status, _, ms = call("GET", path)
                assert status == 200
                busy[name].append(ms)
            time.sleep(0.05)
        while json.loads(call("GET", f"/v1/meetings/{meeting}")[1])["status"] != "ready":
            time.sleep(0.1)
        idle = {name: [call("GET", path)[2] for _ in range(200)] for name, path in paths.items()}
        print(f"Reads while transcribing {COPIES * 11} s of speech (tiny.en q8_0), ms\n")
        print("| request | busy n | busy p50 | busy p99 | busy max | idle p50 | idle p99 |")
        print("|---|---|---|---|---|---|---|")
        for name in paths:
            b, i = busy[name], idle[name]
            print(f"| {name} | {len(b)} | {percentile(b, 50):.2f} | {percentile(b, 99):.2f} | "
                  f"{max(b):.2f} | {percentile(i, 50):.2f} | {percentile(i, 99):.2f} |")
    finally:
        service.terminate(None)


if __name__ == "__main__":
    main()
