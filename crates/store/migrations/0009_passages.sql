-- 0009: search by meaning. A meeting's passages (about 30 s of transcript, or
-- one item of a note) with their sentence embeddings as int8 values times one
-- scale. Which meetings need embedding again is `meaning_dirty`, kept by the
-- triggers below in the same transaction as every change to what is embedded;
-- `version` tells the embedder whether a meeting changed while it worked.

-- AUTOINCREMENT: ids only grow, so the in-memory index loads what is new
-- by id, even after the newest passages were deleted and replaced.
CREATE TABLE passages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    source TEXT NOT NULL CHECK (source IN ('transcript', 'note')),
    start_ms INTEGER NOT NULL,
    end_ms INTEGER NOT NULL,
    note INTEGER,
    item INTEGER NOT NULL DEFAULT 0,
    scale REAL NOT NULL,
    vector BLOB NOT NULL
) STRICT;
CREATE INDEX passages_meeting ON passages (meeting);

-- No foreign key: a deleted meeting's cascade fires the triggers below; the
-- embedder drops entries whose meeting is gone.
CREATE TABLE meaning_dirty (
    meeting INTEGER PRIMARY KEY,
    version INTEGER NOT NULL DEFAULT 0
) STRICT;
INSERT INTO meaning_dirty (meeting) SELECT seq FROM meetings;

CREATE TRIGGER meaning_dirty_meeting_ai AFTER INSERT ON meetings BEGIN
    INSERT INTO meaning_dirty (meeting) VALUES (new.seq)
    ON CONFLICT (meeting) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER meaning_dirty_segment_ai AFTER INSERT ON segments BEGIN
    INSERT INTO meaning_dirty (meeting) VALUES (new.meeting)
    ON CONFLICT (meeting) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER meaning_dirty_segment_ad AFTER DELETE ON segments BEGIN
    INSERT INTO meaning_dirty (meeting) VALUES (old.meeting)
    ON CONFLICT (meeting) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER meaning_dirty_segment_au AFTER UPDATE OF text, start_ms, end_ms ON segments BEGIN
    INSERT INTO meaning_dirty (meeting) VALUES (new.meeting)
    ON CONFLICT (meeting) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER meaning_dirty_note_ai AFTER INSERT ON notes BEGIN
    INSERT INTO meaning_dirty (meeting) VALUES (new.meeting)
    ON CONFLICT (meeting) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER meaning_dirty_note_ad AFTER DELETE ON notes BEGIN
    INSERT INTO meaning_dirty (meeting) VALUES (old.meeting)
    ON CONFLICT (meeting) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER meaning_dirty_note_au AFTER UPDATE OF content_md ON notes BEGIN
    INSERT INTO meaning_dirty (meeting) VALUES (new.meeting)
    ON CONFLICT (meeting) DO UPDATE SET version = version + 1;
END;
