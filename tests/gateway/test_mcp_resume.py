"""Resumable MCP streams over Streamable HTTP: a client whose connection drops
in the middle of a slow tool call reconnects with GET + Last-Event-ID (and its
Mcp-Session-Id) and gets the events it missed, the tool's answer included.

The slow call is regenerate_notes on a Pro service whose notes provider is a
local server that never answers; closing that server ends the notes run (it
fails), and the tool answers."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from conftest import SilentServer
from harness import Service

PROTOCOL = "2025-06-18"
CALL_ID = 7


@pytest.fixture(scope="module")
def stuck_notes(services):
    """A Pro service whose notes server never answers, and that server."""
    server = SilentServer()
    service = services.start("resume", pro=True)
    service.set_setting("ai.provider", "local")
    service.set_setting("ai.local_url", f"http://127.0.0.1:{server.port}")
    try:
        yield service, server
    finally:
        server.close()
        service.stop()


def headers(service: Service, session: str | None = None,
            accept: str = "application/json, text/event-stream") -> dict[str, str]:
    out = {"Authorization": f"Bearer {service.token}", "Accept": accept,
           "Content-Type": "application/json", "Mcp-Protocol-Version": PROTOCOL}
    if session:
        out["Mcp-Session-Id"] = session
    return out


def events(response: httpx.Response):
    """The SSE events of a streamed response, as they come: dicts of id, retry, data."""
    event: dict[str, str] = {}
    for line in response.iter_lines():
        if line == "":
            if event:
                yield event
            event = {}
            continue
        name, _, value = line.partition(":")
        if name:
            event[name] = event.get(name, "") + value.removeprefix(" ")


def message(event: dict[str, str]) -> dict | None:
    try:
        return json.loads(event.get("data") or "null")
    except ValueError:
        return None


def start_session(http: httpx.Client, service: Service) -> str:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": PROTOCOL, "capabilities": {},
        "clientInfo": {"name": "resume-test", "version": "1"}}}
    with http.stream("POST", service.mcp_url(), json=init, headers=headers(service)) as response:
        assert response.status_code == 200, response.read()
        session = response.headers["mcp-session-id"]
        for event in events(response):
            if (message(event) or {}).get("id") == 1:
                break
    done = http.post(service.mcp_url(), json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                     headers=headers(service, session))
    assert done.status_code in (200, 202), done.text
    return session


def test_a_client_that_lost_the_stream_mid_call_gets_the_answer(stuck_notes):
    service, notes_server = stuck_notes
    meeting_id = service.meetings(limit=1)["meetings"][0]["id"]
    url = service.mcp_url()
    with httpx.Client(timeout=httpx.Timeout(30, read=30)) as http:
        session = start_session(http, service)
        call = {"jsonrpc": "2.0", "id": CALL_ID, "method": "tools/call", "params": {
            "name": "regenerate_notes", "arguments": {"meeting_id": meeting_id},
            "_meta": {"progressToken": "resume-test"}}}

        # The POST's stream: the priming event (an id, a retry, no data), then
        # progress; the connection drops after the first progress.
        seen: list[dict[str, str]] = []
        with http.stream("POST", url, json=call, headers=headers(service, session)) as response:
            assert response.status_code == 200, response.read()
            assert response.headers["content-type"].startswith("text/event-stream")
            for event in events(response):
                seen.append(event)
                if (message(event) or {}).get("method") == "notifications/progress":
                    break
        assert seen[0].get("id") and "retry" in seen[0] and not seen[0].get("data"), seen
        assert all(event.get("id") for event in seen), seen
        assert not any((message(event) or {}).get("id") == CALL_ID for event in seen), seen
        last_id = seen[-1]["id"]

        # Still running: a reconnect follows the stream; drop it again at once.
        get = headers(service, session, accept="text/event-stream") | {"Last-Event-ID": last_id}
        with http.stream("GET", url, headers=get, timeout=httpx.Timeout(30, read=2)) as response:
            assert response.status_code == 200, response.read()
            try:
                for event in events(response):
                    assert (message(event) or {}).get("id") != CALL_ID, event
                    if event.get("id"):
                        last_id = event["id"]
            except httpx.ReadTimeout:
                pass  # nothing new while the notes server is stuck

        # While the client is away, the notes run fails and the tool answers.
        notes_server.close()
        deadline = time.monotonic() + 60
        while service.meeting(meeting_id)["status"] != "ready" and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.0)

        get = headers(service, session, accept="text/event-stream") | {"Last-Event-ID": last_id}
        answer = None
        replayed: list[dict[str, str]] = []
        with http.stream("GET", url, headers=get, timeout=httpx.Timeout(30, read=30)) as response:
            assert response.status_code == 200, response.read()
            for event in events(response):
                replayed.append(event)
                if (message(event) or {}).get("id") == CALL_ID:
                    answer = message(event)
                    break
        assert answer is not None, f"no answer after Last-Event-ID {last_id}: {replayed}"
        assert "result" in answer, answer
        assert answer["result"].get("content"), answer
        assert all(event.get("id") and event["id"] != last_id for event in replayed), replayed

        # The session goes on.
        ping = {"jsonrpc": "2.0", "id": CALL_ID + 1, "method": "ping"}
        with http.stream("POST", url, json=ping, headers=headers(service, session)) as response:
            assert response.status_code == 200
            assert any((message(event) or {}).get("id") == CALL_ID + 1 for event in events(response))
