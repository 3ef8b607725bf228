-- 0001: the first schema. Never edit a migration once it has landed; add a new one.

CREATE TABLE meetings (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL CHECK (length(title) > 0),
    source_app TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    duration_ms INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('recording', 'transcribing', 'summarising', 'ready')),
    language TEXT,
    starred INTEGER NOT NULL DEFAULT 0 CHECK (starred IN (0, 1)),
    processing_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX meetings_started_at ON meetings (started_at DESC);

CREATE TABLE attendees (
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (meeting, position)
) STRICT;

CREATE TABLE tags (
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (meeting, tag)
) STRICT;

CREATE TABLE notes (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    template_id TEXT,
    content_md TEXT NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX notes_meeting ON notes (meeting);

CREATE TABLE action_items (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    text TEXT NOT NULL,
    owner TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1))
) STRICT;
CREATE INDEX action_items_meeting ON action_items (meeting);

CREATE TABLE markers (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    at_ms INTEGER NOT NULL,
    label TEXT NOT NULL
) STRICT;
CREATE INDEX markers_meeting ON markers (meeting, at_ms);

CREATE TABLE segments (
    seq INTEGER PRIMARY KEY,
    meeting INTEGER NOT NULL REFERENCES meetings (seq) ON DELETE CASCADE,
    channel TEXT NOT NULL CHECK (channel IN ('mic', 'sys')),
    start_ms INTEGER NOT NULL,
    end_ms INTEGER NOT NULL,
    text TEXT NOT NULL
) STRICT;
CREATE INDEX segments_meeting ON segments (meeting, start_ms);

-- Full-text indexes over external content; the triggers below keep them in step
-- with their tables inside the same transaction as every write.
CREATE VIRTUAL TABLE segments_fts USING fts5 (text, content = 'segments', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE notes_fts USING fts5 (content_md, content = 'notes', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE titles_fts USING fts5 (title, content = 'meetings', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2');

CREATE TRIGGER segments_ai AFTER INSERT ON segments BEGIN
    INSERT INTO segments_fts (rowid, text) VALUES (new.seq, new.text);
END;
CREATE TRIGGER segments_ad AFTER DELETE ON segments BEGIN
    INSERT INTO segments_fts (segments_fts, rowid, text) VALUES ('delete', old.seq, old.text);
END;
CREATE TRIGGER segments_au AFTER UPDATE OF text ON segments BEGIN
    INSERT INTO segments_fts (segments_fts, rowid, text) VALUES ('delete', old.seq, old.text);
    INSERT INTO segments_fts (rowid, text) VALUES (new.seq, new.text);
END;
CREATE TRIGGER notes_ai AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts (rowid, content_md) VALUES (new.seq, new.content_md);
END;
CREATE TRIGGER notes_ad AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, content_md) VALUES ('delete', old.seq, old.content_md);
END;
CREATE TRIGGER notes_au AFTER UPDATE OF content_md ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, content_md) VALUES ('delete', old.seq, old.content_md);
    INSERT INTO notes_fts (rowid, content_md) VALUES (new.seq, new.content_md);
END;
CREATE TRIGGER titles_ai AFTER INSERT ON meetings BEGIN
    INSERT INTO titles_fts (rowid, title) VALUES (new.seq, new.title);
END;
CREATE TRIGGER titles_ad AFTER DELETE ON meetings BEGIN
    INSERT INTO titles_fts (titles_fts, rowid, title) VALUES ('delete', old.seq, old.title);
END;
CREATE TRIGGER titles_au AFTER UPDATE OF title ON meetings BEGIN
    INSERT INTO titles_fts (titles_fts, rowid, title) VALUES ('delete', old.seq, old.title);
    INSERT INTO titles_fts (rowid, title) VALUES (new.seq, new.title);
END;

CREATE TABLE prompts (
    id TEXT PRIMARY KEY,
    source_app TEXT NOT NULL,
    title TEXT,
    url TEXT,
    attendees_json TEXT NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'answered', 'expired')),
    answer TEXT,
    meeting_id TEXT
) STRICT;
CREATE INDEX prompts_pending ON prompts (state, expires_at);

CREATE TABLE pairings (
    id TEXT PRIMARY KEY,
    token_hash BLOB NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at INTEGER
) STRICT;

CREATE TABLE ledger (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    at INTEGER NOT NULL,
    method TEXT NOT NULL,
    url TEXT NOT NULL,
    host TEXT NOT NULL,
    purpose TEXT NOT NULL,
    status INTEGER,
    bytes_sent INTEGER NOT NULL,
    bytes_received INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'blocked'))
) STRICT;
