"""MCP tools of the gateway on a Free service, over stdio and over Streamable HTTP
(official MCP SDK). Every answer is compared with the local API itself."""

from __future__ import annotations

import re
import time

import pytest

from conftest import REAL_TITLE
from mcp_helpers import (
    TOOLS,
    ToolError,
    call,
    call_invalid,
    call_ok,
    call_refused,
    dump,
    open_session,
    text_of,
)

pytestmark = pytest.mark.anyio

TRANSPORTS = ["stdio", "http"]
DAY = 86_400_000


def norm(text: str) -> str:
    """Whitespace-insensitive form of a text, to compare renderings."""
    return re.sub(r"\s+", " ", text).strip()


def ids(meetings: list[dict]) -> list[str]:
    return [m["id"] for m in meetings]


def meeting_with_action_items(service) -> dict:
    for summary in service.meetings(limit=50)["meetings"]:
        meeting = service.meeting(summary["id"])
        if len(meeting["action_items"]) >= 2 and all(i["owner"] for i in meeting["action_items"]):
            return meeting
    raise AssertionError("no seeded meeting with two or more owned action items")


# ---------------------------------------------------------------------------
# tools/list
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_tools_list_has_exactly_the_twelve_tools(free_service, transport):
    async with open_session(free_service, transport) as session:
        listing = await session.list_tools()
    names = [tool.name for tool in listing.tools]
    assert sorted(names) == sorted(TOOLS), f"tools/list names: {names}"
    for tool in listing.tools:
        assert tool.description and tool.description.strip(), f"{tool.name}: empty description"
        assert tool.input_schema.get("type") == "object", f"{tool.name}: inputSchema {tool.input_schema}"
    schemas = {tool.name: tool.input_schema for tool in listing.tools}
    expected = {
        "list_meetings": {"query", "limit", "offset", "from", "to"},
        "get_meeting": {"meeting_id"},
        "get_transcript": {"meeting_id", "format", "offset"},
        "search_meetings": {"query", "limit"},
        "ask_meetings": {"question", "meeting_id", "from", "to"},
        "get_action_items": {"meeting_id", "open_only"},
        "add_action_item": {"meeting_id", "text", "owner", "due"},
        "update_action_item": {"meeting_id", "item_id", "text", "owner", "due", "done"},
        "regenerate_notes": {"meeting_id", "kind", "template_id"},
        "start_recording": {"source_app", "title"},
        "stop_recording": set(),
        "add_marker": {"label"},
    }
    for name, props in expected.items():
        got = set((schemas[name].get("properties") or {}).keys())
        assert got == props, f"{name}: inputSchema properties {sorted(got)}, expected {sorted(props)}"
    assert "meeting_id" in schemas["get_meeting"].get("required", []), schemas["get_meeting"]
    assert "query" in schemas["search_meetings"].get("required", []), schemas["search_meetings"]
    assert schemas["ask_meetings"].get("required") == ["question"], schemas["ask_meetings"]
    assert schemas["add_action_item"].get("required") == ["meeting_id", "text"], schemas["add_action_item"]
    assert schemas["update_action_item"].get("required") == ["meeting_id", "item_id"], schemas["update_action_item"]
    tools = {tool.name: tool for tool in listing.tools}
    for name in ("add_action_item", "update_action_item"):
        assert tools[name].annotations.read_only_hint is False, f"{name} changes meetings: {tools[name].annotations}"
        assert "Pro" in tools[name].description, tools[name].description


# ---------------------------------------------------------------------------
# list_meetings
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_list_meetings_pages_like_the_api(free_service, transport):
    truth = free_service.meetings(limit=5, offset=2)
    async with open_session(free_service, transport) as session:
        sc, text = await call_ok(session, "list_meetings", {"limit": 5, "offset": 2})
        default_sc, _ = await call_ok(session, "list_meetings", {})
    assert ids(sc["meetings"]) == ids(truth["meetings"]), f"list_meetings(limit 5, offset 2):\n{sc}"
    assert (sc["total"], sc["limit"], sc["offset"]) == (truth["total"], 5, 2), sc
    assert set(sc["meeting_ids"]) == set(ids(truth["meetings"])), f"meeting_ids {sc['meeting_ids']}"
    for meeting in truth["meetings"]:
        assert meeting["title"] in text, f"the text should name {meeting['title']!r}:\n{text}"
    # Without arguments: the newest first, as the API lists them.
    limit = default_sc["limit"]
    assert isinstance(limit, int) and limit >= 1, default_sc
    assert default_sc["total"] == truth["total"] and default_sc["offset"] == 0, default_sc
    assert ids(default_sc["meetings"]) == ids(free_service.meetings(limit=limit)["meetings"])
    assert default_sc["meetings"][0]["id"] == free_service.real_meeting_id


