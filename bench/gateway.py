#!/usr/bin/env python3
"""What the gateway adds to a question: the same three reads (list 20 meetings,
one meeting in full, a full-text search) asked directly of the local API, over
MCP (stdio and Streamable HTTP, official MCP SDK) and over A2A (tasks/send),
against one seeded library, in one run. Prints a Markdown table of p50/p95 in
milliseconds (also written to bench/results/gateway-YYYY-MM-DD.md).

Usage: bench/gateway.sh (builds release binaries first), or
  .venv/bin/python bench/gateway.py --bin-dir target/release [--meetings 500] [--requests 200]
"""

import argparse
import asyncio
import datetime
import json
import os
import pathlib
import socket
import statistics
import subprocess
import tempfile
import time

import httpx
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

ROOT = pathlib.Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def percentiles(samples):
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return statistics.median(ordered) * 1000, p95 * 1000


async def timed(call, requests):
    for _ in range(5):
        await call()
    samples = []
    for _ in range(requests):
        start = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - start)
    return percentiles(samples)


def operations(latest):
    return {
        "list 20 meetings": ("list_meetings", {"limit": 20}, "/v1/meetings", {"limit": 20}),
        "one meeting": ("get_meeting", {"meeting_id": latest}, f"/v1/meetings/{latest}", {}),
        "search (common word)": ("search_meetings", {"query": "budget"}, "/v1/search", {"q": "budget", "limit": 10}),
    }


async def mcp_rows(session, ops, requests):
    rows = {}
    for name, (tool, args, _, _) in ops.items():
        async def call(tool=tool, args=args):
            result = await session.call_tool(tool, args)
            assert not result.is_error, result.content
        rows[name] = await timed(call, requests)
    return rows


async def run(args):
    bins = pathlib.Path(args.bin_dir)
    work = pathlib.Path(tempfile.mkdtemp(prefix="gateway-bench-"))
    data = work / "data"
    subprocess.run([str(bins / "xtask"), "seed", "--data-dir", str(data), "--meetings",
                    str(args.meetings), "--segments", str(args.segments)], check=True, stdout=subprocess.DEVNULL)
    api, mcp_port, a2a_port = free_port(), free_port(), free_port()
    (data / "settings.json").write_text(json.dumps({"general": {"api_port": api}}))
    env = dict(os.environ, RECORDER_POLICY_PATH=str(work / "none.json"), RECORDER_LOG="warn")
    service = subprocess.Popen([str(bins / "recorder"), "serve", "--data-dir", str(data)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    gateway = None
    try:
        wait_port(api)
        gateway = subprocess.Popen([str(bins / "recorder-gateway"), "--data-dir", str(data), "--http",
                                    "--http-port", str(mcp_port), "--a2a", "--a2a-port", str(a2a_port),
                                    "--no-stdio"], env=env, stderr=subprocess.DEVNULL)
        wait_port(mcp_port)
        wait_port(a2a_port)
        token = (data / "api_token").read_text().strip()
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(headers=headers) as http:
            listing = (await http.get(f"http://127.0.0.1:{api}/v1/meetings", params={"limit": 1})).json()
            ops = operations(listing["meetings"][0]["id"])
            table = {name: {} for name in ops}
            for name, (skill, skill_args, path, query) in ops.items():
                async def direct(path=path, query=query):
                    (await http.get(f"http://127.0.0.1:{api}{path}", params=query)).raise_for_status()

                async def a2a(skill=skill, skill_args=skill_args):
                    body = {"jsonrpc": "2.0", "id": 1, "method": "tasks/send", "params": {
                        "message": {"role": "user", "parts": [{"type": "data", "data": {"skill": skill, "args": skill_args}}]}}}
                    reply = (await http.post(f"http://127.0.0.1:{a2a_port}/", json=body)).json()
                    assert reply["result"]["status"]["state"] == "completed", reply
                table[name]["local API (direct)"] = await timed(direct, args.requests)
                table[name]["A2A tasks/send"] = await timed(a2a, args.requests)
        import httpx2
        async with httpx2.AsyncClient(headers=headers) as http2:
            async with streamable_http_client(f"http://127.0.0.1:{mcp_port}/mcp", http_client=http2) as streams:
                async with ClientSession(streams[0], streams[1]) as session:
                    await session.initialize()
                    for name, cell in (await mcp_rows(session, ops, args.requests)).items():
                        table[name]["MCP Streamable HTTP"] = cell
        params = StdioServerParameters(command=str(bins / "recorder-gateway"), args=["--data-dir", str(data)], env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for name, cell in (await mcp_rows(session, ops, args.requests)).items():
                    table[name]["MCP stdio"] = cell
        return render(table, args)
    finally:
        for process in (gateway, service):
            if process:
                process.terminate()
                process.wait(timeout=10)


def render(table, args):
    columns = ["local API (direct)", "MCP stdio", "MCP Streamable HTTP", "A2A tasks/send"]
    lines = [
        f"Gateway overhead, {args.meetings} seeded meetings of {args.segments} segments, "
        f"{args.requests} sequential requests each after 5 warm-up (ms, p50 / p95), "
        f"{datetime.date.today()}, {os.cpu_count()} cores:",
        "",
        "| read | " + " | ".join(columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for name, cells in table.items():
        lines.append(f"| {name} | " + " | ".join(f"{cells[c][0]:.1f} / {cells[c][1]:.1f}" for c in columns) + " |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(ROOT / "target" / "release"))
    parser.add_argument("--meetings", type=int, default=500)
    parser.add_argument("--segments", type=int, default=200)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    report = asyncio.run(run(args))
    print(report)
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / f"gateway-{datetime.date.today()}.md").write_text(report)


if __name__ == "__main__":
    main()
