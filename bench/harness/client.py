"""Blocking HTTP to the local service (http.client), for scripts that make one
request at a time: a JSON request with a bearer token, and the person's upload
streamed slowly.

Part of bench/harness (see its docstring); not run on its own.
"""

from __future__ import annotations

import http.client
import json
import pathlib
import threading


def call(port, token, method, path, body=None, timeout=30.0):
    """(status, parsed body) or (None, error text) when the service is gone."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Authorization": f"Bearer {token}"}
        payload = None
        if body is not None:
            payload = json.dumps(body)
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        raw = response.read()
        connection.close()
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode("utf-8", "replace")
        return response.status, parsed
    except (OSError, http.client.HTTPException) as error:
        return None, f"{type(error).__name__}: {error}"


def upload(port, token, path: pathlib.Path, name: str, chunk: int, pause: float, stop: threading.Event):
    """The person's upload (`POST /ui/imports`), streamed in chunks with
    pauses; stops sending when `stop` is set. (status, parsed body) or (None,
    error text)."""
    try:
        data = path.read_bytes()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.putrequest("POST", "/ui/imports")
        connection.putheader("Authorization", f"Bearer {token}")
        connection.putheader("X-File-Name", name)
        connection.putheader("Content-Type", "audio/wav")
        connection.putheader("Content-Length", str(len(data)))
        connection.endheaders()
        for offset in range(0, len(data), chunk):
            connection.send(data[offset:offset + chunk])
            if stop.wait(pause):
                break
        response = connection.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None
    except (OSError, http.client.HTTPException, ValueError) as error:
        return None, f"{type(error).__name__}: {error}"