async def test_list_meetings_query_and_time_range(free_service):
    seeded = [m for m in free_service.meetings(limit=200)["meetings"] if m["id"] != free_service.real_meeting_id]
    starts = sorted({m["started_at"] for m in seeded}, reverse=True)
    frm, to = starts[4], starts[1]  # a few days in the middle: from inclusive, to exclusive
    by_query = free_service.meetings(q="zeppelin", limit=200)
    by_range = free_service.meetings(**{"from": frm, "to": to, "limit": 200})
    assert 0 < by_query["total"] < len(seeded) + 1 and by_range["total"] > 0, "seeded data as expected"
    async with stdio_or_http(free_service) as session:
        sc_q, text_q = await call_ok(session, "list_meetings", {"query": "zeppelin", "limit": 200})
        sc_r, _ = await call_ok(session, "list_meetings", {"from": frm, "to": to, "limit": 200})
    assert ids(sc_q["meetings"]) == ids(by_query["meetings"]), f"query 'zeppelin':\n{sc_q}"
    assert sc_q["total"] == by_query["total"]
    assert ids(sc_r["meetings"]) == ids(by_range["meetings"]), f"from {frm} to {to}:\n{sc_r}"
    assert all(frm <= m["started_at"] < to for m in sc_r["meetings"]), sc_r


def stdio_or_http(service, transport: str = "stdio"):
    return open_session(service, transport)


# ---------------------------------------------------------------------------
# get_meeting
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_get_meeting_full_with_notes_and_action_items(free_service, transport):
    truth = meeting_with_action_items(free_service)
    async with open_session(free_service, transport) as session:
        sc, text = await call_ok(session, "get_meeting", {"meeting_id": truth["id"]})
    meeting = sc.get("meeting")
    assert isinstance(meeting, dict), f"structuredContent.meeting missing:\n{sc}"
    for key in ("id", "title", "started_at", "status", "attendees"):
        assert meeting.get(key) == truth[key], f"meeting.{key}: {meeting.get(key)!r} != API {truth[key]!r}"
    assert [n["id"] for n in meeting.get("notes", [])] == [n["id"] for n in truth["notes"]], meeting.get("notes")
    assert [(i["id"], i["owner"], i["done"]) for i in meeting.get("action_items", [])] == [
        (i["id"], i["owner"], i["done"]) for i in truth["action_items"]
    ], meeting.get("action_items")
    assert sc["meeting_ids"] == [truth["id"]], sc["meeting_ids"]
    assert truth["title"] in text, f"the text should carry the title {truth['title']!r}:\n{text}"
    for item in truth["action_items"]:
        assert item["owner"] in text, f"the text should name the owner {item['owner']!r}:\n{text}"


async def test_get_meeting_latest_and_unknown(free_service):
    async with stdio_or_http(free_service) as session:
        sc, text = await call_ok(session, "get_meeting", {"meeting_id": "latest"})
        unknown = await call(session, "get_meeting", {"meeting_id": "01a2019a-0000-7000-8000-000000000000"})
    assert sc["meeting"]["id"] == free_service.latest_meeting_id() == free_service.real_meeting_id, sc["meeting"]
    assert REAL_TITLE in text
    real = free_service.meeting(free_service.real_meeting_id)
    assert [i["id"] for i in sc["meeting"]["action_items"]] == [i["id"] for i in real["action_items"]]
    for item in real["action_items"]:
        assert item["owner"] in text, f"the text should name the owner {item['owner']!r}:\n{text}"
    assert unknown.is_error, f"an unknown meeting should be a tool error:\n{dump(unknown)}"
    assert text_of(unknown).strip(), dump(unknown)


