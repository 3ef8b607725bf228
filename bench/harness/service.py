"""`recorder serve` for the bench scripts: one life of the service on a data
folder (its environment, its `recorder listening on` line, its tokens, SIGTERM
and SIGKILL) and a Killer that SIGKILLs it after a delay.

Part of bench/harness (see its docstring); not run on its own.
"""

from __future__ import annotations

import functools
import os
import pathlib
import re
import signal
import subprocess
import threading
import time

LISTENING = re.compile(r"recorder listening on http://127\.0\.0\.1:(\d+)")


class StartFailed(Exception):
    """The service printed no `recorder listening on` line; `line` is what it printed."""

    def __init__(self, message: str, line: str = ""):
        super().__init__(message)
        self.line = line


def service_env(**values) -> dict[str, str]:
    """This process's environment without RECORDER_DATA_DIR, with RECORDER_LOG
    `info` unless it is set, and `values` (e.g. RECORDER_MODEL_PATH=...)."""
    env = dict(os.environ)
    env.pop("RECORDER_DATA_DIR", None)
    env["RECORDER_LOG"] = os.environ.get("RECORDER_LOG", "info")
    env.update({name: str(value) for name, value in values.items()})
    return env


class Service:
    """One life of `recorder serve --port 0 --data-dir DATA [extra]`.

    Its stderr goes to `log_path` (appended to, after a `===== start` line,
    when `append`; truncated otherwise; discarded when None). Its stdout's
    first line is read on a thread, the rest drained so the pipe never fills.
    """

    def __init__(self, binary, data, extra=(), env=None, log_path=None, append=True):
        self.data = pathlib.Path(data)
        self.log_path = pathlib.Path(log_path) if log_path is not None else None
        extra = [str(arg) for arg in extra]
        stderr = subprocess.DEVNULL
        if self.log_path is not None:
            stderr = open(self.log_path, "ab" if append else "wb")
            if append:
                stderr.write(f"\n===== start {time.strftime('%H:%M:%S')} {' '.join(extra)}\n".encode())
                stderr.flush()
        try:
            self.process = subprocess.Popen(
                [str(binary), "serve", "--port", "0", "--data-dir", str(self.data), *extra],
                stdout=subprocess.PIPE, stderr=stderr, stdin=subprocess.DEVNULL, env=env)
        finally:
            if stderr is not subprocess.DEVNULL:
                stderr.close()
        self.spawned = time.monotonic()
        self.port: int | None = None
        self._line: list[str] = []
        self._got_line = threading.Event()
        threading.Thread(target=self._read_stdout, daemon=True).start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def _read_stdout(self) -> None:
        stream = self.process.stdout
        try:
            first = stream.readline()
            self._line.append(first.decode("utf-8", "replace").strip())
            self._got_line.set()
            while stream.read(65536):
                pass
        except (OSError, ValueError):
            self._got_line.set()

    def wait_listening(self, timeout: float | None = 30.0) -> int:
        """The port from the `recorder listening on` line (None: wait for ever)."""
        if not self._got_line.wait(timeout):
            raise StartFailed(f"no `recorder listening on` line within {timeout:.0f} s")
        line = self._line[0] if self._line else ""
        match = LISTENING.search(line)
        if not match:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            raise StartFailed(f"the service did not start (exit {self.process.poll()}, first line {line!r}): "
                              f"{self.stderr_tail()}", line)
        self.port = int(match.group(1))
        return self.port

    def token(self, name: str) -> str:
        """A token file of the data folder (`api_token`, `ui_token`), read now."""
        return (self.data / name).read_text().strip()

    @functools.cached_property
    def api(self) -> str:
        """The API token (read once, after the service is listening)."""
        return self.token("api_token")

    @functools.cached_property
    def ui(self) -> str:
        """The app's (the person's) token (read once)."""
        return self.token("ui_token")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def terminate(self, limit: float | None = 20.0) -> float | None:
        """SIGTERM; seconds to exit, or None when it had to be killed after
        `limit` s (None: wait for ever)."""
        started = time.monotonic()
        if self.process.poll() is not None:
            return 0.0
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=limit)
            return time.monotonic() - started
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def stderr_tail(self, lines: int = 6) -> str:
        if self.log_path is None:
            return ""
        try:
            text = self.log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        return " | ".join(line.strip() for line in text[-lines:])


class Killer:
    """SIGKILLs a service `delay` seconds after being armed (once)."""

    def __init__(self, service: Service):
        self.service = service
        self.done = threading.Event()
        self.thread: threading.Thread | None = None
        self.at_wall: float | None = None
        self.at: float | None = None

    def arm(self, delay: float) -> None:
        if self.thread is not None:
            return

        def fire():
            time.sleep(max(0.0, delay))
            self.at = time.monotonic()
            self.at_wall = time.time()
            self.service.kill()
            self.done.set()

        self.thread = threading.Thread(target=fire, daemon=True)
        self.thread.start()

    def sleep(self, seconds: float) -> bool:
        """Sleeps; True when the service was killed meanwhile."""
        return self.done.wait(max(0.0, seconds))

    def finish(self) -> None:
        if self.thread is None:
            self.arm(0.0)
        self.thread.join()
