-- 0005: search that scales to ten years of meetings (issue 20).
--
-- One document per meeting (title, transcript, notes) in two contentless FTS5
-- tables, so listing the meetings that match a word reads one entry per
-- meeting instead of one per matching transcript line:
--   meeting_words   no positions (detail=column), prefix indexes of 1-3
--                   letters: words and prefixes, per column;
--   meeting_phrases positions, for "quoted phrases"; the transcript's lines are
--                   joined with U+E000 (a character user text never reaches
--                   FTS5 with) so that a phrase never spans two lines.
-- segment_words replaces segments_fts: the same index of transcript lines plus
-- prefix indexes of 1-3 letters, so `b*` and `bud*` stop early like a word.
--
-- Existing meetings enter these indexes in the background
-- (`search_backlog`, a few meetings per write transaction; resumable), and
-- until the backlog is empty the old indexes answer. Then segments_fts and its
-- triggers are dropped. The store rebuilds the documents of the meetings listed
-- in `search_dirty` at the end of every write transaction.

CREATE VIRTUAL TABLE meeting_words USING fts5 (title, transcript, notes, content = '', contentless_delete = 1, detail = column, prefix = '1 2 3', tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE meeting_phrases USING fts5 (title, transcript, notes, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE segment_words USING fts5 (text, content = 'segments', content_rowid = 'seq', prefix = '1 2 3', columnsize = 0, tokenize = 'unicode61 remove_diacritics 2');

-- notes_fts again, with the same prefix indexes (a meeting's notes are looked
-- up one by one for grouped results; without them `b*` would merge the lists
-- of every word in every note each time). Notes are small: rebuilt here.
DROP TRIGGER notes_ai;
DROP TRIGGER notes_ad;
DROP TRIGGER notes_au;
DROP TABLE notes_fts;
CREATE VIRTUAL TABLE notes_fts USING fts5 (content_md, content = 'notes', content_rowid = 'seq', prefix = '1 2 3', tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO notes_fts (notes_fts) VALUES ('rebuild');
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

-- Meetings not yet in the new indexes. No foreign key: a deleted meeting's
-- entry must outlive the cascade of its segments (the triggers below read it),
-- and the backfill drops entries whose meeting is gone.
CREATE TABLE search_backlog (meeting INTEGER PRIMARY KEY) STRICT;
INSERT INTO search_backlog (meeting) SELECT seq FROM meetings;

-- Meetings whose documents changed in the open write transaction.
CREATE TABLE search_dirty (meeting INTEGER PRIMARY KEY) STRICT;

CREATE TRIGGER segment_words_ai AFTER INSERT ON segments
WHEN NOT EXISTS (SELECT 1 FROM search_backlog WHERE meeting = new.meeting) BEGIN
    INSERT INTO segment_words (rowid, text) VALUES (new.seq, new.text);
END;
CREATE TRIGGER segment_words_ad AFTER DELETE ON segments
WHEN NOT EXISTS (SELECT 1 FROM search_backlog WHERE meeting = old.meeting) BEGIN
    INSERT INTO segment_words (segment_words, rowid, text) VALUES ('delete', old.seq, old.text);
END;
CREATE TRIGGER segment_words_au AFTER UPDATE OF text ON segments
WHEN NOT EXISTS (SELECT 1 FROM search_backlog WHERE meeting = new.meeting) BEGIN
    INSERT INTO segment_words (segment_words, rowid, text) VALUES ('delete', old.seq, old.text);
    INSERT INTO segment_words (rowid, text) VALUES (new.seq, new.text);
END;

CREATE TRIGGER search_dirty_segment_ai AFTER INSERT ON segments BEGIN
    INSERT OR IGNORE INTO search_dirty (meeting) VALUES (new.meeting);
END;
CREATE TRIGGER search_dirty_segment_ad AFTER DELETE ON segments BEGIN
    INSERT OR IGNORE INTO search_dirty (meeting) VALUES (old.meeting);
END;
CREATE TRIGGER search_dirty_segment_au AFTER UPDATE OF text, start_ms ON segments BEGIN
    INSERT OR IGNORE INTO search_dirty (meeting) VALUES (new.meeting);
END;
CREATE TRIGGER search_dirty_note_ai AFTER INSERT ON notes BEGIN
    INSERT OR IGNORE INTO search_dirty (meeting) VALUES (new.meeting);
END;
CREATE TRIGGER search_dirty_note_ad AFTER DELETE ON notes BEGIN
    INSERT OR IGNORE INTO search_dirty (meeting) VALUES (old.meeting);
END;
CREATE TRIGGER search_dirty_note_au AFTER UPDATE OF content_md ON notes BEGIN
    INSERT OR IGNORE INTO search_dirty (meeting) VALUES (new.meeting);
END;
CREATE TRIGGER search_dirty_meeting_ai AFTER INSERT ON meetings BEGIN
    INSERT OR IGNORE INTO search_dirty (meeting) VALUES (new.seq);
END;
CREATE TRIGGER search_dirty_meeting_ad AFTER DELETE ON meetings BEGIN
    INSERT OR IGNORE INTO search_dirty (meeting) VALUES (old.seq);
END;
CREATE TRIGGER search_dirty_meeting_au AFTER UPDATE OF title ON meetings BEGIN
    INSERT OR IGNORE INTO search_dirty (meeting) VALUES (new.seq);
END;

-- The meeting list by date within a time filter reads this index only.
CREATE INDEX meetings_started_seq ON meetings (started_at DESC, seq DESC);

-- The words of meeting_words, to turn a long prefix into the words it stands for.
CREATE VIRTUAL TABLE meeting_vocab USING fts5vocab (meeting_words, 'row');
