"""add_action_item and update_action_item: agents keep a meeting's action items
(Recorder Pro), through the official MCP client over stdio and Streamable HTTP
and through the A2A 1.x client. The service's meeting and its history are the
truth: the items change as the answers say, and the history names the MCP
client (`agent:<clientInfo.name>`). Bad arguments are refused by the gateway
before the service is asked (on Free, where the service would say "Pro")."""

from __future__ import annotations

import json

import pytest

from mcp_helpers import call, call_ok, dump, open_session, text_of
from test_a2a_v10 import run_client, state_of

TRANSPORTS = ["stdio", "http"]


def seeded_meeting(service, index: int) -> dict:
    """A seeded meeting (ready; the oldest is 0), a different one per test so that
    no two tests change the same meeting."""
    ready = [m for m in service.meetings(limit=200)["meetings"] if m["status"] == "ready"]
    ready.sort(key=lambda m: m["started_at"])
    assert len(ready) > index, f"fixture: only {len(ready)} ready meetings"
    return service.meeting(ready[index]["id"])


def items_by_id(service, meeting_id: str) -> dict[str, dict]:
    return {item["id"]: item for item in service.meeting(meeting_id)["action_items"]}


def changes_of(service, meeting_id: str, item_id: str) -> list[dict]:
    """The history's changes of one item, newest first."""
    changes = service.get(f"/v1/meetings/{meeting_id}/history")["changes"]
    return [change for change in changes if change["target"] == f"action_item:{item_id}"]


@pytest.mark.anyio
@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_mcp_add_then_update_changes_the_meeting(pro_service, transport):
    meeting = seeded_meeting(pro_service, 3 if transport == "stdio" else 4)
    meeting_id = meeting["id"]
    before = {item["id"] for item in meeting["action_items"]}
    agent = f"pytest-agent-{transport}"
    async with open_session(pro_service, transport, client_name=agent) as session:
        sc, text = await call_ok(session, "add_action_item",
                                 {"meeting_id": meeting_id, "text": "Send the signed contract to Dana"})
        item = sc["item"]
        assert item["text"] == "Send the signed contract to Dana", item
        assert item["done"] is False and item["due"] is None, item
        assert sc["meeting_id"] == meeting_id and sc["meeting_ids"] == [meeting_id], sc
        assert sc["meeting_title"] == meeting["title"], sc
        for said in (meeting["title"], item["text"], item["id"]):
            assert said in text, f"the answer should say {said!r}:\n{text}"
        stored = items_by_id(pro_service, meeting_id)
        assert set(stored) == before | {item["id"]}, f"GET /v1/meetings/:id items: {stored}"
        assert stored[item["id"]] == item, (stored[item["id"]], item)

        sc, text = await call_ok(session, "update_action_item", {
            "meeting_id": meeting_id, "item_id": item["id"], "owner": "Bob", "due": "2026-12-24", "done": True})
        updated = sc["item"]
        assert (updated["id"], updated["text"], updated["owner"], updated["due"], updated["done"]) == (
            item["id"], item["text"], "Bob", "2026-12-24", True), updated
        assert sc["changed"] == ["owner", "due", "done"] and sc["meeting_ids"] == [meeting_id], sc
        for said in (meeting["title"], "Bob", "marked done", "24 Dec 2026", item["text"]):
            assert said in text, f"the answer should say {said!r}:\n{text}"
        assert items_by_id(pro_service, meeting_id)[item["id"]] == updated

        # null clears the due date; false opens the item again; the owner stays.
        sc, text = await call_ok(session, "update_action_item",
                                 {"meeting_id": meeting_id, "item_id": item["id"], "due": None, "done": False})
        assert sc["item"]["due"] is None and sc["item"]["done"] is False and sc["item"]["owner"] == "Bob", sc
        assert "no due date" in text and "open again" in text, text
        assert items_by_id(pro_service, meeting_id)[item["id"]] == sc["item"]

        # get_action_items sees the item as it now is.
        listed, listed_text = await call_ok(session, "get_action_items", {"meeting_id": meeting_id})
        assert [i for i in listed["items"] if i["id"] == item["id"]][0]["owner"] == "Bob", listed["items"]
        # A model that reads only the text finds the id update_action_item needs.
        assert f"id {item['id']}" in listed_text, listed_text

    history = changes_of(pro_service, meeting_id, item["id"])
    assert history, f"no history of action_item:{item['id']}"
    assert all(change["by"] == f"agent:{agent}" for change in history), (
        f"the history should name the MCP client {agent!r}: {[c['by'] for c in history]}")
    assert history[-1]["before"] is None, f"the oldest change made the item: {history[-1]}"


