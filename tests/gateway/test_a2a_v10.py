"""A2A 1.0 with the official a2a-sdk 1.x client (a2a1_client.py, run in its
own venv): card resolution, SendMessage, SendStreamingMessage, GetTask,
ListTasks, CancelTask and SubscribeToTask, and canceling a running task."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import httpx
import pytest

from harness import wait_for

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / ".venv-a2a1" / "bin" / "python"
CLIENT = Path(__file__).with_name("a2a1_client.py")


def run_client(service, *args: str) -> dict:
    assert PYTHON.exists(), f"no A2A 1.x venv at {PYTHON}: run scripts/setup.sh"
    service.gateway("a2a")
    done = subprocess.run([str(PYTHON), str(CLIENT), service.a2a_url(), service.token, *args],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, f"a2a1_client {args} failed:\n{done.stderr[-4000:]}"
    return json.loads(done.stdout)


def state_of(event: dict) -> str | None:
    body = event.get("task") or event.get("statusUpdate") or {}
    return (body.get("status") or {}).get("state")


def test_the_card_speaks_1_0_and_0_3(free_service):
    free_service.gateway("a2a")
    url = free_service.a2a_url().rstrip("/") + "/.well-known/agent-card.json"
    v10 = httpx.get(url, headers={"A2A-Version": "1.0"}, timeout=15).json()
    versions = [i["protocolVersion"] for i in v10["supportedInterfaces"]]
    assert versions == ["1.0", "0.3"], v10["supportedInterfaces"]
    assert v10["securitySchemes"]["bearer"] == {"httpAuthSecurityScheme": {
        "scheme": "Bearer", "description": v10["securitySchemes"]["bearer"]["httpAuthSecurityScheme"]["description"]}}
    assert v10["securityRequirements"] == [{"schemes": {"bearer": {"list": []}}}], v10
    assert "url" not in v10 and "security" not in v10, sorted(v10)
    assert v10["defaultInputModes"] == ["text/plain", "application/json"]
    v03 = httpx.get(url, headers={"A2A-Version": "0.3"}, timeout=15).json()
    assert v03["protocolVersion"] == "0.3.0" and v03["securitySchemes"]["bearer"]["type"] == "http", v03
    merged = httpx.get(url, timeout=15).json()
    assert merged["supportedInterfaces"] == v10["supportedInterfaces"] and merged["url"] == v03["url"], merged


def test_a_1_x_client_sends_streams_gets_lists(free_service):
    out = run_client(free_service, "basic")
    task = out["send"][-1]["task"]
    assert state_of(out["send"][-1]) == "TASK_STATE_COMPLETED", out["send"]
    data = [p["data"] for p in task["artifacts"][0]["parts"] if "data" in p]
    assert data and data[0]["skill"] == "get_action_items", task["artifacts"]
    # The data part's keys are CONTRACT §8's, as in every dialect (not 1.0 field names).
    assert {"meeting_ids", "timestamps"} <= set(data[0]) and "meetingIds" not in data[0], data
    assert out["get"]["id"] == task["id"] and out["get"]["status"]["state"] == "TASK_STATE_COMPLETED", out["get"]
    assert task["id"] in [t["id"] for t in out["list"]["tasks"]], out["list"]
    assert out["list"]["pageSize"] == len(out["list"]["tasks"]), out["list"]
    # The SDK reads the card's bearer scheme and its requirement in 1.0's shape.
    assert out["card"]["securitySchemes"]["bearer"]["httpAuthSecurityScheme"]["scheme"] == "Bearer", out["card"]
    assert out["card"]["securityRequirements"] == [{"schemes": {"bearer": {}}}], out["card"]
    assert out["cancel_finished"] == "TaskNotCancelableError", out["cancel_finished"]
    kinds = [next(iter(event)) for event in out["stream"]]
    assert kinds[0] == "task" and kinds[-1] == "statusUpdate" and "artifactUpdate" in kinds, kinds
    assert state_of(out["stream"][-1]) == "TASK_STATE_COMPLETED", out["stream"]
    answer = [e["artifactUpdate"]["artifact"] for e in out["stream"] if "artifactUpdate" in e][0]
    meetings = [p["data"] for p in answer["parts"] if "data" in p][0]["meeting_ids"]
    expected = [m["id"] for m in free_service.meetings(limit=2)["meetings"]]
    assert meetings == expected, (meetings, expected)
    assert out["subscribe_finished"] == "UnsupportedOperationError", out["subscribe_finished"]
    assert out["no_role"].startswith("InvalidParamsError") and "role" in out["no_role"], out["no_role"]


def test_a_1_x_client_cancels_a_running_task(slow_notes_service):
    service = slow_notes_service
    meeting_id = service.meetings(limit=1)["meetings"][0]["id"]
    out = run_client(service, "cancel", meeting_id)
    states = [state_of(e) for e in out["events"]]
    assert "TASK_STATE_WORKING" in states, out["events"]
    assert out["cancel"]["status"]["state"] == "TASK_STATE_CANCELED", out["cancel"]
    assert out["get"]["status"]["state"] == "TASK_STATE_CANCELED", out["get"]
    assert states[-1] == "TASK_STATE_CANCELED", out["events"]
    assert not any("artifactUpdate" in e for e in out["events"]), out["events"]
    # The service's own run stopped too: the meeting is ready again (the
    # notes server never answers, so only a cancel can end that run).
    wait_for(lambda: service.meeting(meeting_id)["status"] == "ready", 20,
             "the service's notes run to be canceled", describe=lambda: service.meeting(meeting_id))


def rpc(service, method: str, params: dict) -> dict:
    reply = httpx.post(service.a2a_url(), timeout=30, headers={
        "Authorization": f"Bearer {service.token}", "A2A-Version": "1.0"},
        json={"jsonrpc": "2.0", "id": method, "method": method, "params": params})
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_push_configs_and_bad_list_filters_are_errors(free_service):
    free_service.gateway("a2a")
    config = {"taskId": "t-1", "id": "c-1", "url": "http://127.0.0.1:9/hook"}
    for method in ["CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig",
                   "ListTaskPushNotificationConfigs", "ListTaskPushNotificationConfig",
                   "DeleteTaskPushNotificationConfig", "tasks/pushNotificationConfig/set",
                   "tasks/pushNotificationConfig/get", "tasks/pushNotificationConfig/list",
                   "tasks/pushNotificationConfig/delete"]:
        reply = rpc(free_service, method, config)
        assert reply.get("error", {}).get("code") == -32003, (method, reply)
    for bad in ["yesterday", "2026-02-30T10:00:00Z", 17]:
        reply = rpc(free_service, "ListTasks", {"statusTimestampAfter": bad})
        assert reply.get("error", {}).get("code") == -32602, (bad, reply)
    reply = rpc(free_service, "ListTasks", {"statusTimestampAfter": "2999-01-01T00:00:00Z", "pageSize": 5})
    assert reply["result"] == {"tasks": [], "nextPageToken": "", "pageSize": 0, "totalSize": 0}, reply
