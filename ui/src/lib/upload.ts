// Importing a file of this computer: the upload with its progress, and the words for its failures.
import { errorFrom, ApiError } from '../api/client';
import { href, type Reply } from '../api/path';
import { session } from './session.svelte';

const IMPORT_WORDS: Record<string, string> = {
  file_too_large: 'This file is too large to import (the limit is 4 GB).',
  payload_too_large: 'This file is too large to import (the limit is 4 GB).',
  unsupported_audio_format:
    'This file is not a known audio format. Use WAV, MP3, M4A, AAC, FLAC, OGG, Opus, WebM, AIFF, CAF, WMA or AMR.',
  converter_missing: 'This format needs ffmpeg to be converted, and ffmpeg is not installed. Install ffmpeg or import a WAV file.',
  model_unavailable: 'No transcription model is installed — install one in Settings → Transcription.',
};

type Imported = Reply<'/ui/imports', 'post'>;

/** POST /ui/imports with the file as the body; progress as a fraction 0..1. */
export function importFile(file: File, onProgress: (fraction: number) => void): Promise<Imported> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', href('/ui/imports'));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('X-File-Name', encodeURIComponent(file.name));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', async () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          const meeting: Imported = JSON.parse(xhr.responseText);
          resolve(meeting);
        } catch {
          reject(new ApiError(xhr.status, 'bad_reply', 'The service accepted the file but its reply could not be read.'));
        }
        return;
      }
      if (xhr.status === 401) session.signOut();
      const error = await errorFrom(
        new Response(xhr.responseText || null, { status: xhr.status, headers: { 'Content-Type': 'application/json' } }),
      );
      const words = IMPORT_WORDS[error.code];
      reject(words ? new ApiError(error.status, error.code, words) : error);
    });
    xhr.addEventListener('error', () =>
      reject(new ApiError(0, 'offline', 'The upload failed: cannot reach the recorder service.')),
    );
    xhr.addEventListener('abort', () => reject(new ApiError(0, 'aborted', 'The import was cancelled.')));
    xhr.send(file);
  });
}
