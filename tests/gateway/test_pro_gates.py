"""Pro operations through agents: recording start/marker/stop, notes regeneration,
and every refusal gate (policy, setting, state), over MCP and early A2A."""

from __future__ import annotations

import contextlib

import pytest

from a2a_early import EarlyA2A, data_parts, new_task_id, parts_of, skill_part, status_text, text_parts
from mcp_helpers import call_ok, call_refused, open_session, stdio_session

anyio_mark = pytest.mark.anyio


@contextlib.contextmanager
def policy(service, values: dict):
    service.set_policy(values)
    try:
        yield
    finally:
        service.set_policy(None)


@contextlib.contextmanager
def remote_start_off(service):
    service.set_setting("general.allow_remote_start", "false")
    try:
        yield
    finally:
        service.set_setting("general.allow_remote_start", "true")


# ---------------------------------------------------------------------------
# MCP
# ---------------------------------------------------------------------------


@anyio_mark
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_mcp_start_marker_stop(pro, transport):
    async with open_session(pro, transport) as session:
        sc, text = await call_ok(session, "start_recording", {"title": f"Agent standup {transport}", "source_app": "zoom"})
        meeting = sc.get("meeting")
        assert isinstance(meeting, dict) and meeting.get("status") == "recording", f"start_recording:\n{sc}"
        meeting_id = meeting["id"]
        assert meeting["title"] == f"Agent standup {transport}" and meeting["source_app"] == "zoom", meeting
        assert meeting_id in sc["meeting_ids"], sc["meeting_ids"]
        health = pro.health()["recording"]
        assert health["active"] and health.get("meeting_id") == meeting_id, health

        # A second start is a state refusal.
        await call_refused(session, "start_recording", {}, "already_recording", "state", "record")

        sc, _ = await call_ok(session, "add_marker", {"label": "pricing question"})
        assert sc["meeting_id"] == meeting_id, sc
        marker = sc["marker"]
        assert marker["label"] == "pricing question" and isinstance(marker["at_ms"], int), marker
        sc, _ = await call_ok(session, "add_marker", {})
        assert sc["marker"]["label"] == "Marker", f"the default label is the service's: {sc['marker']}"
        stored = pro.meeting(meeting_id)["markers"]
        assert marker["id"] in [m["id"] for m in stored], f"marker not in the meeting: {stored}"

        sc, _ = await call_ok(session, "stop_recording", {})
        assert sc["meeting_id"] == meeting_id and sc["status"] == "transcribing", sc
        assert not pro.recording_active(), pro.health()


@anyio_mark
async def test_mcp_state_refusals_when_nothing_records(pro):
    async with stdio_session(pro) as session:
        await call_refused(session, "stop_recording", {}, "not_recording", "state", "record")
        await call_refused(session, "add_marker", {"label": "nothing"}, "not_recording", "state", "record")


@anyio_mark
async def test_mcp_remote_start_setting_off(pro):
    with remote_start_off(pro):
        async with stdio_session(pro) as session:
            await call_refused(session, "start_recording", {"title": "Not allowed"}, "remote_start_disabled",
                               "setting", "Allow agents to start recordings")
    assert not pro.recording_active()


@anyio_mark
async def test_mcp_policy_disable_agent_recording(pro):
    with policy(pro, {"DisableAgentRecording": True, "OrganizationName": "Acme IT"}):
        async with stdio_session(pro) as session:
            _, text = await call_refused(session, "start_recording", {"title": "Managed"}, "policy_denied",
                                         "policy", "Managed by")
            assert "Acme IT" in text, f"the refusal should name the organisation:\n{text}"
            # Reads still work under the policy.
            await call_ok(session, "list_meetings", {"limit": 1})
    assert not pro.recording_active()


@anyio_mark
async def test_mcp_policy_wins_over_setting(pro):
    """Order of checks: policy before setting."""
    with remote_start_off(pro), policy(pro, {"DisableAgentRecording": True}):
        async with stdio_session(pro) as session:
            await call_refused(session, "start_recording", {}, "policy_denied", "policy", "Managed by")


