-- Speakers told apart while a meeting is recorded (issue 49): live lines show
-- who speaks within seconds. `live` marks them until the pass after the
-- recording settles the meeting's speakers (saved with `live` 0).
ALTER TABLE speakers ADD COLUMN live INTEGER NOT NULL DEFAULT 0 CHECK (live IN (0, 1));
