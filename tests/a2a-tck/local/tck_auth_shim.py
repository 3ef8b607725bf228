"""Local pytest plugin: inject a bearer token into the A2A TCK's HTTP requests.

NOT part of upstream a2a-tck. Written for our CI because the vendored TCK lines
(v0.3 @ 0.3.x and v1.0 @ 1.0-dev) have no way to pass credentials to the SUT:
their JSON-RPC clients (httpx) and raw-request helpers (requests) never send an
Authorization header. (Upstream `main` @ 410ba92 has A2A_AUTH_* env vars; the
other two lines do not.)

Usage (works through run_tck.py because it starts pytest as a subprocess and
pytest honours PYTEST_ADDOPTS):

    export A2A_AUTH_TOKEN=...                       # required, else plugin is a no-op
    export PYTHONPATH=/path/to/a2a-tck/local${PYTHONPATH:+:$PYTHONPATH}
    export PYTEST_ADDOPTS="-p tck_auth_shim"
    ./run_tck.py --sut-url http://127.0.0.1:8080/a2a --category mandatory   # v0.3
    ./run_tck.py --sut-host http://127.0.0.1:8080 --transport jsonrpc       # v1.0

Behaviour:
  * Adds "Authorization: Bearer $A2A_AUTH_TOKEN" to every httpx (sync+async) and
    requests request whose host:port is the SUT's (taken from --sut-url /
    --sut-host, or A2A_AUTH_HOSTS="host:port,host:port"), unless the request
    already carries an Authorization header (so the TCK's deliberately invalid
    credentials are sent unchanged).
  * Sends NOTHING extra while a test whose node id matches A2A_AUTH_SKIP_TESTS
    (a Python regex; default below) is running, so the TCK's
    "request without credentials must get 401/403" tests still see an
    unauthenticated request. Set A2A_AUTH_SKIP_TESTS="" to inject everywhere.
  * gRPC is not touched (our SUT has no gRPC).
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

import pytest

# Tests whose point is to send a request WITHOUT credentials (v0.3 line).
# The v1.0 (1.0-dev) line has no such test at 357c4a8.
DEFAULT_SKIP = (
    r"test_authentication_required_when_declared"
    r"|test_missing_authentication"
    r"|test_authenticated_extended_card_without_auth"
    r"|test_extended_agent_card_endpoint_exists"
    r"|test_extended_agent_card_authentication_required"
    r"|test_extended_agent_card_response_format"
    r"|test_extended_card_access_controls"
    r"|test_authentication_error_codes"
    r"|test_authentication_transport_consistency"
    r"|test_security_error_response_compliance"
    r"|test_authentication_challenge_headers"
)

_token = os.environ.get("A2A_AUTH_TOKEN", "")
_skip_re = re.compile(os.environ.get("A2A_AUTH_SKIP_TESTS", DEFAULT_SKIP) or r"(?!x)x")
_hosts: set[str] = set()
_current_nodeid: str = ""


def _hostport(url: str) -> str:
    parts = urlsplit(str(url))
    port = parts.port or (443 if parts.scheme in ("https", "wss") else 80)
    return f"{(parts.hostname or '').lower()}:{port}"


def _wanted(url) -> bool:
    if not _token:
        return False
    if _current_nodeid and _skip_re.search(_current_nodeid):
        return False
    return _hostport(str(url)) in _hosts


def _patch() -> None:
    import httpx

    orig_send = httpx.Client.send
    orig_asend = httpx.AsyncClient.send

    def send(self, request, *args, **kwargs):
        if "authorization" not in request.headers and _wanted(request.url):
            request.headers["Authorization"] = f"Bearer {_token}"
        return orig_send(self, request, *args, **kwargs)

    async def asend(self, request, *args, **kwargs):
        if "authorization" not in request.headers and _wanted(request.url):
            request.headers["Authorization"] = f"Bearer {_token}"
        return await orig_asend(self, request, *args, **kwargs)

    httpx.Client.send = send
    httpx.AsyncClient.send = asend

    try:
        import requests
    except ImportError:  # v1.0 line does not use requests
        return

    orig_rsend = requests.Session.send

    def rsend(self, request, **kwargs):
        if "Authorization" not in request.headers and _wanted(request.url):
            request.headers["Authorization"] = f"Bearer {_token}"
        return orig_rsend(self, request, **kwargs)

    requests.Session.send = rsend


def pytest_configure(config: pytest.Config) -> None:
    for opt in ("--sut-url", "--sut-host"):
        try:
            val = config.getoption(opt)
        except (ValueError, AttributeError):
            val = None
        if val:
            _hosts.add(_hostport(val))
    for item in filter(None, (h.strip().lower() for h in os.environ.get("A2A_AUTH_HOSTS", "").split(","))):
        _hosts.add(item if ":" in item else f"{item}:80")
    if _token:
        _patch()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _current_nodeid
    _current_nodeid = item.nodeid
    try:
        yield
    finally:
        _current_nodeid = ""


def pytest_report_header(config):
    state = "ON" if _token else "OFF (A2A_AUTH_TOKEN unset)"
    return f"tck_auth_shim: bearer injection {state}; hosts={sorted(_hosts)}"
