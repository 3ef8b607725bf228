"""Fixtures of the gateway end-to-end tests: real services (Free and Pro) on
temporary data folders, a real transcribed meeting, and the gateways."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from harness import (
    GATEWAY_BIN,
    Service,
    prepare_service,
    synthesize_speech,
)

REAL_TITLE = "Budget review"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="session", autouse=True)
def gateway_binary():
    assert GATEWAY_BIN.exists(), f"the gateway binary {GATEWAY_BIN} does not exist (set GATEWAY_BIN)"
    return GATEWAY_BIN


@pytest.fixture(scope="session")
def speech_wav(tmp_path_factory) -> Path:
    """~12 s of English speech (espeak-ng), 16 kHz mono."""
    return synthesize_speech(tmp_path_factory.mktemp("speech"))


class Services:
    """Starts services and stops every one of them at the end."""

    def __init__(self, tmp_path_factory):
        self.tmp = tmp_path_factory
        self.started: list[Service] = []

    def start(self, name: str, *, pro: bool = False, capture_wav: Path | None = None,
              long_meeting: bool = False) -> Service:
        service = prepare_service(self.tmp.mktemp(name), name, long_meeting=long_meeting)
        self.started.append(service)
        extra = ["--mic-file", str(capture_wav), "--sys-file", str(capture_wav)] if capture_wav else []
        service.start(extra)
        if pro:
            service.install_licence()
        return service

    def stop_all(self) -> None:
        for service in reversed(self.started):
            service.stop()
        self.started.clear()


@pytest.fixture(scope="session")
def services(tmp_path_factory):
    factory = Services(tmp_path_factory)
    try:
        yield factory
    finally:
        factory.stop_all()


def _find_long_meeting(service: Service) -> str:
    best = None
    for meeting in service.meetings(limit=200)["meetings"]:
        count = len(service.get(f"/v1/meetings/{meeting['id']}/transcript", format="json")["segments"])
        if best is None or count > best[0]:
            best = (count, meeting["id"])
    assert best and best[0] >= 900, f"no seeded 900-segment meeting found (best {best})"
    return best[1]


@pytest.fixture(scope="session")
def free_service(services, speech_wav) -> Service:
    """Free plan; 12 seeded meetings + one 900-segment meeting + the real 'Budget review'."""
    service = services.start("free", long_meeting=True)
    service.long_meeting_id = _find_long_meeting(service)
    service.real_meeting_id = service.import_audio(speech_wav, REAL_TITLE)
    # One done and one open item in the last 30 days, whatever today's date is
    # (the seeded meetings have fixed dates).
    items = service.meeting(service.real_meeting_id)["action_items"]
    if len(items) >= 2:
        service.set_action_item_done(service.real_meeting_id, items[-1]["id"], True)
    return service


@pytest.fixture(scope="session")
def pro_service(services, speech_wav) -> Service:
    """Pro plan, 'Allow remote start' on, no policy; the speech file as both capture devices."""
    service = services.start("pro", pro=True, capture_wav=speech_wav)
    yield service
    # Whatever a test did: nothing left recording.
    service.stop_recording_if_any()


@pytest.fixture
def pro(pro_service) -> Service:
    """The Pro service, checked to be idle before and after the test."""
    pro_service.stop_recording_if_any()
    yield pro_service
    pro_service.stop_recording_if_any()


class SilentServer:
    """Accepts TCP connections on loopback and never answers (a stuck notes server)."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        self.stopped = False
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)

    def close(self):
        self.stopped = True
        for conn in self.conns:
            conn.close()
        self.sock.close()


@pytest.fixture(scope="module")
def slow_notes_service(services):
    """Pro; the notes provider is a local server that never answers, so notes
    regeneration runs until it is canceled."""
    server = SilentServer()
    service = services.start("slow-notes", pro=True)
    service.set_setting("ai.provider", "local")
    service.set_setting("ai.local_url", f"http://127.0.0.1:{server.port}")
    try:
        yield service
    finally:
        server.close()  # the stuck request fails now, so the service stops quickly
        service.stop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and call.when in ("setup", "call"):
        for value in getattr(item, "funcargs", {}).values():
            if isinstance(value, Service):
                report.sections.append((f"logs of {value.name}", value.logs()))
    return report
