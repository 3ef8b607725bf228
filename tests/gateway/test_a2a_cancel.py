"""Canceling a running early-A2A task: notes regeneration against a notes server
that never answers runs until tasks/cancel ends it."""

from __future__ import annotations

import threading
import time

from harness import wait_for
from a2a_early import A2AError, EarlyA2A, is_status_event, new_task_id, skill_part


def test_cancel_a_running_task(slow_notes_service):
    service = slow_notes_service
    meeting_id = service.meetings(limit=1)["meetings"][0]["id"]
    task_id = new_task_id()
    events: list[dict] = []
    errors: list[BaseException] = []
    working = threading.Event()
    ended = threading.Event()
    streamer = EarlyA2A(service.a2a_url(), service.token)

    def consume() -> None:
        try:
            for event in streamer.send_subscribe(task_id, [skill_part("regenerate_notes", {"meeting_id": meeting_id})]):
                events.append(event)
                if is_status_event(event) and event["status"]["state"] == "working":
                    working.set()
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            ended.set()
            working.set()

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    try:
        with EarlyA2A(service.a2a_url(), service.token) as a2a:
            assert working.wait(30), "no working status within 30 s"
            assert not errors, f"the stream failed: {errors}"
            time.sleep(1.0)
            assert not ended.is_set(), f"the task should still be running (stuck notes server): {events}"
            assert a2a.get(task_id)["status"]["state"] == "working", a2a.get(task_id)
            # The stuck task blocks nobody else.
            other = a2a.send(new_task_id(), [skill_part("list_meetings", {"limit": 2})])
            assert other["status"]["state"] == "completed", f"another task while one is stuck: {other}"

            result = a2a.cancel(task_id)
            assert result["id"] == task_id and result["status"]["state"] == "canceled", f"tasks/cancel -> {result}"

            assert ended.wait(15), f"the stream did not end after the cancel: {events}"
            assert not errors, f"the stream failed: {errors}"
            assert not streamer.id_lines(), f"SSE `id:` lines: {streamer.id_lines()}"
            last = events[-1]
            assert is_status_event(last) and last["status"]["state"] == "canceled" and last.get("final") is True, (
                f"the stream should end with a final canceled status: {events}"
            )
            finals = [e for e in events if is_status_event(e) and e.get("final")]
            assert finals == [last], f"final=true only on the last event: {events}"
            assert not any("artifact" in e for e in events), f"a canceled task has no answer: {events}"

            got = a2a.get(task_id)
            assert got["status"]["state"] == "canceled", f"tasks/get after cancel: {got}"
            # The service's notes run was canceled with the task.
            wait_for(lambda: service.meeting(meeting_id)["status"] == "ready", 20,
                     "the service's notes run to be canceled", describe=lambda: service.meeting(meeting_id))
            try:
                again = a2a.cancel(task_id)
            except A2AError as error:
                assert error.code == -32002, f"canceling a canceled task: {error}"
            else:
                raise AssertionError(f"a canceled task is not cancelable again (-32002), got {again}")
    finally:
        thread.join(timeout=20)
        streamer.close()
