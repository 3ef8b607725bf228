/** Speech fixtures, made as crates/test-support/src/speech.rs makes them (espeak-ng + sox). */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Speaks `text` into a 16 kHz mono 16-bit WAV with `before`/`after` seconds of silence. */
export function speakPadded(text: string, file: string, before: number, after: number): void {
  const raw = file.replace(/\.wav$/, '') + '.espeak.wav';
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', raw, text], { stdio: 'pipe' });
  execFileSync(
    'sox',
    [raw, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', file, 'pad', String(before), String(after)],
    { stdio: 'pipe' },
  );
  fs.rmSync(raw, { force: true });
}

/** The two sides of a call used by the service's own recording tests. */
export const MIC_LINE = 'I will send the quarterly budget report to the finance team by Friday.';
export const SYS_LINE = 'The marketing launch moves to the second week of March.';

/** mic.wav (the person speaks at 1 s) and sys.wav (the other side at 9 s) in `folder`. */
export function callFiles(folder: string): { mic: string; sys: string } {
  const mic = `${folder}/mic.wav`;
  const sys = `${folder}/sys.wav`;
  speakPadded(MIC_LINE, mic, 1, 12);
  speakPadded(SYS_LINE, sys, 9, 6);
  return { mic, sys };
}

/** Generated people (as PEOPLE in crates/test-support/src/speech.rs): a voice variant and a pitch. */
export const PEOPLE = [
  { voice: 'en-us+m7', pitch: 35 },
  { voice: 'en-gb+f3', pitch: 70 },
  { voice: 'en-us+m1', pitch: 55 },
  { voice: 'en-us+f1', pitch: 85 },
];

/**
 * The other side of a call: `turns` ([person, words]) one after another with
 * `gap` seconds of silence between them, into a 16 kHz mono 16-bit WAV.
 */
export function conversation(turns: [number, string][], file: string, gap = 0.7): void {
  const parts: string[] = [];
  turns.forEach(([person, words], index) => {
    const raw = `${file}.${index}.espeak.wav`;
    const part = `${file}.${index}.wav`;
    const { voice, pitch } = PEOPLE[person];
    execFileSync('espeak-ng', ['-v', voice, '-p', String(pitch), '-s', '160', '-w', raw, words], { stdio: 'pipe' });
    execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', part, 'pad', '0', String(gap)], {
      stdio: 'pipe',
    });
    fs.rmSync(raw, { force: true });
    parts.push(part);
  });
  execFileSync('sox', [...parts, file], { stdio: 'pipe' });
  for (const part of parts) fs.rmSync(part, { force: true });
}

/**
 * A room of real people (Debian's Asterisk prompts, `scripts/real-voices.sh`):
 * the owner, Allison, takes `turns` turns of two recordings each, Carlo one of
 * two between them, 0.7 s apart, into a 16 kHz mono WAV (as the service's
 * speakers tests make it).
 */
export function realRoom(models: string, file: string, turns: number): void {
  const clips = (speaker: string): string[] => {
    const dir = `${models}/voices/src/${speaker}`;
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.wav'))
      .sort()
      .map((f) => `${dir}/${f}`);
  };
  const allison = clips('allison');
  const carlo = clips('carlo');
  const parts: string[] = [];
  const add = (from: string[]): void => {
    const part = `${file}.${parts.length}.wav`;
    execFileSync('sox', [...from.splice(0, 2), part, 'pad', '0', '0.7'], { stdio: 'pipe' });
    parts.push(part);
  };
  for (let turn = 0; turn < turns; turn += 1) {
    add(allison);
    if (turn + 1 < turns) add(carlo);
  }
  execFileSync('sox', [...parts, file], { stdio: 'pipe' });
  for (const part of parts) fs.rmSync(part, { force: true });
}

/**
 * The owner reading aloud: the first `clips` recordings of Allison (a real
 * voice, `scripts/real-voices.sh`), 0.4 s apart, into a 16 kHz mono WAV.
 */
export function realReading(models: string, file: string, clips = 10): void {
  const dir = `${models}/voices/src/allison`;
  const parts = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.wav'))
    .sort()
    .slice(0, clips)
    .map((f, index) => {
      const part = `${file}.${index}.wav`;
      execFileSync('sox', [`${dir}/${f}`, '-r', '16000', '-c', '1', '-b', '16', part, 'pad', '0', '0.4'], {
        stdio: 'pipe',
      });
      return part;
    });
  execFileSync('sox', [...parts, file], { stdio: 'pipe' });
  for (const part of parts) fs.rmSync(part, { force: true });
}
