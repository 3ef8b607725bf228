"""Nothing leaves the machine: a whole lifecycle (an import, a recording from
files, notes by the built-in engine, a regeneration, an export, a search, MCP
calls over stdio and HTTP, an A2A call) inside a network namespace with only
loopback, every `recorder` and `recorder-gateway` process under strace. Every
connect() they made goes to loopback (or a local socket file) and the Privacy
Ledger stays empty. Then the same with a notes server on 127.0.0.1: the
ledger shows exactly its requests."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import anyio
import httpx
import pytest

import connects
from conftest import ROOT, TRACES
from harness import Service, prepare_service, synthesize_speech, wait_for
from mcp_helpers import http_session, stdio_session


def test_the_namespace_has_only_loopback():
    # /proc/self/net is this process's network namespace (/sys may show another).
    lines = Path("/proc/self/net/dev").read_text().splitlines()[2:]
    interfaces = sorted(line.split(":")[0].strip() for line in lines)
    assert interfaces == ["lo"], (
        f"not isolated (interfaces {interfaces}): run this through scripts/no-egress-tests.sh"
    )


def test_the_trace_sees_a_connect_off_the_machine(tmp_path):
    """The check can fail: a process that tries a documentation address
    (192.0.2.1, RFC 5737) and [2001:db8::1] is caught, although neither is
    reachable from here."""
    script = (
        "import socket\n"
        "for family, address in ((socket.AF_INET, ('192.0.2.1', 9)), (socket.AF_INET6, ('2001:db8::1', 9))):\n"
        "    s = socket.socket(family)\n"
        "    s.settimeout(1)\n"
        "    try: s.connect(address)\n"
        "    except OSError: pass\n"
    )
    subprocess.run(["strace", "-f", "-qq", "-e", "trace=connect", "-o", str(tmp_path / "probe.trace"),
                    sys.executable, "-c", script], check=True)
    found = connects.read(tmp_path)
    assert {(c.family, c.address) for c in found if not c.loopback} == {
        ("AF_INET", "192.0.2.1"), ("AF_INET6", "2001:db8::1")}, found


@pytest.fixture(scope="module")
def speech(tmp_path_factory) -> Path:
    return synthesize_speech(tmp_path_factory.mktemp("speech"))


@pytest.fixture
def service(tmp_path, speech):
    service = prepare_service(tmp_path, "no-egress", seed_meetings=3)
    service.start(["--mic-file", str(speech), "--sys-file", str(speech), "--audio-speed", "4"])
    service.install_licence()
    yield service
    service.stop()


def record_a_call(service: Service) -> str:
    started = service.api.post("/v1/recording/start", json={"source_app": "zoom", "title": "Budget call"})
    assert started.status_code == 201, started.text
    meeting_id = started.json()["id"]
    wait_for(lambda: service.health()["recording"]["active"], 10, "the recording to start")
    anyio.run(anyio.sleep, 4)
    stopped = service.api.post("/v1/recording/stop")
    assert stopped.status_code == 200, stopped.text
    service.wait_ready(meeting_id)
    return meeting_id


async def gateway_calls(service: Service) -> None:
    for session_of in (stdio_session, http_session):
        async with session_of(service) as session:
            result = await session.call_tool("search_meetings", {"query": "budget"})
            assert not result.is_error, result
    card = httpx.get(service.a2a_url() + ".well-known/agent-card.json", timeout=15)
    assert card.status_code == 200, card.text


def outside_connects() -> list[connects.Connect]:
    found = connects.read(TRACES)
    assert any(c.family == "AF_INET" and c.loopback for c in found), (
        "no loopback connect() was traced at all: the trace is not working"
    )
    return [c for c in found if not c.loopback]


def test_a_whole_lifecycle_connects_only_to_loopback_and_the_ledger_stays_empty(service, speech, tmp_path):
    imported = service.import_audio(speech, "Budget review")
    recorded = record_a_call(service)
    again = service.api.post(f"/v1/meetings/{imported}/notes", json={"kind": "summary"})
    assert again.status_code == 202, again.text
    service.wait_ready(imported)
    exported = tmp_path / "exports"
    exported.mkdir()
    service.cli("export", recorded, "--to", str(exported))
    assert list(exported.glob("*.md")), "the export was written"
    assert service.get("/v1/search", q="budget")["results"], "search finds the meetings"
    anyio.run(gateway_calls, service)

    assert service.get("/v1/ledger")["entries"] == []
    service.stop()
    outside = outside_connects()
    assert outside == [], "connect() off the machine:\n" + "\n".join(c.line for c in outside)


class Ollama(BaseHTTPRequestHandler):
    """A notes server on 127.0.0.1 speaking Ollama's NDJSON stream."""

    seen: list[str] = []

    def do_POST(self):  # noqa: N802 (http.server's name)
        length = int(self.headers.get("content-length", 0))
        self.rfile.read(length)
        Ollama.seen.append(self.path)
        lines = [
            {"model": "m", "message": {"role": "assistant", "content": "The budget was agreed."}, "done": False},
            {"model": "m", "message": {"role": "assistant", "content": ""}, "done": True},
        ]
        body = "".join(json.dumps(line) + "\n" for line in lines).encode()
        self.send_response(200)
        self.send_header("content-type", "application/x-ndjson")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_local_notes_server_shows_exactly_its_requests_in_the_ledger(service, speech):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Ollama)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        imported = service.import_audio(speech, "Budget review")
        assert service.get("/v1/ledger")["entries"] == [], "the built-in engine wrote the first notes"
        service.set_setting("ai.provider", '"local"')
        service.set_setting("ai.local_url", json.dumps(f"http://127.0.0.1:{server.server_port}"))
        asked = service.api.post(f"/v1/meetings/{imported}/notes", json={"kind": "summary"})
        assert asked.status_code == 202, asked.text
        service.wait_ready(imported)
        entries = service.get("/v1/ledger")["entries"]
        assert len(entries) == len(Ollama.seen) == 1, (entries, Ollama.seen)
        entry = entries[0]
        assert (entry["host"], entry["purpose"], entry["outcome"], entry["status"]) == (
            "127.0.0.1", "notes", "ok", 200)
        assert entry["url"] == f"http://127.0.0.1:{server.server_port}/api/chat"
    finally:
        server.shutdown()
    service.stop()
    outside = outside_connects()
    assert outside == [], "connect() off the machine:\n" + "\n".join(c.line for c in outside)


def test_the_notes_model_inside_writes_notes_and_connects_nowhere(service, speech):
    """The notes model inside (`recorder-llm`, a child of the service, traced
    with it by `strace -f`) writes an import's notes: no ledger entry, no
    connect() off the machine."""
    model = ROOT / "target/test-models/smollm2-135m-instruct-q4_1.gguf"
    out = service.cli("models", "add-notes", str(model), "--name", "smollm2")
    assert "smollm2" in out, out
    imported = service.import_audio(speech, "Budget review")
    notes = service.meeting(imported)["notes"]
    assert [note["written_by"] for note in notes] == ["embedded"] * 4, notes
    assert service.get("/v1/ledger")["entries"] == []
    service.stop()
    outside = outside_connects()
    assert outside == [], "connect() off the machine:\n" + "\n".join(c.line for c in outside)