# ---------------------------------------------------------------------------
# get_transcript
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["md", "txt", "srt", "vtt"])
async def test_get_transcript_text_formats_match_the_api(free_service, fmt):
    meeting_id = free_service.real_meeting_id
    truth = free_service.transcript(meeting_id, fmt)
    async with stdio_or_http(free_service) as session:
        sc, text = await call_ok(session, "get_transcript", {"meeting_id": meeting_id, "format": fmt})
    assert sc["meeting_id"] == meeting_id and sc["format"] == fmt, sc
    assert sc["offset"] == 0 and sc["next_offset"] is None and sc["truncated"] is False, sc
    assert isinstance(sc["total"], int), sc
    assert norm(sc["text"]) == norm(truth), f"{fmt} text differs from the API's:\n{sc['text']!r}\n!=\n{truth!r}"
    assert "budget" in sc["text"].lower() and "budget" in text.lower(), text
    assert "segments" not in sc, f"segments only for format json: {sorted(sc)}"


async def test_get_transcript_default_and_json(free_service):
    meeting_id = free_service.real_meeting_id
    truth = free_service.transcript(meeting_id, "json")["segments"]
    async with open_session(free_service, "http") as session:
        default_sc, _ = await call_ok(session, "get_transcript", {"meeting_id": meeting_id})
        sc, _ = await call_ok(session, "get_transcript", {"meeting_id": "latest", "format": "json"})
    assert default_sc["format"] in ("md", "txt", "json", "srt", "vtt"), default_sc
    assert "budget" in default_sc["text"].lower(), default_sc
    assert sc["meeting_id"] == meeting_id and sc["format"] == "json", sc
    assert sc["segments"] == truth, f"json segments differ from the API's:\n{sc['segments']}\n!=\n{truth}"
    assert sc["total"] == len(truth) and sc["truncated"] is False and sc["next_offset"] is None, sc
    for ts in sc["timestamps"]:
        assert ts["meeting_id"] == meeting_id, ts


