"""Processes and helpers for the gateway end-to-end tests.

A `Service` is a real `recorder serve` on a temporary data folder (seeded with
synthetic meetings, optionally Pro, optionally with WAV files as capture
devices). It owns the gateways started against it (`recorder-gateway` with
`--http` or `--a2a`) and stops everything it started. Every process is also
registered for an `atexit` kill, so an interrupted run leaks nothing.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]


def _bin(env: str, default: str) -> Path:
    value = os.environ.get(env)
    path = Path(value) if value else ROOT / default
    return path if path.is_absolute() else ROOT / path


RECORDER_BIN = _bin("RECORDER_BIN", "target/debug/recorder")
GATEWAY_BIN = _bin("GATEWAY_BIN", "target/debug/recorder-gateway")
XTASK_BIN = _bin("XTASK_BIN", "target/debug/xtask")
MODEL_PATH = _bin("RECORDER_MODEL_PATH", "target/test-models/ggml-tiny.en-q8_0.bin")
LICENSE_SEED = ROOT / "tests/fixtures/dev-license.seed"

# Header the gateway puts on its own requests; the tests use it to clean up
# (e.g. stop a recording left running) exactly as the gateway would.
AGENT_HEADER = {"X-Recorder-Client": "gateway"}

# Phrased so that the built-in notes engine finds two action items (owners Alice and Bob).
SPEECH_TEXT = (
    "Welcome to the budget review. Alice, please send the quarterly budget to finance by Friday. "
    "We decided to launch the pricing page next week. Bob, can you update the roadmap by Monday?"
)

# ---------------------------------------------------------------------------
# Processes
# ---------------------------------------------------------------------------

_LIVE: set[subprocess.Popen] = set()


def _kill_leftovers() -> None:
    for proc in list(_LIVE):
        with contextlib.suppress(Exception):
            proc.kill()
            proc.wait(timeout=5)


atexit.register(_kill_leftovers)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "<no log>"
    return "\n".join(text.splitlines()[-lines:])


@dataclass
class Proc:
    """A child process with its stdout/stderr in files."""

    name: str
    argv: list[str]
    stdout: Path
    stderr: Path
    env: dict[str, str] | None = None
    popen: subprocess.Popen | None = None

    def start(self) -> "Proc":
        env = dict(os.environ)
        env.update(self.env or {})
        with open(self.stdout, "ab") as out, open(self.stderr, "ab") as err:
            self.popen = subprocess.Popen(
                self.argv,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                env=env,
                cwd=ROOT,
                start_new_session=True,
            )
        _LIVE.add(self.popen)
        return self

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def logs(self) -> str:
        return (
            f"--- {self.name}: {' '.join(self.argv)}\n"
            f"--- stdout (tail)\n{tail(self.stdout)}\n--- stderr (tail)\n{tail(self.stderr)}"
        )

    def stop(self, grace: float = 5.0) -> None:
        proc = self.popen
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                proc.wait(timeout=10)
        _LIVE.discard(proc)


def run(argv: list[str], what: str, timeout: float = 60, **kwargs: Any) -> subprocess.CompletedProcess:
    """Runs a command to completion; a failure names the command and its output."""
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=ROOT, **kwargs)
    assert done.returncode == 0, (
        f"{what} failed (exit {done.returncode}): {' '.join(map(str, argv))}\n"
        f"stdout: {done.stdout}\nstderr: {done.stderr}"
    )
    return done


def wait_for(predicate, timeout: float, what: str, interval: float = 0.1, describe=None):
    """Polls `predicate` until it returns a truthy value."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(interval)
    detail = describe() if describe else f"last value: {last!r}"
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}; {detail}")


# ---------------------------------------------------------------------------
# Audio and licence
# ---------------------------------------------------------------------------


