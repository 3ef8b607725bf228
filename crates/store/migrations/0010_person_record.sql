-- 0010: the record is the person's. Lines, notes and action items can be
-- corrected; every change (by the person, an agent or the service) is kept in
-- `changes` with what it replaced, in the same transaction as the change.

-- A line the person (or an agent) corrected: `edited`, the machine's first
-- words in `machine_text` (NULL while its text is the machine's), and a
-- speaker given to this line (`speaker_name`, over its channel's and number's).
ALTER TABLE segments ADD COLUMN edited INTEGER NOT NULL DEFAULT 0 CHECK (edited IN (0, 1));
ALTER TABLE segments ADD COLUMN machine_text TEXT;
ALTER TABLE segments ADD COLUMN speaker_name TEXT;

-- Items gain a due date (ISO `YYYY-MM-DD`) and `edited`: an item the person
-- or an agent added, reworded, gave an owner or ticked is kept through the
-- automatic notes runs.
ALTER TABLE action_items ADD COLUMN due TEXT;
ALTER TABLE action_items ADD COLUMN edited INTEGER NOT NULL DEFAULT 0 CHECK (edited IN (0, 1));

-- The person's own notes (kind `mine`): the moment of the meeting each line
-- was typed at, a JSON array of milliseconds or null, one per line.
ALTER TABLE notes ADD COLUMN line_moments TEXT;

CREATE TABLE changes (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    at INTEGER NOT NULL,
    -- `person`, `agent:<client>` or `service`.
    author TEXT NOT NULL,
    -- `segment:<id>`, `speaker:<label>`, `note:<id>`, `action_item:<id>`,
    -- `transcript` or `meeting`.
    target TEXT NOT NULL,
    -- JSON: the target as it was (NULL: it did not exist) and as it became
    -- (NULL: it was removed).
    before TEXT,
    after TEXT,
    -- A line of what changed, for the history panel.
    summary TEXT NOT NULL,
    -- Until then, the same author's next change of the same target is folded
    -- into this one (typing in a notepad is one change, not one a second).
    open_until INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX changes_meeting ON changes (meeting, seq);
