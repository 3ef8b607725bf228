"""The gateway as an early-A2A agent (`--a2a`): Agent Card, JSON-RPC methods,
routing, streaming and errors, on the Free service."""

from __future__ import annotations

import re

import httpx
import pytest

from a2a_early import (
    A2AError,
    EarlyA2A,
    data_parts,
    is_artifact_event,
    is_status_event,
    new_task_id,
    parts_of,
    skill_part,
    status_text,
    text_part,
    text_parts,
)
from conftest import REAL_TITLE
from mcp_helpers import SKILLS

READ_SKILLS = {"list_meetings", "get_meeting", "get_transcript", "search_meetings", "ask", "get_action_items"}
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture(scope="module")
def a2a(free_service):
    with EarlyA2A(free_service.a2a_url(), free_service.token) as client:
        yield client


@pytest.fixture(scope="module")
def card(free_service) -> dict:
    response = httpx.get(free_service.a2a_url() + ".well-known/agent.json", timeout=15)  # no token
    assert response.status_code == 200, f"GET /.well-known/agent.json: {response.status_code} {response.text}"
    return response.json()


def completed(task: dict, skill: str | None = None) -> tuple[str, dict]:
    """(answer text, data part) of a completed task with one artifact."""
    assert task["status"]["state"] == "completed", f"task should be completed: {task}"
    artifacts = task.get("artifacts") or []
    assert len(artifacts) == 1, f"a completed task has one artifact: {artifacts}"
    parts = parts_of(artifacts[0])
    text = text_parts(parts)
    data = data_parts(parts)
    assert text.strip(), f"the artifact needs a text part: {parts}"
    assert len(data) == 1, f"the artifact needs one data part: {parts}"
    data = data[0]
    assert isinstance(data.get("meeting_ids"), list) and isinstance(data.get("timestamps"), list), data
    for ts in data["timestamps"]:
        assert isinstance(ts.get("meeting_id"), str), ts
    if skill is not None:
        assert data.get("skill") == skill, f"expected skill {skill!r}, the data part says {data.get('skill')!r}: {data}"
    return text, data


def failed(task: dict, says: str) -> str:
    assert task["status"]["state"] == "failed", f"task should have failed ({says!r}): {task}"
    reason = status_text(task)
    assert says.lower() in reason.lower(), f"status.message should say {says!r}: {task}"
    return reason


# ---------------------------------------------------------------------------
# Agent Card and the guard
# ---------------------------------------------------------------------------


def test_agent_card(card, free_service):
    port = free_service.gateway("a2a")
    for key in ("name", "description", "url", "version"):
        assert isinstance(card.get(key), str) and card[key].strip(), f"card.{key}: {card.get(key)!r}"
    assert card["url"].startswith(f"http://127.0.0.1:{port}"), f"card.url {card['url']!r} is not this endpoint"
    assert card.get("capabilities", {}).get("streaming") is True, card.get("capabilities")
    assert card["capabilities"].get("pushNotifications") is False, card["capabilities"]
    assert card.get("authentication", {}).get("schemes") == ["bearer"], card.get("authentication")
    # The early card in the specification's words; /.well-known/agent-card.json says media types.
    assert card.get("defaultInputModes") == ["text"], card.get("defaultInputModes")
    assert card.get("defaultOutputModes") == ["text", "application/json"], card.get("defaultOutputModes")
    skills = card.get("skills") or []
    assert sorted(s.get("id") for s in skills) == sorted(SKILLS), [s.get("id") for s in skills]
    for skill in skills:
        for key in ("name", "description"):
            assert isinstance(skill.get(key), str) and skill[key].strip(), f"skill {skill.get('id')}.{key}"
        for key in ("tags", "examples"):
            assert isinstance(skill.get(key), list) and skill[key], f"skill {skill.get('id')}.{key}: {skill.get(key)}"


