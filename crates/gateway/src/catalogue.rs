//! What agents read before choosing a skill: names, descriptions written for a
//! model, JSON Schemas of the arguments, tags and example requests. MCP lists
//! these as tools; the A2A Agent Card lists them as skills.

use serde_json::{json, Value};

use crate::skills::Skill;

/// The description of one skill.
pub struct Entry {
    pub skill: Skill,
    /// A short human title ("List meetings").
    pub title: &'static str,
    pub description: &'static str,
    pub tags: &'static [&'static str],
    /// Requests a person could type (A2A examples; the router handles each).
    pub examples: &'static [&'static str],
    /// Reads only: no change to meetings or recording state.
    pub read_only: bool,
}

impl Entry {
    /// The A2A skill id.
    pub fn name(&self) -> &'static str {
        self.skill.name()
    }

    /// The MCP tool name.
    pub fn tool_name(&self) -> &'static str {
        self.skill.tool_name()
    }

    /// JSON Schema (draft 2020-12 subset) of the arguments object.
    pub fn input_schema(&self) -> Value {
        let (properties, required) = properties(self.skill);
        json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        })
    }
}

pub fn entry(skill: Skill) -> &'static Entry {
    ENTRIES.iter().find(|entry| entry.skill == skill).expect("every skill has an entry")
}

pub fn entries() -> &'static [Entry] {
    &ENTRIES
}

/// A day written `YYYY-MM-DD` (the argument checks also refuse days that do not exist).
const DAY_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

const MEETING_ID: &str = "The meeting's id (a UUID from list_meetings or search_meetings), or \
    `latest` for the most recent meeting.";

fn properties(skill: Skill) -> (Value, Vec<&'static str>) {
    let meeting_id = json!({ "type": "string", "minLength": 1, "description": MEETING_ID });
    let time = |what: &str| {
        json!({
            "type": ["integer", "string"],
            "description": format!("{what}: milliseconds since the Unix epoch, or a date \
                (`2026-11-20`) or date-time (`2026-11-20T09:00:00+01:00`); dates are local midnight.")
        })
    };
    match skill {
        Skill::ListMeetings => (
            json!({
                "query": { "type": "string", "minLength": 1, "description": "Keep only meetings whose title, transcript or notes contain these words." },
                "limit": { "type": "integer", "minimum": 1, "maximum": 200, "default": 20, "description": "How many meetings to return (newest first)." },
                "offset": { "type": "integer", "minimum": 0, "default": 0, "description": "How many of the newest meetings to skip, to page through older ones." },
                "from": time("Only meetings that started at or after this moment"),
                "to": time("Only meetings that started before this moment"),
            }),
            vec![],
        ),
        Skill::GetMeeting => (json!({ "meeting_id": meeting_id }), vec!["meeting_id"]),
        Skill::GetTranscript => (
            json!({
                "meeting_id": meeting_id,
                "format": { "type": "string", "enum": ["md", "txt", "srt", "vtt", "json"], "default": "md", "description": "md: speaker, time and text per paragraph; txt: one line per segment; srt/vtt: subtitles; json: the segments as data." },
                "offset": { "type": "integer", "minimum": 0, "default": 0, "description": "Where to continue a transcript that was cut: the `next_offset` of the previous answer (characters for text formats, segments for json)." },
            }),
            vec!["meeting_id"],
        ),
        Skill::SearchMeetings => (
            json!({
                "query": { "type": "string", "minLength": 1, "description": "Words to find (all must appear); \"quoted phrases\" and prefix* work." },
                "limit": { "type": "integer", "minimum": 1, "maximum": 50, "default": 10, "description": "At most this many matches." },
            }),
            vec!["query"],
        ),
        Skill::Ask => (
            json!({
                "question": { "type": "string", "minLength": 1, "maxLength": 2000, "description": "The question, in the person's words (\"When will the replica be added?\")." },
                "meeting_id": { "type": "string", "minLength": 1, "description": format!("Only this meeting. {MEETING_ID}") },
                "from": time("Only meetings that started at or after this moment"),
                "to": time("Only meetings that started before this moment"),
            }),
            vec!["question"],
        ),
        Skill::GetActionItems => (
            json!({
                "meeting_id": meeting_id,
                "open_only": { "type": "boolean", "default": false, "description": "Only items not yet done." },
            }),
            vec![],
        ),
        Skill::AddActionItem => (
            json!({
                "meeting_id": meeting_id,
                "text": { "type": "string", "minLength": 1, "maxLength": 1000, "description": "What is to be done, in a few words (\"Send the budget to finance\")." },
                "owner": { "type": "string", "minLength": 1, "maxLength": 200, "description": "Who does it (a name); the person's own name when not given." },
                "due": { "type": "string", "format": "date", "pattern": DAY_PATTERN, "description": "By when: a date written YYYY-MM-DD (`2026-12-24`)." },
            }),
            vec!["meeting_id", "text"],
        ),
        Skill::UpdateActionItem => (
            json!({
                "meeting_id": meeting_id,
                "item_id": { "type": "string", "minLength": 1, "description": "The item's id: `id` of an item from get_action_items or get_meeting, or `item.id` of add_action_item's answer." },
                "text": { "type": "string", "minLength": 1, "maxLength": 1000, "description": "New words for the item." },
                "owner": { "type": "string", "minLength": 1, "maxLength": 200, "description": "Who does it now (a name)." },
                "due": { "type": ["string", "null"], "format": "date", "pattern": DAY_PATTERN, "description": "A new due date written YYYY-MM-DD (`2026-12-24`), or null to clear it." },
                "done": { "type": "boolean", "description": "true: the item is done; false: it is open again." },
            }),
            vec!["meeting_id", "item_id"],
        ),
        Skill::RegenerateNotes => (
            json!({
                "meeting_id": meeting_id,
                "kind": { "type": "string", "enum": ["summary", "action_items", "decisions", "key_points", "custom"], "default": "summary", "description": "Which note to write again; `custom` needs template_id." },
                "template_id": { "type": "string", "minLength": 1, "description": "A notes template (standup, one_on_one, customer_call, interview, or one of the person's own)." },
            }),
            vec!["meeting_id"],
        ),
        Skill::StartRecording => (
            json!({
                "source_app": { "type": "string", "minLength": 1, "maxLength": 100, "default": "agent", "description": "Where the meeting happens (zoom, meet, teams…); `agent` when unknown." },
                "title": { "type": "string", "minLength": 1, "maxLength": 500, "description": "Title of the new meeting." },
            }),
            vec![],
        ),
        Skill::StopRecording => (json!({}), vec![]),
        Skill::AddMarker => (
            json!({
                "label": { "type": "string", "minLength": 1, "maxLength": 200, "default": "Marker", "description": "What happened at this moment." },
            }),
            vec![],
        ),
    }
}

