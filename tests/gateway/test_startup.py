"""Starting the gateway when something is missing: one clear line on stderr and
exit status 3 (service not running, no token, token refused) or 1 (port in use)."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
from pathlib import Path

from harness import GATEWAY_BIN, free_port


def start(data_dir: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(GATEWAY_BIN), "--data-dir", str(data_dir), *extra],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)


def one_line(result: subprocess.CompletedProcess) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got: {result.stderr!r}"
    assert lines[0].startswith("recorder-gateway: "), lines
    return lines[0]


def test_no_token_in_the_data_folder(tmp_path):
    result = start(tmp_path / "empty")
    assert result.returncode == 3, result
    line = one_line(result)
    assert "no api_token" in line and "recorder serve" in line, line


def test_service_not_running(tmp_path, free_service):
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    shutil.copy(free_service.data_dir / "api_token", data / "api_token")
    closed = free_port()
    (data / "settings.json").write_text(json.dumps({"general": {"api_port": closed}}))
    result = start(data)
    assert result.returncode == 3, result
    line = one_line(result)
    assert "not running" in line and f"127.0.0.1:{closed}" in line and "recorder serve" in line, line


def test_token_of_another_data_folder(tmp_path, free_service):
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (data / "api_token").write_text("not-the-token-of-that-service")
    (data / "api_token").chmod(0o600)
    (data / "settings.json").write_text(json.dumps({"general": {"api_port": free_service.port}}))
    result = start(data)
    assert result.returncode == 3, result
    assert "refused the api_token" in one_line(result)


def test_port_in_use(free_service):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = start(free_service.data_dir, "--a2a", "--a2a-port", str(port), "--no-stdio")
    assert result.returncode == 1, result
    assert "address in use" in result.stderr, result.stderr


def test_no_stdio_alone_is_a_usage_error(free_service):
    result = start(free_service.data_dir, "--no-stdio")
    assert result.returncode == 2, result
    assert "--http or --a2a" in one_line(result)


def test_another_program_on_the_port_gets_no_token(tmp_path, free_service):
    """While the service is down another program holds its port: the gateway asks
    it to prove it is this data folder's service, sends no token, and says so."""
    import http.server
    import threading

    seen: list[str] = []

    class Impostor(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            seen.append(f"{self.requestline}\n{self.headers}")
            body = b'{"service": "recorder", "version": "0.1.0", "proof": "forged", "ok": true}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_POST = do_GET

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Impostor)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        data = tmp_path / "data"
        data.mkdir(mode=0o700)
        shutil.copy(free_service.data_dir / "api_token", data / "api_token")
        port = server.server_address[1]
        (data / "settings.json").write_text(json.dumps({"general": {"api_port": port}}))
        result = start(data)
    finally:
        server.shutdown()
    assert result.returncode == 3, result
    line = one_line(result)
    assert f"something else is listening on port {port}; it is not this Recorder" in line, line
    token = (data / "api_token").read_text().strip()
    assert seen, "the gateway asked the listener to prove itself"
    for request in seen:
        assert "authorization" not in request.lower(), request
        assert token not in request, request
