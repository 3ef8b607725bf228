-- 0011: the search indexes' segments are merged by the service's upkeep
-- (store/src/index_upkeep.rs), a short step at a time after writes, and no
-- longer by FTS5's automatic merge inside whichever write fills a level: that
-- merge ran in the commit of a corrected line and made about one in fifty
-- take 40–70 ms instead of 3. A level that reaches 16 segments (FTS5's
-- crisismerge) is still merged by the write that fills it, should the upkeep
-- not run (a command-line tool holding the database) or fall behind.
INSERT INTO segment_words (segment_words, rank) VALUES ('automerge', 0);
INSERT INTO meeting_words (meeting_words, rank) VALUES ('automerge', 0);
INSERT INTO meeting_phrases (meeting_phrases, rank) VALUES ('automerge', 0);
