-- Speakers of the other side (`sys`), told apart after a meeting. A segment's
-- `speaker` is its speaker's number in the meeting (NULL: the channel's one
-- speaker, "Them"); `speakers` holds each number's name (NULL: "Speaker N")
-- and voice (the unit CAM++ embedding, 192 little-endian f32).
CREATE TABLE speakers (
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),
    name TEXT CHECK (name IS NULL OR length(name) BETWEEN 1 AND 80),
    voice BLOB NOT NULL,
    PRIMARY KEY (meeting, number)
) STRICT;
ALTER TABLE segments ADD COLUMN speaker INTEGER;

-- Voices the person named, kept to recognise them in later meetings (only on
-- this machine; deletable one by one; not kept when `speakers.remember_voices`
-- is off). `voice` is the mean of the unit embeddings of the meetings
-- (`meetings` of them) where the name was given.
CREATE TABLE voices (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 80),
    voice BLOB NOT NULL,
    meetings INTEGER NOT NULL CHECK (meetings >= 1),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;
