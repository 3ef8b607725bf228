#!/usr/bin/env python3
"""Action items of the built-in notes engine on a labelled set of scripted
meetings (bench/fixtures/action-items.json, issue 18): commitments, requests by
name and without, hypotheticals, past actions, questions that are not requests,
and vague distractors. Each line's speaker is the name the person gave that
voice (what the transcript holds once speakers are named). Reports precision,
recall and the share of found items with the right owner, for the part the
engine was tuned on and for the held-out part.

A found item matches an expected one when it holds every word of its `key`
(case and punctuation aside); each expected item is matched once.

--through-service does what a new user does instead: each meeting is spoken by
espeak-ng people (one voice and pitch each) into one file, imported into a real
`recorder serve` (whisper tiny.en, Silero, CAM++), and once it is ready each
"Speaker N" is named after the person who really spoke most of its lines (as
the person would, listening); the meeting's action items are then scored.
--them scores the same text with every line spoken by "Them" (the other side
as one speaker: no speaker model). --anonymous labels each person's lines
"Speaker N" in the order they first speak (what diarization gives an import
before anyone names the voices), with the meeting's people as its attendees (as
a record card gives them); owners are still scored against the real names.
--set old scores only the meetings of issue 18, --set new only those added
later (they carry `added`), --set DATE only those added on that day
(2026-11-27: the built-in engine rework; 2026-11-28: owners, issue 34); the
default is all.
Usage: bench/action_items.py [--show] [--set all|old|new|DATE] [--them | --anonymous | --through-service [--binary PATH] [--model GGML]]"""
import json, os, re, subprocess, sys, tempfile, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "bench/fixtures/action-items.json")


def words(text):
    """The words of a text, plurals as singulars ("tests" matches "test")."""
    return {re.sub(r"(?<=[a-z]{3})s$", "", w) for w in re.findall(r"[a-z0-9'-]+", text.lower())}


from people import VOICES as PEOPLE
MODELS = os.path.join(ROOT, "target/test-models")