static ENTRIES: [Entry; 12] = [
    Entry {
        skill: Skill::ListMeetings,
        title: "List meetings",
        description: "Lists recorded meetings, newest first, with title, date, duration, status and \
            attendees. Use it to find a meeting's id, to see what happened in a period (from/to), or \
            to narrow by words (query). Read-only.",
        tags: &["meetings", "list", "calendar", "history"],
        examples: &["list my meetings", "what meetings did I have last week?", "meetings about the budget this month"],
        read_only: true,
    },
    Entry {
        skill: Skill::GetMeeting,
        title: "Get a meeting",
        description: "One meeting in full: title, date, duration, attendees, tags, its notes \
            (summary, key points, decisions), action items with owners, and markers. Use it after \
            finding the id with list_meetings or search_meetings; `latest` means the most recent. \
            Read-only.",
        tags: &["meetings", "notes", "summary"],
        examples: &["show me the latest meeting", "summary of meeting 0194f2d3-0000-7000-8000-000000000000"],
        read_only: true,
    },
    Entry {
        skill: Skill::GetTranscript,
        title: "Get a transcript",
        description: "What was said in a meeting, who said it and when (the person recording is \
            `Me`, the other side `Them`). Long transcripts come in parts: the answer says where it \
            was cut and the offset to ask for next. Prefer search_meetings to find one moment. \
            Read-only.",
        tags: &["transcript", "speech", "subtitles"],
        examples: &["transcript of the latest meeting", "get the transcript of 0194f2d3-0000-7000-8000-000000000000 as srt"],
        read_only: true,
    },
    Entry {
        skill: Skill::SearchMeetings,
        title: "Search meetings",
        description: "Full-text search across every transcript and note. Each match gives the \
            meeting, the speaker and the moment (start_ms) with the matching words highlighted. \
            The best first step for questions like 'when did we talk about X?'. Read-only.",
        tags: &["search", "transcript", "notes", "find"],
        examples: &["search for \"quarterly budget\"", "what did we say about the launch?", "find mentions of pricing"],
        read_only: true,
    },
    Entry {
        skill: Skill::Ask,
        title: "Ask the meetings",
        description: "Answers a question from what was said in the meetings: across all of \
            them, in one meeting (meeting_id), or in those of a date range (from/to). The answer \
            comes with its citations: for each line it rests on, the meeting, its title, the \
            moment (start_ms, end_ms), the speaker and the words said. Use it for questions like \
            'when will the replica be added?' or 'what did Dana promise about pricing?'; \
            search_meetings lists every mention of some words instead. Read-only.",
        tags: &["ask", "question", "answer", "transcript", "citations"],
        examples: &["when will the replica be added?", "ask my meetings what we decided on pricing", "what did Dana promise about pricing last week?"],
        read_only: true,
    },
    Entry {
        skill: Skill::GetActionItems,
        title: "Get action items",
        description: "Action items with their owners and whether they are done, for one meeting, \
            or (without meeting_id) for every meeting of the last 30 days. open_only=true keeps \
            what is still to do. Read-only.",
        tags: &["action items", "tasks", "todo", "follow-up"],
        examples: &["what are my open action items?", "action items from the latest meeting"],
        read_only: true,
    },
    Entry {
        skill: Skill::AddActionItem,
        title: "Add an action item",
        description: "Adds an action item to a meeting: what is to be done (text), who does it \
            (owner; the person's own name when not given) and by when (due, YYYY-MM-DD). The \
            answer gives the new item with its id, for update_action_item. The meeting's history \
            keeps the change, under this agent's name. Needs Recorder Pro.",
        tags: &["action items", "tasks", "todo", "add", "pro"],
        examples: &[
            "add an action item to the latest meeting: send the budget to finance",
            "add a to-do for Alice to the last meeting: \"update the roadmap\" due 2026-12-24",
        ],
        read_only: false,
    },
    Entry {
        skill: Skill::UpdateActionItem,
        title: "Update an action item",
        description: "Changes one action item of a meeting: marks it done (done=true) or open \
            again (done=false), rewords it (text), gives it another owner, or sets or clears its \
            due date (due; null clears it). Give at least one of text, owner, due, done; the ids \
            come from get_action_items or get_meeting. The meeting's history keeps the change, \
            under this agent's name, and the person can undo it. Needs Recorder Pro.",
        tags: &["action items", "tasks", "todo", "done", "assign", "pro"],
        examples: &[
            "mark action item 0194f2d3-0000-7000-8000-0000000000a1 of meeting 0194f2d3-0000-7000-8000-000000000000 as done",
            "assign task 0194f2d3-0000-7000-8000-0000000000a1 of the latest meeting to Bob, due 2026-12-24",
        ],
        read_only: false,
    },
    Entry {
        skill: Skill::RegenerateNotes,
        title: "Regenerate notes",
        description: "Writes a meeting's notes again (summary by default, or action items, \
            decisions, key points, or a custom template) with the notes provider the person chose, \
            waits for them and returns them. Needs Recorder Pro.",
        tags: &["notes", "summary", "regenerate", "pro"],
        examples: &["regenerate the summary of the latest meeting", "redo the action items of 0194f2d3-0000-7000-8000-000000000000"],
        read_only: false,
    },
    Entry {
        skill: Skill::StartRecording,
        title: "Start recording",
        description: "Starts recording a meeting now (the microphone and the other side's audio). \
            Needs Recorder Pro and the person's setting 'Allow agents to start recordings'; an \
            administrator can forbid it. Only when the person asked for it.",
        tags: &["recording", "start", "pro"],
        examples: &["start recording", "record this meeting as \"Design review\""],
        read_only: false,
    },
    Entry {
        skill: Skill::StopRecording,
        title: "Stop recording",
        description: "Stops the current recording; the meeting is then transcribed and its notes \
            written on this machine. Needs Recorder Pro.",
        tags: &["recording", "stop", "pro"],
        examples: &["stop recording", "end the recording"],
        read_only: false,
    },
    Entry {
        skill: Skill::AddMarker,
        title: "Add a marker",
        description: "Bookmarks the current moment of the recording with a label, to find it \
            again later. Needs a recording in progress and Recorder Pro.",
        tags: &["recording", "marker", "bookmark", "pro"],
        examples: &["add a marker", "mark this moment as \"pricing question\""],
        read_only: false,
    },
];