def test_jsonrpc_needs_the_token(free_service):
    url = free_service.a2a_url()
    body = {"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": "x"}}
    for headers in ({}, {"Authorization": "Bearer wrong"}):
        response = httpx.post(url, json=body, headers=headers, timeout=15)
        assert response.status_code == 401, f"POST / {headers}: {response.status_code} {response.text}"
        assert response.headers.get("www-authenticate", "").lower().startswith("bearer"), response.headers
    response = httpx.post(url, json=body, headers={"Authorization": f"Bearer {free_service.token}",
                                                   "Host": "evil.example"}, timeout=15)
    assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden_host", response.text


# ---------------------------------------------------------------------------
# tasks/send, routing, tasks/get
# ---------------------------------------------------------------------------


def test_list_my_meetings(a2a, free_service):
    task_id = new_task_id()
    task = a2a.send(task_id, [text_part("list my meetings")])
    assert task["id"] == task_id, task
    text, data = completed(task, "list_meetings")
    known = {m["id"] for m in free_service.meetings(limit=200)["meetings"]}
    assert data["meeting_ids"] and set(data["meeting_ids"]) <= known, data["meeting_ids"]
    assert free_service.real_meeting_id in data["meeting_ids"], "the newest meeting should be listed"
    assert REAL_TITLE in text, f"the answer should name the newest meeting:\n{text}"
    # tasks/get gives back the same task.
    again = a2a.get(task_id)
    assert again["id"] == task_id and again["status"]["state"] == "completed", again
    assert again.get("artifacts") == task.get("artifacts"), f"tasks/get artifacts differ:\n{again}\n!=\n{task}"


def test_data_part_bypasses_the_router(a2a, free_service):
    meeting_id = free_service.real_meeting_id
    task = a2a.send(new_task_id(), [
        text_part("list my meetings"),
        skill_part("get_transcript", {"meeting_id": meeting_id, "format": "txt"}),
    ])
    text, data = completed(task, "get_transcript")
    assert data["meeting_ids"] == [meeting_id], data
    assert "budget" in text.lower(), text
    task = a2a.send(new_task_id(), [skill_part("get_meeting", {"meeting_id": "latest"})])
    text, data = completed(task, "get_meeting")
    assert data["meeting_ids"] == [meeting_id] and REAL_TITLE in text, (data, text)


def test_search_routing(a2a, free_service):
    text, data = completed(a2a.send(new_task_id(), [text_part('search for "budget"')]), "search_meetings")
    assert free_service.real_meeting_id in data["meeting_ids"], data
    assert REAL_TITLE in text and "<mark>" not in text, text
    assert any(ts["meeting_id"] == free_service.real_meeting_id and isinstance(ts.get("start_ms"), int)
               for ts in data["timestamps"]), f"timestamps should give the moments: {data['timestamps']}"
    # Text that names no skill is a search.
    truth = {r["meeting_id"] for r in free_service.get("/v1/search", q="zeppelin", limit=50)["results"]}
    text, data = completed(a2a.send(new_task_id(), [text_part("zeppelin")]), "search_meetings")
    assert data["meeting_ids"] and set(data["meeting_ids"]) <= truth, (data["meeting_ids"], truth)


def test_open_action_items(a2a, free_service):
    real = free_service.meeting(free_service.real_meeting_id)
    done = [i["text"] for i in real["action_items"] if i["done"]]
    open_ = [i["text"] for i in real["action_items"] if not i["done"]]
    assert done and open_, f"fixture: the real meeting needs a done and an open item: {real['action_items']}"
    routed, _ = completed(a2a.send(new_task_id(), [text_part("what are my open action items?")]), "get_action_items")
    by_data, data = completed(a2a.send(new_task_id(), [skill_part("get_action_items", {"open_only": True})]),
                              "get_action_items")
    assert free_service.real_meeting_id in data["meeting_ids"], data
    for text in (routed, by_data):
        for item in open_:
            assert item in text, f"open item {item!r} missing:\n{text}"
        for item in done:
            assert item not in text, f"done item {item!r} listed with open_only:\n{text}"
    all_items, _ = completed(a2a.send(new_task_id(), [skill_part("get_action_items",
                                                                 {"meeting_id": free_service.real_meeting_id})]))
    for item in done + open_:
        assert item in all_items, f"{item!r} missing from the meeting's items:\n{all_items}"


