"""An A2A 1.0 client (a2a-sdk 1.x, in its own venv: .venv-a2a1, since the 0.3
SDK in .venv cannot live beside it). The pytest suite runs it as a program and
reads the JSON it prints.

    a2a1_client.py URL TOKEN basic
    a2a1_client.py URL TOKEN cancel MEETING_ID
    a2a1_client.py URL TOKEN skill SKILL ARGS_JSON [AGENT]

AGENT, when given, is the name the client goes by in a meeting's history: the
request's `metadata.agent`.
"""

from __future__ import annotations

import asyncio
import json
import sys

import httpx
from a2a.client import ClientConfig, create_client
from a2a.helpers import new_text_message
from a2a.types.a2a_pb2 import (
    AgentCard,
    CancelTaskRequest,
    GetTaskRequest,
    ListTasksRequest,
    Message,
    Part,
    Role,
    SendMessageRequest,
    SubscribeToTaskRequest,
)
from google.protobuf import json_format, struct_pb2


def as_dict(message) -> dict:
    return json_format.MessageToDict(message)


def skill_message(skill: str, args: dict) -> Message:
    data = json_format.ParseDict({"skill": skill, "args": args}, struct_pb2.Value())
    return Message(message_id=f"skill-{skill}", role=Role.ROLE_USER, parts=[Part(data=data)])


async def collect(client, request) -> list[dict]:
    return [as_dict(event) async for event in client.send_message(request)]


async def basic(url: str, token: str) -> dict:
    out: dict = {}
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http:
        plain = await create_client(url, client_config=ClientConfig(httpx_client=http, streaming=False))

        # The pure 1.0 card, read strictly (an unknown field or a wrong shape
        # fails) into the SDK's own AgentCard.
        card = (await http.get(url.rstrip("/") + "/v1/.well-known/agent-card.json")).json()
        out["card"] = as_dict(json_format.ParseDict(card, AgentCard()))

        text = new_text_message("what are my open action items?", role=Role.ROLE_USER)
        out["send"] = await collect(plain, SendMessageRequest(message=text))
        task_id = out["send"][-1]["task"]["id"]
        out["get"] = as_dict(await plain.get_task(GetTaskRequest(id=task_id, history_length=5)))
        out["list"] = as_dict(await plain.list_tasks(ListTasksRequest(page_size=5)))
        try:
            await plain.cancel_task(CancelTaskRequest(id=task_id))
            out["cancel_finished"] = "no error"
        except Exception as error:  # noqa: BLE001 - the type is what is checked
            out["cancel_finished"] = type(error).__name__
        streaming = await create_client(url, client_config=ClientConfig(httpx_client=http, streaming=True))
        out["stream"] = await collect(streaming, SendMessageRequest(message=skill_message("list_meetings", {"limit": 2})))
        try:
            async for _ in streaming.subscribe(SubscribeToTaskRequest(id=task_id)):
                pass
            out["subscribe_finished"] = "no error"
        except Exception as error:  # noqa: BLE001
            out["subscribe_finished"] = type(error).__name__
        bad = Message(message_id="no-role", parts=[Part(text="list my meetings")])
        try:
            await collect(streaming, SendMessageRequest(message=bad))
            out["no_role"] = "no error"
        except Exception as error:  # noqa: BLE001
            out["no_role"] = f"{type(error).__name__}: {error}"
        await plain.close()
        await streaming.close()
    return out


async def cancel(url: str, token: str, meeting_id: str) -> dict:
    """Streams regenerate_notes (stuck on a notes server that never answers),
    cancels it once it works, and reads the stream to its end."""
    out: dict = {"events": []}
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http:
        client = await create_client(url, client_config=ClientConfig(httpx_client=http, streaming=True))
        request = SendMessageRequest(message=skill_message("regenerate_notes", {"meeting_id": meeting_id}))
        canceled = None
        async for event in client.send_message(request):
            event = as_dict(event)
            out["events"].append(event)
            task = event.get("task") or {}
            update = event.get("statusUpdate") or {}
            state = (task.get("status") or update.get("status") or {}).get("state")
            task_id = task.get("id") or update.get("taskId")
            if state == "TASK_STATE_WORKING" and canceled is None:
                await asyncio.sleep(1.0)
                canceled = as_dict(await client.cancel_task(CancelTaskRequest(id=task_id)))
                out["cancel"] = canceled
                out["get"] = as_dict(await client.get_task(GetTaskRequest(id=task_id)))
        await client.close()
    return out


async def skill(url: str, token: str, name: str, args: dict, agent: str | None) -> dict:
    """One SendMessage (not streamed) with the data part {skill, args}."""
    request = SendMessageRequest(message=skill_message(name, args))
    if agent:
        request.metadata.update({"agent": agent})
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http:
        client = await create_client(url, client_config=ClientConfig(httpx_client=http, streaming=False))
        out = {"send": await collect(client, request)}
        await client.close()
    return out


def main() -> None:
    url, token, scenario, *rest = sys.argv[1:]
    if scenario == "basic":
        work = basic(url, token)
    elif scenario == "cancel":
        work = cancel(url, token, rest[0])
    else:
        work = skill(url, token, rest[0], json.loads(rest[1]), rest[2] if len(rest) > 2 else None)
    print(json.dumps(asyncio.run(work)))


if __name__ == "__main__":
    main()
