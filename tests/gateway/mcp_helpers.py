"""MCP sessions to the gateway with the official SDK (mcp 2.x), over stdio and
over Streamable HTTP, and helpers to read tool results."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import Implementation

from harness import GATEWAY_BIN, Service

TOOLS = [
    "list_meetings",
    "get_meeting",
    "get_transcript",
    "search_meetings",
    "ask_meetings",
    "get_action_items",
    "add_action_item",
    "update_action_item",
    "regenerate_notes",
    "start_recording",
    "stop_recording",
    "add_marker",
]

# The A2A skills: the same, but the contract names the asking skill `ask`.
SKILLS = ["ask" if name == "ask_meetings" else name for name in TOOLS]


def _client_info(client_name: str | None) -> Implementation | None:
    """`clientInfo` for `initialize`: the SDK's own ("mcp") unless a name is given."""
    return Implementation(name=client_name, version="1.0") if client_name else None


@asynccontextmanager
async def stdio_session(service: Service, client_name: str | None = None) -> AsyncIterator[ClientSession]:
    """`recorder-gateway --data-dir D` (MCP over stdio) as the SDK runs it."""
    assert GATEWAY_BIN.exists(), f"no gateway binary at {GATEWAY_BIN}"
    params = StdioServerParameters(command=str(GATEWAY_BIN), args=["--data-dir", str(service.data_dir)])
    with open(service.base / "gateway-stdio.stderr", "a") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, client_info=_client_info(client_name)) as session:
                with anyio.fail_after(20):
                    await session.initialize()
                yield session


@asynccontextmanager
async def http_session(service: Service, token: str | None = None,
                       client_name: str | None = None) -> AsyncIterator[ClientSession]:
    """The SDK's Streamable HTTP client against `recorder-gateway --http`."""
    url = service.mcp_url()
    headers = {"Authorization": f"Bearer {token or service.token}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write, client_info=_client_info(client_name)) as session:
                with anyio.fail_after(20):
                    await session.initialize()
                yield session


def open_session(service: Service, transport: str, client_name: str | None = None):
    """An MCP session over `transport` (`stdio` or `http`), as the client `client_name`."""
    if transport == "stdio":
        return stdio_session(service, client_name=client_name)
    return http_session(service, client_name=client_name)


def dump(result: Any) -> str:
    """A tool result as JSON, for assertion messages."""
    try:
        return json.dumps(result.model_dump(by_alias=True, mode="json", exclude_none=True), indent=1)[:4000]
    except Exception:  # noqa: BLE001
        return repr(result)[:4000]


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", None) == "text")


class ToolError(Exception):
    """A tools/call answered with a JSON-RPC error instead of a result."""

    def __init__(self, error: MCPError):
        super().__init__(str(error))
        self.error = error


async def call(session: ClientSession, name: str, args: dict | None = None, timeout: float = 60) -> Any:
    """tools/call; returns the CallToolResult (JSON-RPC errors raise ToolError)."""
    try:
        with anyio.fail_after(timeout):
            return await session.call_tool(name, args if args is not None else {})
    except MCPError as error:
        raise ToolError(error) from error


async def call_ok(session: ClientSession, name: str, args: dict | None = None, timeout: float = 60) -> tuple[dict, str]:
    """A successful call: (structuredContent, text), with the common keys checked."""
    result = await call(session, name, args, timeout)
    assert not result.is_error, f"{name}({args}) failed:\n{dump(result)}"
    text = text_of(result)
    assert text.strip(), f"{name}({args}) has no text content:\n{dump(result)}"
    sc = result.structured_content
    assert isinstance(sc, dict), f"{name}({args}) has no structuredContent object:\n{dump(result)}"
    assert sc.get("skill") == name, f"structuredContent.skill should be {name!r}:\n{dump(result)}"
    assert isinstance(sc.get("meeting_ids"), list), f"structuredContent.meeting_ids missing:\n{dump(result)}"
    assert isinstance(sc.get("timestamps"), list), f"structuredContent.timestamps missing:\n{dump(result)}"
    for ts in sc["timestamps"]:
        assert isinstance(ts, dict) and isinstance(ts.get("meeting_id"), str), f"bad timestamp {ts!r}"
    return sc, text


async def call_refused(session: ClientSession, name: str, args: dict | None, code: str, gate: str,
                       says: str) -> tuple[dict, str]:
    """A refusal: isError, the reason in the text, structuredContent.error {code, gate, message}."""
    result = await call(session, name, args)
    assert result.is_error, f"{name}({args}) should be refused ({code}) but succeeded:\n{dump(result)}"
    text = text_of(result)
    assert says.lower() in text.lower(), f"{name}({args}): the refusal should say {says!r}:\n{dump(result)}"
    sc = result.structured_content
    assert isinstance(sc, dict) and isinstance(sc.get("error"), dict), (
        f"{name}({args}): structuredContent.error missing:\n{dump(result)}"
    )
    error = sc["error"]
    assert error.get("code") == code, f"{name}({args}): error.code should be {code!r}:\n{dump(result)}"
    assert error.get("gate") == gate, f"{name}({args}): error.gate should be {gate!r}:\n{dump(result)}"
    assert isinstance(error.get("message"), str) and error["message"], f"error.message missing:\n{dump(result)}"
    return error, text


async def call_invalid(session: ClientSession, name: str, args: dict, names: str) -> str:
    """Bad arguments: a tool error (isError) or a JSON-RPC error whose message names `names`."""
    try:
        result = await call(session, name, args)
    except ToolError as error:
        message = str(error.error)
        assert names in message, f"{name}({args}): the error should name {names!r}: {message}"
        return message
    assert result.is_error, f"{name}({args}) should be refused as invalid arguments:\n{dump(result)}"
    text = text_of(result)
    assert names in text, f"{name}({args}): the error should name {names!r}:\n{dump(result)}"
    return text