def test_card_examples_route_to_their_skill(a2a, card, free_service):
    """Every example of the card, sent as text, reaches its own skill: read skills
    answer; Pro skills are refused for the plan on this Free service."""
    problems = []
    for skill in card["skills"]:
        for example in skill["examples"]:
            text = UUID.sub(free_service.real_meeting_id, example)
            task = a2a.send(new_task_id(), [text_part(text)])
            state = task["status"]["state"]
            if skill["id"] in READ_SKILLS:
                data = data_parts(parts_of((task.get("artifacts") or [{}])[0]))
                got = data[0].get("skill") if data else None
                if state != "completed" or got != skill["id"]:
                    problems.append(f"{text!r}: {state}, skill {got!r}, expected {skill['id']!r} ({status_text(task)})")
            elif state != "failed" or "pro" not in status_text(task).lower():
                problems.append(f"{text!r}: {state} {status_text(task)!r}, expected a Pro refusal of {skill['id']}")
    assert not problems, "examples not routed to their skill:\n" + "\n".join(problems)


def test_lenient_params_and_ids_echoed(a2a):
    task_id = new_task_id()
    answer = a2a.raw_call("tasks/send", {
        "id": task_id,
        "sessionId": "session-1",
        "message": {"role": "user", "parts": [{"type": "text", "text": "list my meetings", "metadata": None}],
                    "metadata": None},
        "metadata": None,
        "historyLength": None,
        "pushNotification": None,
        "acceptedOutputModes": ["text", "application/json"],
        "somethingNew": {"x": 1},
    }, id="req-alpha")
    assert answer.get("id") == "req-alpha", f"string id not echoed: {answer}"
    assert "result" in answer, f"unknown fields, nulls and sessionId must be accepted: {answer}"
    completed(answer["result"], "list_meetings")
    answer = a2a.raw_call("tasks/get", {"id": task_id, "historyLength": None}, id=4711)
    assert answer.get("id") == 4711 and answer["result"]["id"] == task_id, answer
    answer = a2a.raw_call("tasks/get", {"id": task_id}, id=0)
    assert answer.get("id") == 0 and "result" in answer, answer


# ---------------------------------------------------------------------------
# refusals and bad arguments
# ---------------------------------------------------------------------------


def test_free_plan_refusals_fail_the_task(a2a, free_service):
    task = a2a.send(new_task_id(), [skill_part("regenerate_notes", {"meeting_id": free_service.real_meeting_id})])
    failed(task, "Pro")
    assert not task.get("artifacts"), task
    failed(a2a.send(new_task_id(), [skill_part("start_recording", {"title": "no"})]), "Pro")
    failed(a2a.send(new_task_id(), [text_part("start recording")]), "Pro")
    assert not free_service.recording_active()


def test_bad_arguments_name_the_argument(a2a):
    for parts, names in (
        ([skill_part("get_meeting", {"meetingId": "latest"})], "meetingId"),
        ([skill_part("list_meetings", {"limit": 2, "sort": "asc"})], "sort"),
        ([skill_part("no_such_skill")], "no_such_skill"),
    ):
        try:
            task = a2a.send(new_task_id(), parts)
        except A2AError as error:
            assert error.code == -32602, f"{parts}: {error}"
            assert names in f"{error.message} {error.data}", f"{parts}: the error should name {names!r}: {error}"
        else:
            failed(task, names)


# ---------------------------------------------------------------------------
# JSON-RPC errors
# ---------------------------------------------------------------------------


def rpc_error(answer: dict, code: int) -> dict:
    assert "error" in answer and "result" not in answer, f"expected error {code}: {answer}"
    assert answer["error"].get("code") == code, f"expected error {code}: {answer}"
    assert isinstance(answer["error"].get("message"), str), answer
    return answer["error"]


