-- The processing queue: each row is work still owed to a meeting. A job is
-- removed in the same transaction that stores its result, so after a crash
-- every unfinished job is still here and resumes from `resume_ms`.
CREATE TABLE jobs (
    seq INTEGER PRIMARY KEY,
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('transcribe', 'notes')),
    source_path TEXT,
    channel TEXT CHECK (channel IN ('mic', 'sys')),
    note_kind TEXT,
    template_id TEXT,
    resume_ms INTEGER NOT NULL DEFAULT 0,
    -- Runs started without saving progress since; a job that keeps taking the
    -- service down is given up instead of crashing it at every start.
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX jobs_meeting ON jobs (meeting);