def synthesize_speech(folder: Path, text: str = SPEECH_TEXT) -> Path:
    """English speech as a 16 kHz mono WAV (espeak-ng + sox)."""
    raw = folder / "raw.wav"
    wav = folder / "speech.wav"
    run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", str(raw), text], "espeak-ng")
    run(["sox", str(raw), "-r", "16000", "-c", "1", str(wav)], "sox")
    return wav


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def write_dev_licence(path: Path) -> Path:
    """A Pro licence signed with the committed development key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    seed = bytes.fromhex(LICENSE_SEED.read_text().strip())
    key = Ed25519PrivateKey.from_private_bytes(seed)
    payload = json.dumps({"licensee": "Test Person", "plan": "pro", "issued_at": 1700000000000}).encode()
    path.write_text(json.dumps({"payload": b64url(payload), "signature": b64url(key.sign(payload))}))
    return path


# ---------------------------------------------------------------------------
# The service
# ---------------------------------------------------------------------------


@dataclass
class Service:
    """A running `recorder serve` and the gateways started against it."""

    name: str
    base: Path  # parent folder: data/, policy.json, logs
    port: int
    proc: Proc | None = None
    gateways: dict[str, tuple[Proc, int]] = field(default_factory=dict)
    pro: bool = False
    real_meeting_id: str | None = None
    long_meeting_id: str | None = None
    _api: httpx.Client | None = None

    @property
    def data_dir(self) -> Path:
        return self.base / "data"

    @property
    def policy_path(self) -> Path:
        return self.base / "policy.json"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def token(self) -> str:
        return (self.data_dir / "api_token").read_text().strip()

    # -- lifecycle ---------------------------------------------------------

    def start(self, extra_args: list[str] | None = None) -> "Service":
        self.proc = Proc(
            name=f"recorder serve ({self.name})",
            argv=[str(RECORDER_BIN), "serve", "--data-dir", str(self.data_dir), *(extra_args or [])],
            stdout=self.base / "service.stdout",
            stderr=self.base / "service.stderr",
            env={
                "RECORDER_POLICY_PATH": str(self.policy_path),
                "RECORDER_POLICY_REFRESH_SECS": "1",
                "RECORDER_MODEL_PATH": str(MODEL_PATH),
                "RECORDER_CREDENTIAL_STORE": "file",
            },
        ).start()

        def listening() -> bool:
            assert self.proc.alive(), f"the service exited early\n{self.proc.logs()}"
            return "listening on" in self.proc.stdout.read_text(errors="replace")

        wait_for(listening, 30, f"{self.name} to say 'listening on'", describe=self.proc.logs)

        def healthy() -> bool:
            try:
                return self.api.get("/v1/health").status_code == 200
            except httpx.HTTPError:
                return False

        wait_for(healthy, 30, f"GET /v1/health of {self.name}", describe=self.proc.logs)
        return self

    def stop(self) -> None:
        for proc, _port in self.gateways.values():
            proc.stop()
        self.gateways.clear()
        if self._api is not None:
            self._api.close()
            self._api = None
        if self.proc is not None:
            self.proc.stop()

    def gone(self) -> str:
        """Why the service no longer answers: its exit status and its log's tail."""
        popen = self.proc.popen if self.proc else None
        status = popen.poll() if popen else None
        state = "still running" if status is None else f"exited with status {status}"
        return f"the service is {state}\n{self.logs()}"

    def logs(self) -> str:
        parts = [self.proc.logs()] if self.proc else []
        parts += [proc.logs() for proc, _ in self.gateways.values()]
        return "\n".join(parts)

    # -- local API -----------------------------------------------------------

    @property
    def api(self) -> httpx.Client:
        if self._api is None:
            self._api = httpx.Client(
                base_url=self.base_url,
                headers={"Authorization": f"Bearer {self.token}"},
                timeout=30,
            )
        return self._api

    def get(self, path: str, **params: Any) -> Any:
        """GET on the local API, the truth the gateway's answers are compared with."""
        try:
            response = self.api.get(path, params={k: v for k, v in params.items() if v is not None})
        except httpx.ConnectError as error:
            raise AssertionError(f"GET {path}: {error}; {self.gone()}") from error
        assert response.status_code == 200, f"GET {path} {params} -> {response.status_code} {response.text}"
        return response.json()

    def get_text(self, path: str, **params: Any) -> str:
        response = self.api.get(path, params={k: v for k, v in params.items() if v is not None})
        assert response.status_code == 200, f"GET {path} {params} -> {response.status_code} {response.text}"
        return response.text

    def transcript(self, meeting_id: str, fmt: str) -> Any:
        """The local API's transcript: JSON for `json`, else the text rendering."""
        path = f"/v1/meetings/{meeting_id}/transcript"
        return self.get(path, format=fmt) if fmt == "json" else self.get_text(path, format=fmt)

    def meeting(self, meeting_id: str) -> dict:
        return self.get(f"/v1/meetings/{meeting_id}")

    def meetings(self, **params: Any) -> dict:
        return self.get("/v1/meetings", **params)

    def latest_meeting_id(self) -> str:
        return self.meetings(limit=1)["meetings"][0]["id"]

    def health(self) -> dict:
        return self.get("/v1/health")

    def recording_active(self) -> bool:
        return bool(self.health()["recording"]["active"])

    def stop_recording_if_any(self) -> None:
        """Leaves the service not recording (as an agent request: Pro service)."""
        if self.recording_active():
            response = self.api.post("/v1/recording/stop", headers=AGENT_HEADER)
            assert response.status_code in (200, 409), f"cleanup stop -> {response.status_code} {response.text}"
        wait_for(lambda: not self.recording_active(), 15, "the service to stop recording")

    def wait_ready(self, meeting_id: str, timeout: float = 180) -> dict:
        state: dict = {}

        def ready() -> bool:
            state["meeting"] = self.meeting(meeting_id)
            assert state["meeting"].get("processing_error") is None, (
                f"processing failed: {state['meeting']}\n{self.proc.logs()}"
            )
            return state["meeting"]["status"] == "ready"

        wait_for(
            ready, timeout, f"meeting {meeting_id} to be ready", interval=0.5,
            describe=lambda: f"meeting: {state.get('meeting')}\n{self.proc.logs()}",
        )
        return state["meeting"]

    def set_action_item_done(self, meeting_id: str, item_id: str, done: bool) -> None:
        response = self.api.patch(f"/v1/meetings/{meeting_id}/action_items/{item_id}", json={"done": done})
        assert response.status_code == 200, f"PATCH action item -> {response.status_code} {response.text}"

    def import_audio(self, path: Path, title: str) -> str:
        response = self.api.post("/v1/import", json={"path": str(path.resolve()), "title": title})
        assert response.status_code == 202, f"POST /v1/import -> {response.status_code} {response.text}"
        meeting_id = response.json()["id"]
        self.wait_ready(meeting_id)
        return meeting_id

    # -- person's channel (CLI) and policy -----------------------------------

    def cli(self, *args: str) -> str:
        return run([str(RECORDER_BIN), "--data-dir", str(self.data_dir), *args], f"recorder {' '.join(args)}").stdout

    def set_setting(self, key: str, value: str) -> None:
        self.cli("settings", "set", key, value)

    def install_licence(self) -> None:
        licence = write_dev_licence(self.base / "license.json")
        out = self.cli("license", "install", str(licence))
        assert "pro" in out.lower(), f"licence install said: {out!r}"
        self.pro = True

    def policy_values(self) -> dict:
        return {k["key"]: k["value"] for k in self.get("/v1/policy")["keys"] if k["value"] is not None}

    def set_policy(self, policy: dict | None) -> None:
        """Writes (or removes) the managed policy file and waits until it is in force."""
        if policy:
            self.policy_path.write_text(json.dumps(policy))
        elif self.policy_path.exists():
            self.policy_path.unlink()
        want = {k: v for k, v in (policy or {}).items() if v is not None}
        wait_for(lambda: self.policy_values() == want, 15, f"policy {want} in force",
                 describe=lambda: f"GET /v1/policy -> {self.policy_values()}")

    # -- gateways ------------------------------------------------------------

    def gateway(self, kind: str) -> int:
        """Starts (once) `recorder-gateway --http` or `--a2a` for this service; returns its port."""
        if kind in self.gateways:
            proc, port = self.gateways[kind]
            assert proc.alive(), f"the {kind} gateway died\n{proc.logs()}"
            return port
        assert GATEWAY_BIN.exists(), f"no gateway binary at {GATEWAY_BIN}"
        port = free_port()
        flags = {"mcp": ["--http", "--http-port"], "a2a": ["--a2a", "--a2a-port"]}[kind]
        proc = Proc(
            name=f"recorder-gateway {kind} ({self.name})",
            argv=[str(GATEWAY_BIN), "--data-dir", str(self.data_dir), flags[0], flags[1], str(port), "--no-stdio"],
            stdout=self.base / f"gateway-{kind}.stdout",
            stderr=self.base / f"gateway-{kind}.stderr",
        ).start()
        self.gateways[kind] = (proc, port)

        def up() -> bool:
            assert proc.alive(), f"the {kind} gateway exited\n{proc.logs()}"
            return port_open(port)

        wait_for(up, 20, f"the {kind} gateway to accept connections on {port}", describe=proc.logs)
        return port

    def mcp_url(self) -> str:
        return f"http://127.0.0.1:{self.gateway('mcp')}/mcp"

    def a2a_url(self) -> str:
        return f"http://127.0.0.1:{self.gateway('a2a')}/"


def prepare_service(base: Path, name: str, *, seed_meetings: int = 12, segments: int = 40,
                    long_meeting: bool = False) -> Service:
    """Data folder with settings.json (port, remote start on) and seeded meetings."""
    service = Service(name=name, base=base, port=free_port())
    service.data_dir.mkdir(parents=True, exist_ok=True)
    (service.data_dir / "settings.json").write_text(
        json.dumps({"general": {"api_port": service.port, "allow_remote_start": True}})
    )
    for binary in (RECORDER_BIN, XTASK_BIN):
        assert binary.exists(), f"missing binary {binary} (build the workspace first)"
    run([str(XTASK_BIN), "seed", "--data-dir", str(service.data_dir),
         "--meetings", str(seed_meetings), "--segments", str(segments)], "xtask seed")
    if long_meeting:
        run([str(XTASK_BIN), "seed", "--data-dir", str(service.data_dir), "--meetings", "1",
             "--segments", "900", "--seed", "7", "--append"], "xtask seed --append (long meeting)")
    return service
