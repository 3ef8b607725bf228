"""The gateway stops when told. SIGTERM and SIGINT end it within 2 s whatever it
serves (stdio, Streamable HTTP, A2A, all three) and whatever its stdin is: a pipe
left open (as every MCP host starts it and as a service manager may keep it) or
/dev/null. A connection left half-open does not hold it. Its ports are free
afterwards. When it serves MCP over stdio, the end of stdin ends it (the MCP
host closed it), even with HTTP transports beside it."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time

import pytest

from harness import GATEWAY_BIN, ROOT, free_port, tail, wait_for

# What the issue asks of every process.
LIMIT = 2.0

MODES = ["stdio", "http", "a2a", "all"]


def flags(mode: str, ports: dict[str, int]) -> list[str]:
    http = ["--http", "--http-port", str(ports["http"])]
    a2a = ["--a2a", "--a2a-port", str(ports["a2a"])]
    return {"stdio": [], "http": [*http, "--no-stdio"], "a2a": [*a2a, "--no-stdio"], "all": [*http, *a2a]}[mode]


def ports_of(mode: str, ports: dict[str, int]) -> list[int]:
    return {"stdio": [], "http": [ports["http"]], "a2a": [ports["a2a"]], "all": list(ports.values())}[mode]


def launch(service, mode: str, stdin_open: bool, tmp_path):
    ports = {"http": free_port(), "a2a": free_port()}
    stderr = tmp_path / f"gateway-{mode}.stderr"
    with open(stderr, "wb") as err:
        proc = subprocess.Popen(
            [str(GATEWAY_BIN), "--data-dir", str(service.data_dir), *flags(mode, ports)],
            stdin=subprocess.PIPE if stdin_open else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
            cwd=ROOT,
            start_new_session=True,
        )
    return proc, ports, stderr


def ready(proc, mode: str, ports: dict[str, int], stderr) -> None:
    """Waits until every transport answers: a listening port, or an MCP
    `initialize` answered over stdio."""
    for port in ports_of(mode, ports):
        wait_for(lambda: f"127.0.0.1:{port}" in stderr.read_text(errors="replace"), 30,
                 f"the gateway to listen on {port}", describe=lambda: tail(stderr))
    if mode in ("stdio", "all"):
        hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                            "clientInfo": {"name": "stop-test", "version": "1"}}}
        proc.stdin.write((json.dumps(hello) + "\n").encode())
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())
        assert answer.get("id") == 1 and "result" in answer, answer


def stopped_within(proc, limit: float) -> float:
    started = time.monotonic()
    try:
        proc.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
        raise AssertionError(f"still running {limit} s later")
    return time.monotonic() - started


def port_free(port: int) -> bool:
    """Nothing listens there any more (a connection is refused)."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return False
    except ConnectionRefusedError:
        return True


# A gateway serving stdio with stdin at its end ends by itself (the last test).
CASES = [(mode, stdin_open) for mode in MODES for stdin_open in (True, False)
         if stdin_open or mode not in ("stdio", "all")]


@pytest.mark.parametrize(("mode", "stdin_open"), CASES,
                         ids=[f"{m}-stdin-{'open' if o else 'closed'}" for m, o in CASES])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_it_within_two_seconds(free_service, tmp_path, mode, stdin_open, sig):
    proc, ports, stderr = launch(free_service, mode, stdin_open, tmp_path)
    try:
        ready(proc, mode, ports, stderr)
        # A client that connected and never finished its request.
        idle = [socket.create_connection(("127.0.0.1", port)) for port in ports_of(mode, ports)]
        for connection in idle:
            connection.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
        proc.send_signal(sig)
        took = stopped_within(proc, LIMIT)
        print(f"{mode}, stdin open {stdin_open}, {sig.name}: stopped in {took * 1000:.0f} ms")
        assert proc.returncode == 0, f"exit {proc.returncode}\n{tail(stderr)}"
        for port in ports_of(mode, ports):
            assert port_free(port), f"port {port} still held"
        for connection in idle:
            connection.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


@pytest.mark.parametrize("mode", ["stdio", "all"])
def test_the_end_of_stdin_ends_a_stdio_gateway(free_service, tmp_path, mode):
    proc, ports, stderr = launch(free_service, mode, True, tmp_path)
    try:
        ready(proc, mode, ports, stderr)
        proc.stdin.close()
        took = stopped_within(proc, LIMIT)
        print(f"{mode}: ended {took * 1000:.0f} ms after stdin closed")
        assert proc.returncode == 0, f"exit {proc.returncode}\n{tail(stderr)}"
        assert "stdin was closed" in stderr.read_text(errors="replace"), tail(stderr)
        for port in ports_of(mode, ports):
            assert port_free(port), f"port {port} still held"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


@pytest.mark.parametrize("mode", ["stdio", "all"])
def test_a_stdio_gateway_started_with_stdin_at_its_end_ends_by_itself(free_service, tmp_path, mode):
    proc, _ports, stderr = launch(free_service, mode, False, tmp_path)
    try:
        stopped_within(proc, 30)  # includes start-up (the service's check)
        assert proc.returncode == 0, f"exit {proc.returncode}\n{tail(stderr)}"
        assert "MCP over stdio ended" in stderr.read_text(errors="replace"), tail(stderr)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
