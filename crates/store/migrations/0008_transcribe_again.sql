-- 0008: transcribing a finished meeting again (issue 34). A transcription job
-- may name the model and the language it runs with; a job of a pass over a
-- meeting that already has a transcript (`staged` 1) writes its lines to
-- staged_segments, and the transcript is replaced by them in one transaction
-- once every channel is done, so the earlier one stays whole until then and
-- stays when the pass fails.
ALTER TABLE jobs ADD COLUMN model TEXT;
ALTER TABLE jobs ADD COLUMN language TEXT;
ALTER TABLE jobs ADD COLUMN staged INTEGER NOT NULL DEFAULT 0;

CREATE TABLE staged_segments (
    seq INTEGER PRIMARY KEY,
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    channel TEXT NOT NULL CHECK (channel IN ('mic', 'sys')),
    start_ms INTEGER NOT NULL,
    end_ms INTEGER NOT NULL,
    text TEXT NOT NULL
) STRICT;
CREATE INDEX staged_segments_meeting ON staged_segments (meeting, channel, start_ms);
