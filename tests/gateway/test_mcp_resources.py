"""MCP beyond tools, with the official Python SDK: resources (listing,
templates, reading, subscribing and an update after a PATCH), prompts, progress
notifications while regenerate_notes waits, logging, and output schemas."""

from __future__ import annotations

import json

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from conftest import REAL_TITLE
from mcp_helpers import TOOLS, open_session

pytestmark = pytest.mark.anyio

TRANSPORTS = ["stdio", "http"]


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_resources_list_templates_and_read(free_service, transport):
    meeting_id = free_service.real_meeting_id
    truth = free_service.meeting(meeting_id)
    async with open_session(free_service, transport) as session:
        listed = await session.list_resources()
        templates = await session.list_resource_templates()
        collection = await session.read_resource("recorder://meetings")
        one = await session.read_resource(f"recorder://meetings/{meeting_id}")
        transcript = await session.read_resource(f"recorder://meetings/{meeting_id}/transcript")
        notes = await session.read_resource(f"recorder://meetings/{meeting_id}/notes")
        with pytest.raises(Exception) as missing:
            await session.read_resource("recorder://meetings/01a2019a-0000-7000-8000-000000000000/notes")
    uris = [str(r.uri) for r in listed.resources]
    assert uris[0] == "recorder://meetings", uris[:3]
    assert f"recorder://meetings/{meeting_id}" in uris, uris
    assert all(r.name for r in listed.resources), listed.resources
    assert sorted(t.uri_template for t in templates.resource_templates) == [
        "recorder://meetings/{id}", "recorder://meetings/{id}/notes", "recorder://meetings/{id}/transcript"]
    newest = json.loads(collection.contents[0].text)
    assert [m["id"] for m in newest["meetings"]] == [m["id"] for m in free_service.meetings(limit=50)["meetings"]]
    assert json.loads(one.contents[0].text)["title"] == REAL_TITLE
    assert one.contents[0].mime_type == "application/json"
    said = free_service.transcript(meeting_id, "md")
    assert transcript.contents[0].text.strip() == said.strip(), transcript.contents[0].text[:500]
    text = notes.contents[0].text
    assert text.startswith(f"# {REAL_TITLE}") and "## Summary" in text, text[:500]
    for item in truth["action_items"]:
        assert item["text"] in text, (item, text)
    assert "-32002" in str(missing.value) or "not found" in str(missing.value).lower(), missing.value


async def test_subscribe_and_hear_of_a_patch(free_service):
    meeting_id = free_service.real_meeting_id
    uri = f"recorder://meetings/{meeting_id}"
    updated: list[str] = []
    heard = anyio.Event()

    async def on_message(message) -> None:
        params = getattr(getattr(message, "root", message), "params", None)
        if params is not None and str(getattr(params, "uri", "")) == uri:
            updated.append(str(params.uri))
            heard.set()

    headers = {"Authorization": f"Bearer {free_service.token}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(free_service.mcp_url(), http_client=http) as (read, write):
            async with ClientSession(read, write, message_handler=on_message) as session:
                await session.initialize()
                await session.subscribe_resource(uri)
                await anyio.sleep(0.5)  # the gateway opens the service's event stream
                title = free_service.meeting(meeting_id)["title"]
                response = free_service.api.patch(f"/v1/meetings/{meeting_id}", json={"title": title})
                assert response.status_code == 200, response.text
                with anyio.fail_after(15):
                    await heard.wait()
    assert updated and updated[0] == uri, updated


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_prompts(free_service, transport):
    async with open_session(free_service, transport) as session:
        listed = await session.list_prompts()
        briefing = await session.get_prompt("prepare_for_meeting", {"person": "Dana"})
        week = await session.get_prompt("summarise_my_week", {})
        with pytest.raises(Exception) as missing:
            await session.get_prompt("prepare_for_meeting", {})
    names = sorted(p.name for p in listed.prompts)
    assert names == ["open_action_items", "prepare_for_meeting", "summarise_my_week"], names
    assert all(p.description for p in listed.prompts)
    text = briefing.messages[0].content.text
    assert briefing.messages[0].role == "user" and 'search_meetings with query = "Dana"' in text, text
    assert "list_meetings" in week.messages[0].content.text
    assert "person" in str(missing.value), missing.value
    # Every tool a prompt names exists.
    for prompt in (text, week.messages[0].content.text):
        for word in prompt.replace(",", " ").split():
            if word.endswith(("_meetings", "_items", "_meeting", "_transcript")):
                assert word in TOOLS, word


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_tools_declare_output_schemas_the_sdk_checks(free_service, transport):
    async with open_session(free_service, transport) as session:
        tools = await session.list_tools()
        # The SDK validates structuredContent against outputSchema on every call.
        for name, args in [("list_meetings", {"limit": 2}), ("get_meeting", {"meeting_id": "latest"}),
                           ("search_meetings", {"query": "budget"}), ("get_action_items", {}),
                           ("get_transcript", {"meeting_id": "latest"})]:
            result = await session.call_tool(name, args)
            assert not result.is_error, (name, result)
    for tool in tools.tools:
        assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
        assert set(tool.output_schema["required"]) >= {"skill", "meeting_ids", "timestamps"}, tool.name


async def test_logging_reaches_a_client_that_asks(free_service):
    lines: list = []

    async def on_log(params) -> None:
        lines.append(params)

    headers = {"Authorization": f"Bearer {free_service.token}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(free_service.mcp_url(), http_client=http) as (read, write):
            async with ClientSession(read, write, logging_callback=on_log) as session:
                await session.initialize()
                await session.set_logging_level("debug")
                # The gateway logs each call at info.
                await session.call_tool("list_meetings", {"limit": 1})
                with anyio.fail_after(10):
                    while not lines:
                        await anyio.sleep(0.1)
    assert lines[0].logger == "recorder-gateway", lines[0]
    assert any("list_meetings" in str(line.data) for line in lines), lines
    assert free_service.token not in str(lines), "a token in a log line"


async def test_progress_while_notes_are_regenerated(pro):
    meeting_id = pro.meetings(limit=1)["meetings"][0]["id"]
    steps: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        steps.append((progress, total, message))

    async with open_session(pro, "http") as session:
        result = await session.call_tool("regenerate_notes", {"meeting_id": meeting_id},
                                         progress_callback=on_progress)
    assert not result.is_error, result
    assert result.structured_content["status"] == "ready", result.structured_content
    assert steps, "no notifications/progress while the notes were written"
    values = [step[0] for step in steps]
    assert values == sorted(values) and len(set(values)) == len(values), steps
    assert all(total == 100 for _, total, _ in steps) and all(message for _, _, message in steps), steps
    assert values[-1] == 100, steps


async def test_canceling_a_call_cancels_the_notes_run(slow_notes_service):
    """The client gives up on regenerate_notes (the notes server never answers):
    the SDK sends notifications/cancelled, and the service's run stops too."""
    service = slow_notes_service
    meeting_id = service.meetings(limit=1)["meetings"][0]["id"]
    async with open_session(service, "http") as session:
        with anyio.move_on_after(3):
            await session.call_tool("regenerate_notes", {"meeting_id": meeting_id})
        # Still in the session: it is the cancellation, not the session's end, that stops it.
        with anyio.fail_after(20):
            while service.meeting(meeting_id)["status"] != "ready":
                await anyio.sleep(0.2)
        await session.send_ping()
