"""A small client for the early A2A protocol (JSON-RPC 2.0 over HTTP POST /:
`tasks/send`, `tasks/get`, `tasks/cancel`, `tasks/sendSubscribe` with Server-Sent
Events). No package on PyPI speaks this dialect any more, hence this one.

Parts are `{type: "text", text}` or `{type: "data", data}`; a task is
`{id, sessionId?, status: {state, message?, timestamp?}, artifacts?}`; stream
events are `{id, status, final}` (TaskStatusUpdateEvent) or `{id, artifact}`
(TaskArtifactUpdateEvent), each the `result` of a JSON-RPC response.
"""

from __future__ import annotations

import itertools
import json
import uuid
from typing import Any, Iterator

import httpx
from httpx_sse import connect_sse
from httpx_sse._decoders import SSEDecoder, SSELineDecoder  # to see the raw lines too


class A2AError(Exception):
    """A JSON-RPC error answer."""

    def __init__(self, error: dict, envelope: dict):
        self.code = error.get("code")
        self.message = error.get("message", "")
        self.data = error.get("data")
        self.envelope = envelope
        super().__init__(f"JSON-RPC error {self.code}: {self.message} (answer: {json.dumps(envelope)[:1000]})")


def text_part(text: str) -> dict:
    return {"type": "text", "text": text}


def data_part(data: dict) -> dict:
    return {"type": "data", "data": data}


def skill_part(skill: str, args: dict | None = None) -> dict:
    return data_part({"skill": skill, "args": args or {}})


def new_task_id() -> str:
    return str(uuid.uuid4())


def message(parts: list[dict]) -> dict:
    return {"role": "user", "parts": parts}


def parts_of(obj: dict | None) -> list[dict]:
    return list((obj or {}).get("parts") or [])


def text_parts(parts: list[dict]) -> str:
    return "\n".join(p.get("text", "") for p in parts if p.get("type") == "text")


def data_parts(parts: list[dict]) -> list[dict]:
    return [p.get("data") for p in parts if p.get("type") == "data"]


def status_text(task: dict) -> str:
    """The text of `status.message`, where a failed task gives its reason."""
    return text_parts(parts_of((task.get("status") or {}).get("message")))


class EarlyA2A:
    def __init__(self, base_url: str, token: str | None, timeout: float = 90):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.base_url = base_url
        self.http = httpx.Client(base_url=base_url, headers=headers, timeout=timeout)
        self._ids = itertools.count(1)
        self.last_stream_lines: list[str] = []

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> "EarlyA2A":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- raw -----------------------------------------------------------------

    def post_raw(self, body: bytes | str, **kwargs: Any) -> httpx.Response:
        content = body.encode() if isinstance(body, str) else body
        headers = {"Content-Type": "application/json", **kwargs.pop("headers", {})}
        return self.http.post("/", content=content, headers=headers, **kwargs)

    def raw_call(self, method: str, params: Any = None, id: Any = "auto", **envelope_extra: Any) -> dict:
        """One JSON-RPC call; returns the whole response envelope (result or error)."""
        envelope: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        envelope["id"] = next(self._ids) if id == "auto" else id
        if params is not None:
            envelope["params"] = params
        envelope.update(envelope_extra)
        response = self.http.post("/", json=envelope)
        try:
            answer = response.json()
        except ValueError:
            raise AssertionError(f"{method}: HTTP {response.status_code}, not JSON: {response.text[:500]!r}") from None
        assert isinstance(answer, dict) and answer.get("jsonrpc") == "2.0", (
            f"{method}: not a JSON-RPC 2.0 answer (HTTP {response.status_code}): {answer!r}"
        )
        return answer

    def call(self, method: str, params: Any = None) -> Any:
        answer = self.raw_call(method, params)
        if "error" in answer:
            raise A2AError(answer["error"], answer)
        assert "result" in answer, f"{method}: neither result nor error: {answer}"
        return answer["result"]

    # -- methods -------------------------------------------------------------

    def send(self, task_id: str, parts: list[dict], **extra: Any) -> dict:
        return self.call("tasks/send", {"id": task_id, "message": message(parts), **extra})

    def get(self, task_id: str, **extra: Any) -> dict:
        return self.call("tasks/get", {"id": task_id, **extra})

    def cancel(self, task_id: str) -> dict:
        return self.call("tasks/cancel", {"id": task_id})

    def send_subscribe(self, task_id: str, parts: list[dict], **extra: Any) -> Iterator[dict]:
        """tasks/sendSubscribe; yields each event's JSON-RPC `result` (errors raise
        A2AError). The raw lines of the stream are kept in `last_stream_lines`."""
        envelope = {
            "jsonrpc": "2.0",
            "id": next(self._ids),
            "method": "tasks/sendSubscribe",
            "params": {"id": task_id, "message": message(parts), **extra},
        }
        self.last_stream_lines = []
        with connect_sse(self.http, "POST", "/", json=envelope) as source:
            response = source.response
            if response.status_code != 200:
                response.read()
                raise AssertionError(f"tasks/sendSubscribe: HTTP {response.status_code}: {response.text[:500]}")
            ctype = response.headers.get("content-type", "")
            if "text/event-stream" not in ctype:
                response.read()
                answer = response.json()
                if "error" in answer:
                    raise A2AError(answer["error"], answer)
                raise AssertionError(f"tasks/sendSubscribe: content-type {ctype!r}, body {response.text[:500]}")
            lines = SSELineDecoder()
            decoder = SSEDecoder()

            def events(line: str) -> Iterator[dict]:
                self.last_stream_lines.append(line)
                sse = decoder.decode(line.rstrip("\n"))
                if sse is None or not sse.data:
                    return
                answer = json.loads(sse.data)
                assert answer.get("jsonrpc") == "2.0", f"stream event is not JSON-RPC: {sse.data[:500]}"
                assert answer.get("id") == envelope["id"], (
                    f"stream event id {answer.get('id')!r} != request id {envelope['id']!r}"
                )
                if "error" in answer:
                    raise A2AError(answer["error"], answer)
                yield answer["result"]

            for chunk in response.iter_text():
                for line in lines.decode(chunk):
                    yield from events(line)
            for line in lines.flush():
                yield from events(line)
            yield from events("")  # a last event without its blank line

    def id_lines(self) -> list[str]:
        """Raw `id:` lines of the last stream (there must be none)."""
        return [line for line in self.last_stream_lines if line.startswith("id:") or line == "id"]


def is_status_event(event: dict) -> bool:
    return "status" in event and "artifact" not in event


def is_artifact_event(event: dict) -> bool:
    return "artifact" in event