@pytest.mark.anyio
async def test_mcp_unknown_item_is_not_found_with_where_to_look(pro_service):
    meeting_id = seeded_meeting(pro_service, 6)["id"]
    async with open_session(pro_service, "stdio") as session:
        result = await call(session, "update_action_item", {
            "meeting_id": meeting_id, "item_id": "01a2019a-0000-7000-8000-000000000000", "done": True})
    assert result.is_error, dump(result)
    assert result.structured_content["error"]["code"] == "not_found", dump(result)
    assert "get_action_items" in text_of(result), dump(result)


BAD_ARGUMENTS = [
    ("add_action_item", {"text": "Book the venue", "assignee": "Bob"}, "assignee"),
    ("add_action_item", {"text": "   "}, "`text` must not be empty"),
    ("add_action_item", {"text": "x" * 1001}, "at most 1000"),
    ("add_action_item", {"text": "Book the venue", "owner": "o" * 201}, "at most 200"),
    ("add_action_item", {"text": "Book the venue", "due": "24.12.2026"}, "YYYY-MM-DD"),
    ("add_action_item", {"text": "Book the venue", "due": "2026-02-30"}, "YYYY-MM-DD"),
    ("add_action_item", {}, "text"),
    ("update_action_item", {"item_id": "01a2019a-0000-7000-8000-000000000000"}, "at least one"),
    ("update_action_item", {"item_id": "01a2019a-0000-7000-8000-000000000000", "due": "tomorrow"}, "YYYY-MM-DD"),
    ("update_action_item", {"item_id": "01a2019a-0000-7000-8000-000000000000", "text": ""}, "`text` must not be empty"),
    ("update_action_item", {"item_id": "01a2019a-0000-7000-8000-000000000000", "finished": True}, "finished"),
    ("update_action_item", {"done": True}, "item_id"),
]


@pytest.mark.anyio
@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_bad_arguments_are_refused_before_the_service(free_service, transport):
    """On Free the service would refuse for the plan; these are the gateway's own answers."""
    meeting_id = free_service.real_meeting_id
    items = free_service.meeting(meeting_id)["action_items"]
    async with open_session(free_service, transport) as session:
        for name, args, says in BAD_ARGUMENTS:
            result = await call(session, name, {"meeting_id": meeting_id, **args})
            assert result.is_error, f"{name}({args}) should be refused:\n{dump(result)}"
            error = result.structured_content["error"]
            assert error["code"] == "invalid_arguments", f"{name}({args}): {dump(result)}"
            text = text_of(result)
            assert text.startswith(f"{name}: ") and says in text, f"{name}({args}) should say {says!r}: {text}"
    assert free_service.meeting(meeting_id)["action_items"] == items


def test_a2a_1_x_client_marks_an_item_done(pro_service):
    meeting_id = seeded_meeting(pro_service, 5)["id"]
    created = pro_service.api.post(f"/v1/meetings/{meeting_id}/action_items",
                                   json={"text": "Book the venue", "owner": "Alice"})
    assert created.status_code == 201, created.text
    item = created.json()
    out = run_client(pro_service, "skill", "update_action_item",
                     json.dumps({"meeting_id": meeting_id, "item_id": item["id"], "done": True}), "tracker-sync")
    last = out["send"][-1]
    assert state_of(last) == "TASK_STATE_COMPLETED", out["send"]
    parts = last["task"]["artifacts"][0]["parts"]
    data = [part["data"] for part in parts if "data" in part]
    assert data and data[0]["skill"] == "update_action_item" and data[0]["meeting_ids"] == [meeting_id], parts
    text = "\n".join(part["text"] for part in parts if "text" in part)
    assert "marked done" in text and "Book the venue" in text, text
    stored = items_by_id(pro_service, meeting_id)[item["id"]]
    assert stored["done"] is True and stored["owner"] == "Alice" and stored["text"] == "Book the venue", stored
    history = changes_of(pro_service, meeting_id, item["id"])
    # A2A has no client name of its own: this client gives one as `metadata.agent`.
    assert history and history[0]["by"] == "agent:tracker-sync", history
