-- The people in the room (issue 49): the microphone's speakers are told apart
-- too. `channel` is the speaker's channel; `key` the label it has until it is
-- named: NULL for `Speaker N` (the other side, as before), `Them` (the other
-- side's one voice) or `In the room N` (someone beside the laptop's owner).
-- Numbers stay unique within a meeting across both channels.
ALTER TABLE speakers ADD COLUMN channel TEXT NOT NULL DEFAULT 'sys'
    CHECK (channel IN ('sys', 'mic'));
ALTER TABLE speakers ADD COLUMN key TEXT CHECK (key IS NULL OR length(key) BETWEEN 1 AND 40);

-- The laptop owner's voice ("Me"), to tell them from the others in the room:
-- the mean unit CAM++ embedding of the meetings where the microphone had one
-- voice (`meetings` of them), or of an enrolment reading (`enrolled`). One row
-- at most; forgotten with the remembered voices.
CREATE TABLE owner_voice (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    voice BLOB NOT NULL,
    meetings INTEGER NOT NULL CHECK (meetings >= 0),
    enrolled INTEGER NOT NULL CHECK (enrolled IN (0, 1)),
    updated_at INTEGER NOT NULL
) STRICT;