@anyio_mark
async def test_mcp_regenerate_notes_on_pro(pro):
    listing = pro.meetings(limit=200)["meetings"]
    meeting_id = listing[-1]["id"]  # the oldest seeded meeting
    pro.wait_ready(listing[0]["id"])  # a meeting recorded by an earlier test may still be transcribing
    async with stdio_session(pro) as session:
        sc, text = await call_ok(session, "regenerate_notes", {"meeting_id": meeting_id, "kind": "key_points"},
                                 timeout=120)
        latest_sc, _ = await call_ok(session, "regenerate_notes", {"meeting_id": "latest"}, timeout=120)
    assert sc["meeting_id"] == meeting_id and sc["kind"] == "key_points", sc
    assert isinstance(sc["status"], str) and isinstance(sc["notes"], list) and isinstance(sc["action_items"], list), sc
    truth = pro.meeting(meeting_id)
    assert truth["status"] == "ready", truth["status"]
    kinds = [n["kind"] for n in sc["notes"]]
    assert "key_points" in kinds, f"the regenerated note should be in the answer: {kinds}"
    assert {n["id"] for n in sc["notes"]} == {n["id"] for n in truth["notes"]}, (sc["notes"], truth["notes"])
    assert latest_sc["meeting_id"] == pro.latest_meeting_id() and latest_sc["kind"] == "summary", latest_sc


# ---------------------------------------------------------------------------
# early A2A
# ---------------------------------------------------------------------------


def completed(task: dict, skill: str) -> dict:
    assert task["status"]["state"] == "completed", f"task should be completed: {task}"
    artifacts = task.get("artifacts") or []
    assert len(artifacts) == 1, f"one artifact expected: {artifacts}"
    parts = parts_of(artifacts[0])
    assert text_parts(parts).strip(), f"no text part: {parts}"
    data = data_parts(parts)
    assert len(data) == 1 and data[0]["skill"] == skill, f"data part should name {skill}: {parts}"
    return data[0]


def test_a2a_start_marker_stop(pro):
    with EarlyA2A(pro.a2a_url(), pro.token) as a2a:
        start = a2a.send(new_task_id(), [skill_part("start_recording", {"title": "A2A call"})])
        data = completed(start, "start_recording")
        assert len(data["meeting_ids"]) == 1, data
        meeting_id = data["meeting_ids"][0]
        assert pro.health()["recording"].get("meeting_id") == meeting_id
        marker = a2a.send(new_task_id(), [skill_part("add_marker", {"label": "decision"})])
        assert completed(marker, "add_marker")["meeting_ids"] == [meeting_id]
        assert "decision" in [m["label"] for m in pro.meeting(meeting_id)["markers"]]
        stop = a2a.send(new_task_id(), [skill_part("stop_recording")])
        assert completed(stop, "stop_recording")["meeting_ids"] == [meeting_id]
    assert not pro.recording_active()


def test_a2a_refusals_fail_the_task_with_the_reason(pro):
    with EarlyA2A(pro.a2a_url(), pro.token) as a2a:
        stop = a2a.send(new_task_id(), [skill_part("stop_recording")])
        assert stop["status"]["state"] == "failed", stop
        assert status_text(stop).strip(), f"the reason belongs in status.message: {stop}"
        with policy(pro, {"DisableAgentRecording": True}):
            task = a2a.send(new_task_id(), [skill_part("start_recording", {"title": "Managed"})])
            assert task["status"]["state"] == "failed", f"start under DisableAgentRecording: {task}"
            assert "Managed by" in status_text(task), f"reason should say 'Managed by': {task}"
            assert not task.get("artifacts"), task
            routed = a2a.send(new_task_id(), [{"type": "text", "text": "start recording"}])
            assert routed["status"]["state"] == "failed" and "Managed by" in status_text(routed), routed
        with remote_start_off(pro):
            task = a2a.send(new_task_id(), [skill_part("start_recording")])
            assert task["status"]["state"] == "failed", task
            assert "Allow agents to start recordings" in status_text(task), task
    assert not pro.recording_active()
