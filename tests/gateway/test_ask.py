"""Asking the meetings through the gateway: the MCP tool `ask_meetings` (official
MCP SDK) and the A2A skill `ask` (a question in free text), against a Free
service with the seeded meetings and one imported from speech that holds the
answer. Without the embedding model the service answers by words."""

from __future__ import annotations

import pytest

from a2a_early import EarlyA2A, data_parts, new_task_id, parts_of, text_part, text_parts
from harness import Service, synthesize_speech
from mcp_helpers import call_invalid, call_ok, open_session

pytestmark = pytest.mark.anyio

TRANSPORTS = ["stdio", "http"]
TITLE = "Incident review"
SPEECH = (
    "The database went down on Saturday night. Customers could not log in for two hours. "
    "We will add a replica so it does not happen again."
)
QUESTION = "When will the replica be added?"
NOTHING = "Nothing in your meetings answers that."


def clock(ms: int) -> str:
    """mm:ss (hh:mm:ss past an hour), as the gateway writes moments."""
    seconds = max(ms, 0) // 1000
    h, m, s = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{h:02}:{m:02}:{s:02}" if h else f"{m:02}:{s:02}"


@pytest.fixture(scope="module")
def ask_service(services, tmp_path_factory) -> Service:
    """Free; the seeded meetings plus 'Incident review', transcribed from speech."""
    service = services.start("ask")
    speech = synthesize_speech(tmp_path_factory.mktemp("ask-speech"), SPEECH)
    service.incident_id = service.import_audio(speech, TITLE)
    return service


def replica_line(service: Service) -> dict:
    """The transcript segment of 'Incident review' that says 'replica'."""
    segments = service.transcript(service.incident_id, "json")["segments"]
    found = [s for s in segments if "replica" in s["text"].lower()]
    assert found, f"the transcription has no 'replica': {[s['text'] for s in segments]}"
    return found[0]


def the_cited_line(citations: list[dict], service: Service) -> dict:
    """The citation of the replica line, checked against the transcript."""
    line = replica_line(service)
    cited = [c for c in citations if c["meeting_id"] == service.incident_id and "replica" in c["text"].lower()]
    assert cited, f"no citation of the replica line of {service.incident_id}: {citations}"
    citation = cited[0]
    assert citation["title"] == TITLE, citation
    # The citation holds the line with the lines said around it; `at_ms` is where it starts.
    assert citation["start_ms"] <= line["start_ms"] and line["end_ms"] <= citation["end_ms"], (citation, line)
    assert citation.get("at_ms", citation["start_ms"]) == line["start_ms"], (citation, line)
    assert line["text"].strip() in citation["text"], (citation, line)
    assert isinstance(citation["speaker"], str) and citation["speaker"], citation
    return citation


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_ask_meetings_answers_with_the_line_it_comes_from(ask_service, transport):
    async with open_session(ask_service, transport) as session:
        sc, text = await call_ok(session, "ask_meetings", {"question": QUESTION}, timeout=120)
    assert "replica" in sc["answer"].lower(), f"the answer should say when:\n{sc}"
    assert sc["provider"] == "builtin", sc
    citation = the_cited_line(sc["citations"], ask_service)
    assert ask_service.incident_id in sc["meeting_ids"], sc["meeting_ids"]
    assert {"meeting_id": ask_service.incident_id, "start_ms": citation["start_ms"],
            "end_ms": citation["end_ms"]} in sc["timestamps"], sc["timestamps"]
    # For people: the answer first, then each citation with title, time, speaker and words.
    assert text.startswith(sc["answer"].strip()), text
    sources = text[text.index("Sources:"):]
    for part in (TITLE, f"[{clock(citation.get('at_ms', citation['start_ms']))}]", f"{citation['speaker']}:",
                 f"“{citation['text'].strip()}”", ask_service.incident_id):
        assert part in sources, f"the citation should show {part!r}:\n{text}"


async def test_ask_meetings_keeps_to_one_meeting_and_refuses_an_empty_question(ask_service):
    other = next(m["id"] for m in ask_service.meetings(limit=50)["meetings"] if m["id"] != ask_service.incident_id)
    async with open_session(ask_service, "stdio") as session:
        scoped, _ = await call_ok(session, "ask_meetings", {"question": QUESTION, "meeting_id": "latest"})
        elsewhere, text = await call_ok(session, "ask_meetings", {"question": QUESTION, "meeting_id": other})
        await call_invalid(session, "ask_meetings", {"question": "  "}, "question")
    the_cited_line(scoped["citations"], ask_service)
    assert {c["meeting_id"] for c in scoped["citations"]} == {ask_service.incident_id}, scoped["citations"]
    assert not any("replica" in c["text"].lower() for c in elsewhere["citations"]), elsewhere
    assert all(c["meeting_id"] == other for c in elsewhere["citations"]), elsewhere["citations"]
    if not elsewhere["citations"]:
        assert elsewhere["answer"] == NOTHING and text.strip() == NOTHING, (elsewhere, text)


def test_a_question_in_words_is_routed_to_ask_with_citations(ask_service):
    with EarlyA2A(ask_service.a2a_url(), ask_service.token) as a2a:
        task = a2a.send(new_task_id(), [text_part(QUESTION)])
    assert task["status"]["state"] == "completed", task
    parts = parts_of(task["artifacts"][0])
    data = data_parts(parts)
    assert len(data) == 1 and data[0]["skill"] == "ask", f"a question should reach `ask`: {parts}"
    data = data[0]
    citation = the_cited_line(data["citations"], ask_service)
    assert ask_service.incident_id in data["meeting_ids"], data
    assert any(ts.get("start_ms") == citation["start_ms"] for ts in data["timestamps"]), data["timestamps"]
    text = text_parts(parts)
    assert "replica" in text.lower() and TITLE in text, text
