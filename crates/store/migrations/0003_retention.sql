-- Retention: when the sweeper removed a meeting's audio files (the meeting and
-- its transcript stay until 'Delete meetings after' applies).
ALTER TABLE meetings ADD COLUMN audio_removed_at INTEGER;
CREATE INDEX meetings_retention_age ON meetings (coalesce(ended_at, started_at));
