"""A2A 1.0 with the official JavaScript SDK (@a2a-js/sdk 1.x, pinned in
tests/a2a-js/package-lock.json, on the machine's Node): card resolution,
sendMessage, sendMessageStream, getTask, cancelTask, resubscribeTask, and
canceling a running task (which also stops the service's notes run)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from harness import wait_for

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "tests" / "a2a-js" / "client.mjs"
WORKING, COMPLETED, CANCELED = 2, 3, 5


def run_client(service, *args: str) -> dict:
    node = shutil.which("node")
    assert node, "no node on PATH"
    assert (CLIENT.parent / "node_modules" / "@a2a-js" / "sdk").exists(), "run scripts/setup.sh (npm ci in tests/a2a-js)"
    service.gateway("a2a")
    done = subprocess.run([node, str(CLIENT), service.a2a_url(), service.token, *args], cwd=CLIENT.parent,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, f"client.mjs {args} failed:\n{done.stderr[-4000:]}"
    return json.loads(done.stdout)


def test_the_js_sdk_sends_streams_gets(free_service):
    out = run_client(free_service, "basic")
    assert out["send"]["state"] == COMPLETED, out["send"]
    data = [p["value"] for p in out["send"]["artifacts"][0] if p["$case"] == "data"]
    assert data and data[0]["skill"] == "get_action_items", out["send"]
    assert out["get"]["id"] == out["send"]["id"] and out["get"]["state"] == COMPLETED, out["get"]
    assert out["get"]["history"] >= 1, out["get"]
    assert out["cancelFinished"].endswith("TaskNotCancelableError"), out["cancelFinished"]
    kinds = [event["kind"] for event in out["stream"]]
    assert kinds[0] == "task" and kinds[-1] == "statusUpdate" and "artifactUpdate" in kinds, kinds
    assert out["stream"][-1]["state"] == COMPLETED, out["stream"]
    answer = [e for e in out["stream"] if e["kind"] == "artifactUpdate"][0]["parts"]
    data = [p["value"] for p in answer if p["$case"] == "data"][0]
    expected = [m["id"] for m in free_service.meetings(limit=2)["meetings"]]
    assert data["meeting_ids"] == expected, (data, expected)
    assert out["subscribeFinished"].endswith("UnsupportedOperationError"), out["subscribeFinished"]


def test_the_js_sdk_cancels_a_running_task(slow_notes_service):
    service = slow_notes_service
    meeting_id = service.meetings(limit=1)["meetings"][0]["id"]
    out = run_client(service, "cancel", meeting_id)
    states = [event["state"] for event in out["events"] if event["state"] is not None]
    assert WORKING in states, out["events"]
    assert out["cancel"]["state"] == CANCELED, out
    assert states[-1] == CANCELED, out["events"]
    wait_for(lambda: service.meeting(meeting_id)["status"] == "ready", 20,
             "the service's notes run to be canceled", describe=lambda: service.meeting(meeting_id))
