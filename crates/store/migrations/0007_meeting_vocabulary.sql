-- 0007: words a meeting's transcription should expect (issue 34), given with
-- `PATCH /v1/meetings/:id {vocabulary}` before it is transcribed (again),
-- beside the person's own list (`transcription.vocabulary`), the attendees
-- and the title.
CREATE TABLE meeting_vocabulary (
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    word TEXT NOT NULL,
    PRIMARY KEY (meeting, position)
) STRICT;
