"""The gateway as an A2A v0.3 agent, driven by the official a2a-sdk (0.3.x):
card at /.well-known/agent-card.json, message/send and message/stream, tasks/get."""

from __future__ import annotations

import uuid

import httpx
import pytest
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory, create_text_message_object
from a2a.client.errors import A2AClientHTTPError, A2AClientJSONRPCError
from a2a.types import (
    AgentCard,
    DataPart,
    Message,
    Part,
    Role,
    Task,
    TaskIdParams,
    TaskQueryParams,
    TaskState,
    TextPart,
)

from mcp_helpers import SKILLS

pytestmark = pytest.mark.anyio


def http_client(service, token: str | None = "auto") -> httpx.AsyncClient:
    headers = {} if token is None else {"Authorization": f"Bearer {service.token if token == 'auto' else token}"}
    return httpx.AsyncClient(headers=headers, timeout=60)


async def resolve_card(service, http: httpx.AsyncClient) -> AgentCard:
    return await A2ACardResolver(http, service.a2a_url()).get_agent_card()


def parts(task: Task) -> tuple[str, list[dict]]:
    assert task.artifacts and len(task.artifacts) == 1, f"one artifact expected: {task.model_dump_json()}"
    texts, data = [], []
    for part in task.artifacts[0].parts:
        if isinstance(part.root, TextPart):
            texts.append(part.root.text)
        elif isinstance(part.root, DataPart):
            data.append(part.root.data)
    return "\n".join(texts), data


def status_text(task: Task) -> str:
    message = task.status.message
    if message is None:
        return ""
    return "\n".join(p.root.text for p in message.parts if isinstance(p.root, TextPart))


async def send(service, text: str, streaming: bool) -> tuple[Task, list]:
    """Sends one text message; returns the final task and the update events seen."""
    async with http_client(service) as http:
        card = await resolve_card(service, http)
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=streaming)).create(card)
        task, updates = None, []
        async for event in client.send_message(create_text_message_object(content=text)):
            assert isinstance(event, tuple), f"expected task events, got a message: {event}"
            task, update = event
            updates.append(update)
        assert task is not None, "no task came back"
        return task, updates


async def test_card_resolves_as_v03(free_service):
    async with http_client(free_service, token=None) as http:  # readable without a token
        card = await resolve_card(free_service, http)
    assert card.version and card.name and card.description, card
    assert card.url.startswith(free_service.a2a_url().rstrip("/")), card.url
    assert card.capabilities.streaming is True, card.capabilities
    assert card.capabilities.push_notifications in (False, None), card.capabilities
    assert sorted(s.id for s in card.skills) == sorted(SKILLS), [s.id for s in card.skills]
    for skill in card.skills:
        assert skill.description and skill.tags, skill


async def test_message_without_token_is_refused(free_service):
    async with http_client(free_service) as http:
        card = await resolve_card(free_service, http)
    async with http_client(free_service, token="wrong") as http:
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=False)).create(card)
        with pytest.raises(A2AClientHTTPError) as caught:
            async for _ in client.send_message(create_text_message_object(content="list my meetings")):
                pass
    assert caught.value.status_code == 401, caught.value


@pytest.mark.parametrize("streaming", [False, True], ids=["message-send", "message-stream"])
async def test_open_action_items(free_service, streaming):
    task, updates = await send(free_service, "what are my open action items?", streaming)
    assert task.status.state == TaskState.completed, f"task: {task.model_dump_json()}"
    text, data = parts(task)
    assert text.strip(), task.model_dump_json()
    assert len(data) == 1 and data[0].get("skill") == "get_action_items", f"data parts: {data}"
    assert isinstance(data[0].get("meeting_ids"), list) and isinstance(data[0].get("timestamps"), list), data
    assert task.context_id, "a v0.3 task has a contextId"
    if streaming:
        assert any(u is not None for u in updates), "message/stream should carry update events"

    # tasks/get by the server's id gives a v0.3 task.
    async with http_client(free_service) as http:
        card = await resolve_card(free_service, http)
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=False)).create(card)
        again = await client.get_task(TaskQueryParams(id=task.id))
        raw = (await http.post(free_service.a2a_url(), json={
            "jsonrpc": "2.0", "id": "g1", "method": "tasks/get", "params": {"id": task.id}})).json()
    assert again.id == task.id and again.status.state == TaskState.completed, again.model_dump_json()
    result = raw.get("result") or {}
    assert result.get("kind") == "task" and result.get("contextId") == task.context_id, f"raw tasks/get: {raw}"
    assert raw.get("id") == "g1", raw


async def test_data_part_names_the_skill_and_cancel_of_a_done_task(free_service):
    async with http_client(free_service) as http:
        card = await resolve_card(free_service, http)
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=False)).create(card)
        message = Message(role=Role.user, message_id=str(uuid.uuid4()), parts=[
            Part(TextPart(text="list my meetings")),
            Part(DataPart(data={"skill": "get_meeting", "args": {"meeting_id": "latest"}})),
        ])
        events = [event async for event in client.send_message(message)]
        task, _ = events[-1]
        assert task.status.state == TaskState.completed, task.model_dump_json()
        text, data = parts(task)
        assert data[0]["skill"] == "get_meeting" and data[0]["meeting_ids"] == [free_service.real_meeting_id], data
        with pytest.raises(A2AClientJSONRPCError) as caught:
            await client.cancel_task(TaskIdParams(id=task.id))
        assert caught.value.error.code == -32002, caught.value.error


async def test_refusal_fails_the_task(free_service):
    task, _ = await send(free_service, "start recording", streaming=False)
    assert task.status.state == TaskState.failed, f"Free plan start: {task.model_dump_json()}"
    assert "pro" in status_text(task).lower(), f"the reason belongs in status.message: {task.model_dump_json()}"
    task, _ = await send(free_service, "start recording", streaming=True)
    assert task.status.state == TaskState.failed, task.model_dump_json()
    assert "pro" in status_text(task).lower(), task.model_dump_json()
    assert not free_service.recording_active()