def test_task_errors(a2a):
    task_id = new_task_id()
    completed(a2a.send(task_id, [text_part("list my meetings")]))
    rpc_error(a2a.raw_call("tasks/cancel", {"id": task_id}, id=7), -32002)
    assert a2a.get(task_id)["status"]["state"] == "completed", "a refused cancel changes nothing"
    unknown = new_task_id()
    rpc_error(a2a.raw_call("tasks/get", {"id": unknown}), -32001)
    rpc_error(a2a.raw_call("tasks/cancel", {"id": unknown}), -32001)


def test_protocol_errors(a2a):
    answer = a2a.raw_call("tasks/frobnicate", {"id": "x"}, id="m1")
    rpc_error(answer, -32601)
    assert answer.get("id") == "m1", answer
    rpc_error(a2a.raw_call("tasks/send", {"id": new_task_id()}), -32602)
    rpc_error(a2a.raw_call("tasks/send", {"id": new_task_id(), "message": "list my meetings"}), -32602)
    rpc_error(a2a.raw_call("tasks/get", {}), -32602)

    response = a2a.post_raw('{"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": ')
    answer = response.json()
    rpc_error(answer, -32700)
    assert answer.get("id") is None, f"a parse error has id null: {answer}"
    for body in ('{"jsonrpc": "2.0", "id": 9}', '"tasks/get"', '{"jsonrpc": "1.0", "id": 9, "method": "tasks/get"}'):
        rpc_error(a2a.post_raw(body).json(), -32600)


def test_push_notifications_not_supported(a2a):
    task_id = new_task_id()
    completed(a2a.send(task_id, [text_part("list my meetings")]))
    answer = a2a.raw_call("tasks/pushNotification/set", {
        "id": task_id, "pushNotificationConfig": {"url": "http://127.0.0.1:9/hook"}})
    rpc_error(answer, -32003)


# ---------------------------------------------------------------------------
# tasks/sendSubscribe
# ---------------------------------------------------------------------------


def check_stream(events: list[dict], task_id: str, final_state: str) -> None:
    assert events, "the stream carried no event"
    for event in events:
        assert event.get("id") == task_id, f"event for another task: {event}"
        assert is_status_event(event) or is_artifact_event(event), f"neither status nor artifact event: {event}"
    finals = [i for i, e in enumerate(events) if is_status_event(e) and e.get("final") is True]
    assert finals == [len(events) - 1], f"final=true only on the last event: {events}"
    last = events[-1]
    assert last["status"]["state"] == final_state, f"last state should be {final_state}: {last}"


def test_send_subscribe_streams_status_artifact_and_final(a2a, free_service):
    task_id = new_task_id()
    events = list(a2a.send_subscribe(task_id, [text_part('search for "budget"')]))
    assert not a2a.id_lines(), f"SSE `id:` lines are not allowed: {a2a.id_lines()}"
    check_stream(events, task_id, "completed")
    states = [e["status"]["state"] for e in events if is_status_event(e)]
    first_artifact = next((i for i, e in enumerate(events) if is_artifact_event(e)), None)
    assert first_artifact is not None, f"no artifact event: {events}"
    before = [e["status"]["state"] for e in events[:first_artifact] if is_status_event(e)]
    assert before and set(before) <= {"submitted", "working"}, f"status before the artifact: {before}"
    assert "working" in states, f"a working status is expected: {states}"
    parts = parts_of(events[first_artifact]["artifact"])
    assert text_parts(parts).strip() and data_parts(parts)[0]["skill"] == "search_meetings", parts
    assert free_service.real_meeting_id in data_parts(parts)[0]["meeting_ids"], parts
    task = a2a.get(task_id)
    assert task["status"]["state"] == "completed", task
    completed(task, "search_meetings")


def test_send_subscribe_refusal_ends_failed(a2a, free_service):
    task_id = new_task_id()
    events = list(a2a.send_subscribe(task_id, [skill_part("start_recording")]))
    assert not a2a.id_lines(), a2a.id_lines()
    check_stream(events, task_id, "failed")
    assert "pro" in status_text(events[-1]).lower(), f"the final status should carry the reason: {events[-1]}"
    assert a2a.get(task_id)["status"]["state"] == "failed"
    assert not free_service.recording_active()
