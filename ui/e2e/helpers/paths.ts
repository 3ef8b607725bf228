import path from 'node:path';

/** The repository root (ui/e2e/helpers → ../../..). */
export const REPO = path.resolve(__dirname, '..', '..', '..');

/** The service binary under test (env RECORDER_BIN overrides). */
export const RECORDER_BIN = process.env.RECORDER_BIN ?? path.join(REPO, 'target', 'debug', 'recorder');

/** The seeding tool (env XTASK_BIN overrides). */
export const XTASK_BIN = process.env.XTASK_BIN ?? path.join(REPO, 'target', 'debug', 'xtask');

/** The Whisper tiny.en test model that `scripts/test-model.sh` caches (as crates/test-support). */
export const TEST_MODEL =
  process.env.RECORDER_TEST_MODEL ?? path.join(REPO, 'target', 'test-models', 'ggml-tiny.en-q8_0.bin');

/** The SmolLM2-135M notes test model that `scripts/notes-model.sh` caches (as crates/test-support). */
export const NOTES_TEST_MODEL =
  process.env.RECORDER_TEST_NOTES_MODEL ?? path.join(REPO, 'target', 'test-models', 'smollm2-135m-instruct-q4_1.gguf');

/** The all-MiniLM-L6-v2 embedding model that `scripts/embedding-model.sh` caches (search by meaning, ask). */
export const EMBEDDING_MODEL =
  process.env.RECORDER_TEST_EMBEDDING_MODEL ?? path.join(REPO, 'target', 'test-models', 'all-minilm-l6-v2.zip');

/** Where the screenshot test writes its PNGs. */
export const SCREENSHOT_DIR = path.join(REPO, 'target', 'ui-screenshots');

/** The browser: Debian's Chromium (never a downloaded one). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
