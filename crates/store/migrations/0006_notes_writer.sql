-- 0006: which engine wrote each note (issue 32): `builtin`, `embedded` (the
-- notes model inside), `local`, `anthropic` or `openai_compatible`, and why
-- the chosen one did not, when the built-in engine wrote instead. Notes
-- written before this have neither.
ALTER TABLE notes ADD COLUMN written_by TEXT;
ALTER TABLE notes ADD COLUMN fallback TEXT;
