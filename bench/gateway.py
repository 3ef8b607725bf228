#!/usr/bin/env python3
"""What the gateway adds to a question: the same three reads (list 20 meetings,
one meeting in full, a full-text search) asked directly of the local API, over
MCP (stdio and Streamable HTTP, official MCP SDK; tools/call, and
resources/read for the meeting and its notes) and over A2A (the early
protocol's tasks/send and 1.0's SendMessage), against one seeded library, in
one run. Prints a Markdown table of p50/p95 in milliseconds and the overhead
over the direct API (also written to bench/results/gateway-YYYY-MM-DD.md).

Usage: bench/gateway.sh (builds release binaries first), or
  .venv/bin/python bench/gateway.py --bin-dir target/release [--meetings 500] [--requests 200]
"""

import argparse
import asyncio
import datetime
import json
import os
import pathlib
import socket
import statistics
import subprocess
import tempfile
import time

import httpx
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

ROOT = pathlib.Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def percentiles(samples):
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return statistics.median(ordered) * 1000, p95 * 1000


async def timed(call, requests):
    for _ in range(5):
        await call()
    samples = []
    for _ in range(requests):
        start = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - start)
    return percentiles(samples)


def operations(latest):
    return {
        "list 20 meetings": ("list_meetings", {"limit": 20}, "/v1/meetings", {"limit": 20}),
        "one meeting": ("get_meeting", {"meeting_id": latest}, f"/v1/meetings/{latest}", {}),
        "search (common word)": ("search_meetings", {"query": "budget"}, "/v1/search", {"q": "budget", "limit": 10}),
    }


def resources(latest):
    """Reads that are also MCP resources: (row, URI, the direct API path)."""
    return {
        "one meeting": (f"recorder://meetings/{latest}", f"/v1/meetings/{latest}"),
        "its notes (resource)": (f"recorder://meetings/{latest}/notes", f"/v1/meetings/{latest}"),
    }


async def mcp_rows(session, ops, reads, requests):
    """tools/call per operation, and resources/read per resource."""
    rows = {}
    for name, (tool, args, _, _) in ops.items():
        async def call(tool=tool, args=args):
            result = await session.call_tool(tool, args)
            assert not result.is_error, result.content

        async def raw(tool=tool, args=args):
            # The same request without the SDK's client-side check of the
            # answer against the tool's outputSchema (Python jsonschema).
            request = types.CallToolRequest(params=types.CallToolRequestParams(name=tool, arguments=args))
            result = await session.send_request(request, types.CallToolResult)
            assert not result.is_error, result.content
        rows[name] = {"tool": await timed(call, requests), "raw": await timed(raw, requests)}
    for name, (uri, _) in reads.items():
        async def read(uri=uri):
            result = await session.read_resource(uri)
            assert result.contents and result.contents[0].text, result
        rows.setdefault(name, {})["resource"] = await timed(read, requests)
    return rows


