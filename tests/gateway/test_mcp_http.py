"""The MCP Streamable HTTP transport's guard: bearer token and loopback Host."""

from __future__ import annotations

import httpx
import pytest

from mcp_helpers import http_session

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "gateway-tests", "version": "1"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def post(url: str, headers: dict) -> httpx.Response:
    return httpx.post(url, json=INITIALIZE, headers={**MCP_HEADERS, **headers}, timeout=15)


def error_code(response: httpx.Response) -> str | None:
    try:
        return response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def test_without_token_401_with_bearer_challenge(free_service):
    url = free_service.mcp_url()
    for headers in ({}, {"Authorization": "Bearer not-the-token"}, {"Authorization": "Basic Zm9vOmJhcg=="}):
        response = post(url, headers)
        assert response.status_code == 401, f"POST /mcp {headers}: {response.status_code} {response.text}"
        assert response.headers.get("www-authenticate", "").lower().startswith("bearer"), response.headers
        assert error_code(response) == "unauthorized", f"body should be the API error body: {response.text}"
        assert isinstance(response.json()["error"].get("message"), str)


def test_every_method_needs_the_token(free_service):
    url = free_service.mcp_url()
    for method in ("GET", "DELETE"):
        response = httpx.request(method, url, headers={"Accept": "text/event-stream"}, timeout=15)
        assert response.status_code == 401, f"{method} /mcp without token: {response.status_code} {response.text}"


def test_wrong_host_is_forbidden_before_the_token(free_service):
    url = free_service.mcp_url()
    token = {"Authorization": f"Bearer {free_service.token}"}
    for headers in ({**token, "Host": "evil.example"}, {"Host": "evil.example"},
                    {**token, "Host": "127.0.0.1.evil.example:80"}):
        response = post(url, headers)
        assert response.status_code == 403, f"POST /mcp {headers}: {response.status_code} {response.text}"
        assert error_code(response) == "forbidden_host", response.text


def test_loopback_hosts_and_token_are_accepted(free_service):
    port = free_service.gateway("mcp")
    url = free_service.mcp_url()
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        response = post(url, {"Authorization": f"Bearer {free_service.token}", "Host": host})
        assert response.status_code == 200, f"Host {host}: {response.status_code} {response.text}"


def test_no_cors_for_web_origins(free_service):
    response = post(free_service.mcp_url(), {"Authorization": f"Bearer {free_service.token}",
                                              "Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in {k.lower() for k in response.headers}, response.headers


@pytest.mark.anyio
async def test_sdk_client_with_wrong_token_cannot_connect(free_service):
    with pytest.raises(BaseException) as caught:  # noqa: PT011 - the SDK's error type varies
        async with http_session(free_service, token="wrong"):
            pass
    assert not isinstance(caught.value, TimeoutError), "the SDK should be refused at once, not time out"
