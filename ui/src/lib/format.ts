// Words and numbers for people: app names, dates, durations, sizes, states, note kinds,
// who wrote notes and how their writing goes, who answered a question.
const APP_NAMES: Record<string, string> = {
  google_meet: 'Google Meet',
  zoom: 'Zoom',
  teams: 'Microsoft Teams',
  slack: 'Slack',
  discord: 'Discord',
  webex: 'Webex',
  skype: 'Skype',
  signal: 'Signal',
  element: 'Element',
  recorder: 'Recorder',
  import: 'Imported',
  agent: 'Agent',
};

export const KNOWN_APPS = Object.keys(APP_NAMES);

/** Meeting apps the service notices on this computer (a prompt from one of them without a url came from its desktop app). */
export const DESKTOP_APPS = ['zoom', 'teams', 'slack', 'discord', 'webex', 'skype', 'signal', 'element'];

/** Where a prompt's call is: "Zoom app" for a desktop app (no url), else the app's name. */
export function promptAppName(sourceApp: string, url: string | null | undefined): string {
  const name = appName(sourceApp);
  return !url && DESKTOP_APPS.includes(sourceApp) ? `${name} app` : name;
}

/** The app's name for people: known ids by name, others capitalised word by word. */
export function appName(sourceApp: string): string {
  const known = APP_NAMES[sourceApp];
  if (known) return known;
  return sourceApp
    .split(/[_-]+/)
    .filter((word) => word.length > 0)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

export function formatDateTime(ms: number | null | undefined): string {
  return ms == null ? '' : dateTime.format(new Date(ms));
}
export function formatDate(ms: number): string {
  return dateOnly.format(new Date(ms));
}
export function formatTime(ms: number): string {
  return timeOnly.format(new Date(ms));
}

const hours = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'hour', unitDisplay: 'short' });
const minutes = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'minute', unitDisplay: 'short' });
const seconds = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'second', unitDisplay: 'short' });

/** "1 hr 5 min", "12 min", "40 sec". */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.round(ms / 1000));
  if (totalSeconds < 60) return seconds.format(totalSeconds);
  const totalMinutes = Math.round(totalSeconds / 60);
  const h = Math.floor(totalMinutes / 60);
  const m = totalMinutes % 60;
  if (h === 0) return minutes.format(m);
  return m === 0 ? hours.format(h) : `${hours.format(h)} ${minutes.format(m)}`;
}

function pad(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** mm:ss, or h:mm:ss past an hour. */
export function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(undefined, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

export function formatNumber(n: number): string {
  return new Intl.NumberFormat().format(n);
}

export const STATUS_LABELS: Record<string, string> = {
  recording: 'Recording',
  transcribing: 'Transcribing',
  summarising: 'Writing notes',
  ready: 'Ready',
};
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

export const NOTE_KINDS: Record<string, string> = {
  summary: 'Summary',
  action_items: 'Action items',
  decisions: 'Decisions',
  key_points: 'Key points',
  custom: 'Custom',
};
export function noteKindLabel(kind: string): string {
  if (kind === 'mine') return 'My notes';
  return NOTE_KINDS[kind] ?? kind;
}

const WRITTEN_BY: Record<string, string> = {
  person: 'Written by you',
  embedded: 'Written on this computer by the notes model',
  builtin: 'Written by the built-in engine (no language model: topics, decisions and tasks taken from the transcript)',
  local: 'Written by your local model server',
  anthropic: 'Written by Anthropic',
  openai_compatible: 'Written by an OpenAI-compatible service',
};
/** Which engine wrote a note, for people; '' when it is not known (older notes). */
export function writtenByLabel(writtenBy: string | null | undefined): string {
  if (!writtenBy) return '';
  return WRITTEN_BY[writtenBy] ?? `Written by ${writtenBy}`;
}

/** The notice of a note the built-in engine wrote because the chosen one could not. */
export function fallbackNotice(fallback: string): string {
  const reason = fallback.charAt(0).toUpperCase() + fallback.slice(1);
  return `The built-in engine wrote these notes instead of the chosen one. ${reason.replace(/\.?$/, '.')}`;
}

const ANSWERED_BY: Record<string, string> = {
  builtin: 'Answered by the built-in engine (the lines themselves, no language model)',
  embedded: 'Answered by your local model, on this computer',
  local: 'Answered by your local model server',
  anthropic: 'Answered by Anthropic',
  openai_compatible: 'Answered by an OpenAI-compatible service',
};
/** Who answered a question (`provider` of POST /ui/ask), for people. */
export function answeredByLabel(provider: string): string {
  return ANSWERED_BY[provider] ?? `Answered by ${provider}`;
}

/** The notice of an answer the built-in engine gave because the chosen one could not. */
export function askFallbackNotice(fallback: string): string {
  const reason = fallback.charAt(0).toUpperCase() + fallback.slice(1);
  return `The built-in engine answered instead of the chosen one. ${reason.replace(/\.?$/, '.')}`;
}

/** Why some meetings were searched by their words alone: they are not indexed for meaning yet. */
export function byWordsOnlyNotice(count: number): string {
  const meetings = count === 1 ? '1 meeting is' : `${count} meetings are`;
  return `${meetings} not indexed for meaning yet and ${count === 1 ? 'was' : 'were'} searched by words.`;
}

const NOTES_STAGES: Record<string, string> = {
  started: 'Notes: starting…',
  generating: 'Notes: writing…',
  saving: 'Notes: saving…',
  waiting: 'Waiting for the recording to end',
  done: 'Notes are ready.',
  failed: 'Notes could not be written.',
  canceled: 'Notes: canceled.',
};
/** How the writing of notes goes, from a `notes.progress` event. */
export function notesStageText(p: { stage: string; provider: string | null; percent: number | null }): string {
  if (p.stage === 'generating' && p.provider === 'embedded') {
    return p.percent !== null ? `Writing notes on this computer… ${p.percent}%` : 'Writing notes on this computer…';
  }
  return NOTES_STAGES[p.stage] ?? `Notes: ${p.stage}`;
}

/** "1 minute", "10 minutes". */
export function minutesText(n: number): string {
  return n === 1 ? '1 minute' : `${n} minutes`;
}

/**
 * Why a recording stopped by itself, for people; null when a person (or a
 * program) stopped it. `silenceMin` is recording.stop_after_silence_min.
 */
export function stopReasonText(reason: string | null | undefined, silenceMin: number | null): string | null {
  if (reason === 'call_ended') return 'Recording stopped: the call ended';
  if (reason === 'silence') {
    return silenceMin && silenceMin > 0
      ? `Recording stopped: nothing was heard for ${minutesText(silenceMin)}`
      : 'Recording stopped: nothing was heard for a while';
  }
  if (reason === 'error') return 'Recording stopped: it could not go on';
  return null;
}

/** Percentage of a dBFS peak on a −60..0 dB scale. */
export function levelPercent(db: number): number {
  if (!Number.isFinite(db) || db <= -60) return 0;
  if (db >= 0) return 100;
  return Math.round(((db + 60) / 60) * 100);
}