def speak_meeting(meeting, folder, index):
    """The meeting's lines spoken into one 16 kHz WAV; returns it and who spoke when (ms)."""
    parts, truth, at = [], [], 0
    for n, (person, text) in enumerate(meeting["lines"]):
        voice, pitch = PEOPLE[meeting["people"].index(person)]
        raw, part = f"{folder}/{index}-{n}.raw.wav", f"{folder}/{index}-{n}.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-p", str(pitch), "-s", "160", "-w", raw, text], check=True)
        subprocess.run(["sox", raw, "-r", "16000", "-c", "1", "-b", "16", part, "pad", "0", "0.7"], check=True)
        samples = int(subprocess.run(["sox", "--i", "-s", part], capture_output=True, text=True).stdout)
        truth.append((at, at + samples // 16 - 700, person))
        at += samples // 16
        parts.append(part)
    path = f"{folder}/meeting-{index}.wav"
    subprocess.run(["sox", *parts, path], check=True)
    return path, truth


class Api:
    def __init__(self, port, token):
        self.base, self.token = f"http://127.0.0.1:{port}", token

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            text = answer.read()
            return json.loads(text) if text else None


def through_service(meetings, binary, model):
    """Every meeting imported, named as a person would, and its action items read back."""
    found = []
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, RECORDER_MODEL_PATH=model,
                   RECORDER_VAD_PATH=f"{MODELS}/silero-vad.safetensors",
                   RECORDER_SPEAKER_MODEL_PATH=f"{MODELS}/speaker-campplus.safetensors")
        env.pop("RECORDER_DATA_DIR", None)
        service = subprocess.Popen([binary, "serve", "--port", "0", "--data-dir", f"{folder}/data"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
        try:
            port = int(re.search(r":(\d+)", service.stdout.readline()).group(1))
            api = Api(port, open(f"{folder}/data/ui_token").read().strip())
            imported = []
            for index, meeting in enumerate(meetings):
                path, truth = speak_meeting(meeting, folder, index)
                made = api.call("POST", "/ui/import", {"path": path, "title": meeting["title"]})
                api.call("PATCH", f"/ui/meetings/{made['id']}",
                         {"attendees": [{"name": p} for p in meeting["people"]]})
                imported.append((index, made["id"], truth))
            for index, meeting_id, truth in imported:
                while api.call("GET", f"/ui/meetings/{meeting_id}")["status"] != "ready":
                    time.sleep(0.5)
                name_like_a_person(api, meeting_id, truth)
                for item in api.call("GET", f"/ui/meetings/{meeting_id}")["action_items"]:
                    found.append({"meeting": index, "text": item["text"], "owner": item["owner"]})
        finally:
            service.kill()
            service.wait()
    return found


def name_like_a_person(api, meeting_id, truth):
    """Each speaker label gets the name of whoever really said most of its lines."""
    segments = api.call("GET", f"/ui/meetings/{meeting_id}/transcript")["segments"]
    talk = {}
    for segment in segments:
        for start, end, person in truth:
            overlap = min(end, segment["end_ms"]) - max(start, segment["start_ms"])
            if overlap > 0:
                votes = talk.setdefault(segment["speaker"], {})
                votes[person] = votes.get(person, 0) + overlap
    keys = {s["label"]: s["key"] for s in api.call("GET", f"/ui/meetings/{meeting_id}/speakers")["speakers"]}
    names = {keys[label]: max(votes, key=votes.get) for label, votes in talk.items() if label in keys}
    if names:
        api.call("PATCH", f"/ui/meetings/{meeting_id}/speakers", names)


def found_items(mode):
    extra = [mode] if mode else []
    out = subprocess.run(["cargo", "run", "-q", "-p", "recorder-notes", "--example", "action_items", FIXTURES, *extra],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def in_set(meeting, which):
    """Whether a meeting belongs to the set scored: all, old (issue 18), new (added
    later) or those added on one day."""
    if which not in ("all", "old", "new"):
        return meeting.get("added") == which
    return which == "all" or ("added" in meeting) == (which == "new")


def score(meetings, found, held_out, show, which="all"):
    expected_total = found_total = matched = owners = 0
    for index, meeting in enumerate(meetings):
        if meeting["held_out"] != held_out or not in_set(meeting, which):
            continue
        mine = [f for f in found if f["meeting"] == index]
        left = list(meeting["items"])
        expected_total += len(left)
        found_total += len(mine)
        for item in mine:
            hit = next((e for e in left if words(e["key"]) <= words(item["text"])), None)
            verdict = "MISSING-FROM-LABELS"
            if hit:
                left.remove(hit)
                matched += 1
                owners += hit["owner"] == item["owner"]
                verdict = "ok" if hit["owner"] == item["owner"] else f"OWNER (want {hit['owner']})"
            if show and verdict != "ok":
                print(f"  {meeting['title']}: found {item['text']!r} ({item['owner']}): {verdict}")
        if show:
            for e in left:
                print(f"  {meeting['title']}: MISSED {e['key']!r} ({e['owner']})")
    precision = matched / found_total if found_total else 0.0
    recall = matched / expected_total if expected_total else 0.0
    owner = owners / matched if matched else 0.0
    name = "held out" if held_out else "tuned on"
    count = sum(m["held_out"] == held_out and in_set(m, which) for m in meetings)
    print(f"| {name} | {count} | {expected_total} | {found_total} | {matched} | {precision:.2f} | {recall:.2f} "
          f"| {owners}/{matched} = {owner:.2f} |")


def main():
    show = "--show" in sys.argv
    which = sys.argv[sys.argv.index("--set") + 1] if "--set" in sys.argv else "all"
    if which not in ("all", "old", "new") and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", which):
        sys.exit("--set takes all, old, new or a date")
    meetings = json.load(open(FIXTURES))["meetings"]
    if "--through-service" in sys.argv:
        binary = sys.argv[sys.argv.index("--binary") + 1] if "--binary" in sys.argv else \
            os.path.join(ROOT, "target/release/recorder")
        model = sys.argv[sys.argv.index("--model") + 1] if "--model" in sys.argv else \
            f"{MODELS}/ggml-tiny.en-q8_0.bin"
        found = through_service(meetings, binary, model)
    else:
        mode = next((m for m in ("--them", "--anonymous") if m in sys.argv), None)
        found = found_items(mode)
    print("| part | meetings | expected | found | matched | precision | recall | right owner |")
    print("|---|---|---|---|---|---|---|---|")
    for held_out in (False, True):
        score(meetings, found, held_out, show, which)


if __name__ == "__main__":
    sys.exit(main())