async def run(args):
    bins = pathlib.Path(args.bin_dir)
    work = pathlib.Path(tempfile.mkdtemp(prefix="gateway-bench-"))
    data = work / "data"
    subprocess.run([str(bins / "xtask"), "seed", "--data-dir", str(data), "--meetings",
                    str(args.meetings), "--segments", str(args.segments)], check=True, stdout=subprocess.DEVNULL)
    api, mcp_port, a2a_port = free_port(), free_port(), free_port()
    (data / "settings.json").write_text(json.dumps({"general": {"api_port": api}}))
    env = dict(os.environ, RECORDER_POLICY_PATH=str(work / "none.json"), RECORDER_LOG="warn")
    service = subprocess.Popen([str(bins / "recorder"), "serve", "--data-dir", str(data)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    gateway = None
    try:
        wait_port(api)
        gateway = subprocess.Popen([str(bins / "recorder-gateway"), "--data-dir", str(data), "--http",
                                    "--http-port", str(mcp_port), "--a2a", "--a2a-port", str(a2a_port),
                                    "--no-stdio"], env=env, stderr=subprocess.DEVNULL)
        wait_port(mcp_port)
        wait_port(a2a_port)
        token = (data / "api_token").read_text().strip()
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(headers=headers) as http:
            listing = (await http.get(f"http://127.0.0.1:{api}/v1/meetings", params={"limit": 1})).json()
            ops = operations(listing["meetings"][0]["id"])
            table = {name: {} for name in ops}
            for name, (skill, skill_args, path, query) in ops.items():
                async def direct(path=path, query=query):
                    (await http.get(f"http://127.0.0.1:{api}{path}", params=query)).raise_for_status()

                async def a2a(skill=skill, skill_args=skill_args):
                    body = {"jsonrpc": "2.0", "id": 1, "method": "tasks/send", "params": {
                        "message": {"role": "user", "parts": [{"type": "data", "data": {"skill": skill, "args": skill_args}}]}}}
                    reply = (await http.post(f"http://127.0.0.1:{a2a_port}/", json=body)).json()
                    assert reply["result"]["status"]["state"] == "completed", reply

                async def a2a_v10(skill=skill, skill_args=skill_args):
                    body = {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {
                        "messageId": "bench", "role": "ROLE_USER",
                        "parts": [{"data": {"skill": skill, "args": skill_args}}]}}}
                    reply = (await http.post(f"http://127.0.0.1:{a2a_port}/", json=body,
                                             headers={"A2A-Version": "1.0"})).json()
                    assert reply["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED", reply
                table[name]["local API (direct)"] = await timed(direct, args.requests)
                table[name]["A2A tasks/send"] = await timed(a2a, args.requests)
                table[name]["A2A 1.0 SendMessage"] = await timed(a2a_v10, args.requests)
            reads = resources(listing["meetings"][0]["id"])
            for name, (_, path) in reads.items():
                async def direct_read(path=path):
                    (await http.get(f"http://127.0.0.1:{api}{path}")).raise_for_status()
                table.setdefault(name, {}).setdefault("local API (direct)", await timed(direct_read, args.requests))
        import httpx2
        async with httpx2.AsyncClient(headers=headers) as http2:
            async with streamable_http_client(f"http://127.0.0.1:{mcp_port}/mcp", http_client=http2) as streams:
                async with ClientSession(streams[0], streams[1]) as session:
                    await session.initialize()
                    for name, cells in (await mcp_rows(session, ops, reads, args.requests)).items():
                        put(table[name], "MCP Streamable HTTP", cells)
        params = StdioServerParameters(command=str(bins / "recorder-gateway"), args=["--data-dir", str(data)], env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for name, cells in (await mcp_rows(session, ops, reads, args.requests)).items():
                    put(table[name], "MCP stdio", cells)
        return render(table, args)
    finally:
        for process in (gateway, service):
            if process:
                process.terminate()
                process.wait(timeout=10)


def put(row, transport, cells):
    """MCP cells: the tool call, and the resource read where there is one."""
    if "tool" in cells:
        row[transport] = cells["tool"]
        row[f"{transport} (no client-side schema check)"] = cells["raw"]
    if "resource" in cells:
        row[f"{transport} resources/read"] = cells["resource"]


COLUMNS = ["local API (direct)", "MCP stdio", "MCP stdio (no client-side schema check)",
           "MCP stdio resources/read", "MCP Streamable HTTP", "MCP Streamable HTTP resources/read",
           "A2A tasks/send", "A2A 1.0 SendMessage"]
# The bound: what stdio and A2A add over the direct API, p50.
OVERHEAD = ["MCP stdio", "MCP stdio (no client-side schema check)", "MCP stdio resources/read",
            "A2A tasks/send", "A2A 1.0 SendMessage"]


def cell(cells, column):
    return f"{cells[column][0]:.1f} / {cells[column][1]:.1f}" if column in cells else "—"


def overhead(table):
    lines = ["", "Overhead over the direct API, p50 (ms; the target is at most 2 ms for stdio and A2A):", ""]
    for name, cells in table.items():
        base = cells["local API (direct)"][0]
        parts = [f"{column} {cells[column][0] - base:+.1f}" for column in OVERHEAD if column in cells]
        lines.append(f"- {name}: " + ", ".join(parts))
    return lines


def render(table, args):
    columns = COLUMNS
    lines = [
        f"Gateway overhead, {args.meetings} seeded meetings of {args.segments} segments, "
        f"{args.requests} sequential requests each after 5 warm-up (ms, p50 / p95), "
        f"{datetime.date.today()}, {os.cpu_count()} cores:",
        "",
        "| read | " + " | ".join(columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for name, cells in table.items():
        lines.append(f"| {name} | " + " | ".join(cell(cells, c) for c in columns) + " |")
    lines += overhead(table)
    lines += ["", "\"its notes (resource)\" reads recorder://meetings/{id}/notes; the direct column is "
              "GET /v1/meetings/{id}, which the gateway renders as Markdown."]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(ROOT / "target" / "release"))
    parser.add_argument("--meetings", type=int, default=500)
    parser.add_argument("--segments", type=int, default=200)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    report = asyncio.run(run(args))
    print(report)
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / f"gateway-{datetime.date.today()}.md").write_text(report)


if __name__ == "__main__":
    main()
