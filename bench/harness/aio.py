"""HTTP/1.1 over asyncio streams, for scripts that hold many connections at
once (load generators, event-stream clients): keep-alive connections,
Content-Length or chunked bodies, slow readers, one-off requests, and the
whole meeting list page by page.

Part of bench/harness (see its docstring); not run on its own.
"""

from __future__ import annotations

import asyncio
import json
import socket


class HttpError(Exception):
    pass


class Conn:
    """One keep-alive connection to 127.0.0.1:port, opened on first use.

    A `slow` one has a small receive buffer and a stream reader that stops
    taking bytes from the socket at 8 KiB, so the service's writes back up."""

    def __init__(self, port, slow=False):
        self.port = port
        self.slow = slow
        self.reader = None
        self.writer = None

    async def open(self):
        if not self.slow:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 24)
            return
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", self.port))
        self.reader, self.writer = await asyncio.open_connection(sock=sock, limit=4096)

    def close(self):
        if self.writer is not None:
            try:
                self.writer.transport.abort()
            except Exception:
                pass
        self.reader = self.writer = None

    @property
    def is_open(self):
        return self.writer is not None

    async def head(self, method, path, token, extra=None, body=None):
        """Sends a request; (status, lower-cased headers) of its answer."""
        if not self.is_open:
            await self.open()
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}",
                 f"Authorization: Bearer {token}"]
        for key, value in (extra or {}).items():
            lines.append(f"{key}: {value}")
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise HttpError("connection closed before the status line")
        status = int(status_line.split()[1])
        headers = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n"):
                break
            if not line:
                raise HttpError("connection closed in the headers")
            key, _, value = line.decode("latin-1").partition(":")
            headers[key.strip().lower()] = value.strip()
        return status, headers

    async def chunk(self):
        """One chunk of a chunked body; b'' at the end."""
        size_line = await self.reader.readline()
        if not size_line:
            raise HttpError("connection closed in a chunked body")
        size = int(size_line.split(b";")[0].strip() or b"0", 16)
        if size == 0:
            while (await self.reader.readline()) not in (b"\r\n", b"\n", b""):
                pass
            return b""
        data = await self.reader.readexactly(size + 2)
        return data[:-2]

    async def request(self, method, path, token, body=None):
        """(status, body bytes); `body` is sent as JSON."""
        payload = json.dumps(body).encode() if body is not None else None
        status, headers = await self.head(method, path, token, body=payload)
        if headers.get("transfer-encoding", "").lower() == "chunked":
            content = bytearray()
            while part := await self.chunk():
                content += part
        elif "content-length" in headers:
            content = await self.reader.readexactly(int(headers["content-length"]))
        else:
            content = await self.reader.read()
            self.close()
        if headers.get("connection", "").lower() == "close" and self.is_open:
            self.close()
        return status, bytes(content)


def split_events(buffer: bytes):
    """The whole event-stream frames at the start of `buffer`, parsed, and
    the rest: ([(id or None, event type or None, data bytes or None)], rest)."""
    events = []
    while b"\n\n" in buffer:
        frame, buffer = buffer.split(b"\n\n", 1)
        event_id, kind, data = None, None, None
        for line in frame.split(b"\n"):
            if line.startswith(b"id:"):
                event_id = int(line[3:].strip())
            elif line.startswith(b"event:"):
                kind = line[6:].strip().decode()
            elif line.startswith(b"data:"):
                data = line[5:].strip()
        events.append((event_id, kind, data))
    return events, buffer


async def stopped(event: asyncio.Event, seconds: float) -> bool:
    """Waits up to `seconds` for `event`; whether it was set."""
    try:
        await asyncio.wait_for(event.wait(), seconds)
        return True
    except asyncio.TimeoutError:
        return False


async def call(port, token, method, path, body=None, timeout=60):
    """One request on a connection of its own: (status, body bytes)."""
    conn = Conn(port)
    try:
        return await asyncio.wait_for(conn.request(method, path, token, body), timeout)
    finally:
        conn.close()


async def list_meetings(port, token):
    """Every meeting of `GET /v1/meetings`, 200 a page."""
    meetings, offset = [], 0
    while True:
        status, body = await call(port, token, "GET", f"/v1/meetings?limit=200&offset={offset}")
        page = json.loads(body)
        meetings += page["meetings"]
        offset += len(page["meetings"])
        if offset >= page["total"] or not page["meetings"]:
            return meetings