@pytest.mark.parametrize("fmt", ["md", "json"])
async def test_get_transcript_long_comes_in_parts(free_service, fmt):
    """The 900-segment meeting: following next_offset gives back the whole transcript
    (characters for text formats, segments for json)."""
    meeting_id = free_service.long_meeting_id
    truth = free_service.transcript(meeting_id, fmt)
    pieces: list = []
    offsets: list[int] = []
    async with stdio_or_http(free_service) as session:
        offset = 0
        for _ in range(200):
            args = {"meeting_id": meeting_id, "format": fmt}
            if offset:
                args["offset"] = offset
            sc, _ = await call_ok(session, "get_transcript", args)
            assert sc["offset"] == offset, f"asked offset {offset}, answer says {sc['offset']}"
            assert sc["truncated"] == (sc["next_offset"] is not None), f"truncated/next_offset disagree: {sc}"
            pieces.append(sc["segments"] if fmt == "json" else sc["text"])
            offsets.append(offset)
            if sc["next_offset"] is None:
                break
            assert isinstance(sc["next_offset"], int) and sc["next_offset"] > offset, sc["next_offset"]
            offset = sc["next_offset"]
        else:
            raise AssertionError(f"no end after 200 parts (offsets {offsets[:10]}…)")
        # Starting in the middle gives the rest from there.
        middle = (sc["total"] // 2) if fmt == "json" else (len(truth) // 2)
        mid_sc, _ = await call_ok(session, "get_transcript", {"meeting_id": meeting_id, "format": fmt, "offset": middle})
    if fmt == "json":
        whole = [segment for piece in pieces for segment in piece]
        assert whole == truth["segments"], f"json parts (offsets {offsets}) do not add up to the API's segments"
        assert sc["total"] == len(truth["segments"]), sc["total"]
        assert mid_sc["segments"] == truth["segments"][middle:middle + len(mid_sc["segments"])], "json offset"
    else:
        assert norm("".join(pieces)) == norm(truth), (
            f"md parts (offsets {offsets}) do not add up to the API's transcript "
            f"({sum(map(len, pieces))} vs {len(truth)} characters)"
        )
        assert sc["total"] == len(truth), f"total {sc['total']} != {len(truth)} characters"
        assert mid_sc["offset"] == middle and norm(truth[middle:]).startswith(norm(mid_sc["text"][:200])), (
            f"offset {middle} should start at character {middle}: {mid_sc['text'][:80]!r} vs {truth[middle:middle + 80]!r}"
        )


# ---------------------------------------------------------------------------
# search_meetings
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_search_meetings_matches_the_api(free_service, transport):
    truth = free_service.get("/v1/search", q="budget", limit=10)["results"]
    assert truth and truth[0]["meeting_id"] == free_service.real_meeting_id, "API truth as expected"
    async with open_session(free_service, transport) as session:
        sc, text = await call_ok(session, "search_meetings", {"query": "budget", "limit": 10})
    results = sc["results"]
    assert sc["query"] == "budget", sc
    key = lambda r: (r["meeting_id"], r["source"], r.get("start_ms"), r.get("note_id"))  # noqa: E731
    assert [key(r) for r in results] == [key(r) for r in truth], f"search results differ:\n{results}\n!=\n{truth}"
    for got in results:
        for field in ("meeting_id", "meeting_title", "started_at", "source", "snippet", "text"):
            assert field in got, f"search result without {field}: {got}"
        assert "<mark>" not in got["text"] and "</mark>" not in got["text"], got
        assert "budget" in got["text"].lower(), got
        if got["source"] == "transcript":
            assert isinstance(got["start_ms"], int) and isinstance(got["end_ms"], int), got
            assert got.get("speaker"), got
            assert any(ts["meeting_id"] == got["meeting_id"] and ts.get("start_ms") == got["start_ms"]
                       for ts in sc["timestamps"]), f"no timestamp for {got}: {sc['timestamps']}"
    assert free_service.real_meeting_id in sc["meeting_ids"]
    assert REAL_TITLE in text, f"the text should name the meeting:\n{text}"
    assert "budget" in text.lower() and "<mark>" not in text, text


async def test_search_meetings_no_match_is_not_an_error(free_service):
    async with stdio_or_http(free_service) as session:
        sc, text = await call_ok(session, "search_meetings", {"query": "xylophonequartz"})
    assert sc["results"] == [] and sc["meeting_ids"] == [], sc


# ---------------------------------------------------------------------------
# get_action_items
# ---------------------------------------------------------------------------


def items_of_last_30_days(service) -> tuple[list[dict], set[str]]:
    """(items of meetings in the last 30 days, ids of meetings too close to the edge to judge)."""
    now = int(time.time() * 1000)
    edge = now - 30 * DAY
    items, unsure = [], set()
    for summary in service.meetings(limit=200)["meetings"]:
        if abs(summary["started_at"] - edge) < DAY:
            unsure.add(summary["id"])
            continue
        if summary["started_at"] >= edge:
            meeting = service.meeting(summary["id"])
            items += [{**item, "meeting_id": meeting["id"], "meeting_title": meeting["title"]}
                      for item in meeting["action_items"]]
    return items, unsure


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_get_action_items_last_30_days(free_service, transport):
    truth, unsure = items_of_last_30_days(free_service)
    assert truth and any(i["done"] for i in truth) and any(not i["done"] for i in truth), "seeded data as expected"
    async with open_session(free_service, transport) as session:
        sc, text = await call_ok(session, "get_action_items", {})
        open_sc, open_text = await call_ok(session, "get_action_items", {"open_only": True})
    assert sc["open_only"] is False and open_sc["open_only"] is True, (sc["open_only"], open_sc["open_only"])
    assert sc.get("scope"), f"scope missing: {sorted(sc)}"
    got = [i for i in sc["items"] if i["meeting_id"] not in unsure]
    fields = ("meeting_id", "meeting_title", "started_at", "id", "text", "owner", "done")
    for item in sc["items"]:
        assert all(f in item for f in fields), f"item without some of {fields}: {item}"
    assert {i["id"] for i in got} == {i["id"] for i in truth}, (
        f"last 30 days: gateway {sorted((i['meeting_title'], i['text']) for i in got)}\n"
        f"API {sorted((i['meeting_title'], i['text']) for i in truth)}"
    )
    by_id = {i["id"]: i for i in truth}
    for item in got:
        want = by_id[item["id"]]
        assert (item["text"], item["owner"], item["done"], item["meeting_title"]) == (
            want["text"], want["owner"], want["done"], want["meeting_title"]), (item, want)
    open_truth = {i["id"] for i in truth if not i["done"]}
    assert all(not i["done"] for i in open_sc["items"]), f"open_only listed done items: {open_sc['items']}"
    assert {i["id"] for i in open_sc["items"] if i["meeting_id"] not in unsure} == open_truth
    open_texts = {i["text"] for i in truth if not i["done"]}
    for item in truth:
        if item["done"] and item["text"] not in open_texts:
            assert item["text"] not in open_text, f"open_only text lists the done item {item['text']!r}:\n{open_text}"
    for item in truth:
        if not item["done"]:
            assert item["text"] in open_text, f"open_only text misses {item['text']!r}:\n{open_text}"


async def test_get_action_items_of_one_meeting(free_service):
    truth = meeting_with_action_items(free_service)
    async with stdio_or_http(free_service) as session:
        sc, text = await call_ok(session, "get_action_items", {"meeting_id": truth["id"]})
    assert [i["id"] for i in sc["items"]] == [i["id"] for i in truth["action_items"]], sc["items"]
    assert all(i["meeting_id"] == truth["id"] and i["meeting_title"] == truth["title"] for i in sc["items"]), sc
    assert sc["meeting_ids"] == [truth["id"]], sc["meeting_ids"]
    for item in truth["action_items"]:
        assert item["owner"] in text and item["text"] in text, f"{item} not in:\n{text}"
    real = free_service.meeting(free_service.real_meeting_id)
    async with stdio_or_http(free_service, "http") as session:
        sc, text = await call_ok(session, "get_action_items", {"meeting_id": "latest"})
    assert [i["id"] for i in sc["items"]] == [i["id"] for i in real["action_items"]], sc["items"]
    assert [i["done"] for i in sc["items"]] == [i["done"] for i in real["action_items"]], sc["items"]


# ---------------------------------------------------------------------------
# arguments and refusals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_unknown_argument_names_are_refused_by_name(free_service, transport):
    async with open_session(free_service, transport) as session:
        await call_invalid(session, "get_meeting", {"meetingId": "latest"}, "meetingId")
        await call_invalid(session, "list_meetings", {"limit": 3, "sort": "asc"}, "sort")
        await call_invalid(session, "search_meetings", {"query": "budget", "max_results": 3}, "max_results")
        await call_invalid(session, "stop_recording", {"now": True}, "now")
        await call_invalid(session, "get_transcript", {"meeting_id": "latest", "format": "pdf"}, "format")
        await call_invalid(session, "get_meeting", {}, "meeting_id")


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_an_unknown_tool_is_a_protocol_error(free_service, transport):
    """MCP: a tool that does not exist is a JSON-RPC error -32602, not a tool result."""
    async with open_session(free_service, transport) as session:
        with pytest.raises(ToolError) as raised:
            await call(session, "delete_everything", {})
    error = raised.value.error
    assert error.code == -32602, error
    assert error.message == "Unknown tool: delete_everything", error


async def test_nulls_mean_absent(free_service):
    async with stdio_or_http(free_service) as session:
        sc, _ = await call_ok(session, "list_meetings", {"query": None, "limit": 3, "offset": None})
    assert ids(sc["meetings"]) == ids(free_service.meetings(limit=3)["meetings"])


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_free_plan_refuses_pro_tools(free_service, transport):
    items = free_service.meeting(free_service.real_meeting_id)["action_items"]
    assert items, "fixture: the real meeting has action items"
    item = items[0]
    async with open_session(free_service, transport) as session:
        await call_refused(session, "regenerate_notes", {"meeting_id": free_service.real_meeting_id},
                           "pro_required", "plan", "Pro")
        await call_refused(session, "start_recording", {"title": "Not on Free"}, "pro_required", "plan", "Pro")
        # The plan is checked before the state: nothing records, yet the answer is the plan.
        await call_refused(session, "stop_recording", {}, "pro_required", "plan", "Pro")
        await call_refused(session, "add_marker", {"label": "x"}, "pro_required", "plan", "Pro")
        await call_refused(session, "add_action_item",
                           {"meeting_id": free_service.real_meeting_id, "text": "Not on Free"},
                           "pro_required", "plan", "Pro")
        await call_refused(session, "update_action_item",
                           {"meeting_id": free_service.real_meeting_id, "item_id": item["id"], "done": not item["done"]},
                           "pro_required", "plan", "Pro")
    assert not free_service.recording_active()
    assert free_service.meeting(free_service.real_meeting_id)["action_items"] == items, "Free: items unchanged"
