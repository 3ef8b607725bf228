/**
 * A real `recorder serve` on an ephemeral port with its own temporary data
 * folder: the same shape as crates/test-support (TestService), for the browser.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { seedMeetings, type SeedMeeting } from './meetings';
import { EMBEDDING_MODEL, RECORDER_BIN, TEST_MODEL, XTASK_BIN } from './paths';

const run = promisify(execFile);

export interface ServiceOptions {
  /** `xtask seed` before the first start. */
  seed?: { meetings: number; segments: number; seed?: number };
  /** Meetings with chosen lines, written before the first start (helpers/meetings.ts); ids in `seeded`. */
  meetings?: SeedMeeting[];
  /** `recorder models add-embeddings` of the test embedding model before the first start (search by meaning, ask). */
  embeddings?: boolean;
  /** settings.json written before the first start (CONTRACT §1 shape). */
  settings?: Record<string, unknown>;
  /** Contents of the policy file (RECORDER_POLICY_PATH). */
  policy?: Record<string, unknown>;
  /** RECORDER_POLICY_REFRESH_SECS */
  policyRefreshSecs?: number;
  /** RECORDER_MODEL_PATH = the tiny.en test model. */
  model?: boolean;
  /** File-driven capture: `--mic-file --sys-file --audio-speed`. */
  audio?: { mic: string; sys: string; speed?: number };
  /** More environment for the service. */
  env?: Record<string, string>;
  /** Leave the data folder without settings.json, as on a first run (the
   * service then writes its defaults and shows the first-run guide). Without
   * it an empty settings.json is written, so tests see the app without the guide. */
  firstRun?: boolean;
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  text: string;
}

type TokenKind = 'api' | 'ui' | 'none';

function withoutDataDir(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.RECORDER_DATA_DIR;
  return env;
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export class Service {
  readonly folder: string;
  readonly dataDir: string;
  readonly policyPath: string;
  readonly logPath: string;
  port = 0;
  /** The ids of `options.meetings`, in order. */
  seeded: string[] = [];
  apiToken = '';
  uiToken = '';
  private child: ChildProcess | null = null;

  private constructor(private readonly options: ServiceOptions) {
    this.folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-'));
    this.dataDir = path.join(this.folder, 'data');
    this.policyPath = path.join(this.folder, 'policies.json');
    this.logPath = path.join(this.folder, 'service.log');
    fs.mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
  }

  /** Seeds (if asked), writes settings and policy, starts the service and waits for its address. */
  static async start(options: ServiceOptions = {}): Promise<Service> {
    const service = new Service(options);
    if (options.seed) {
      const { meetings, segments, seed } = options.seed;
      execFileSync(
        XTASK_BIN,
        [
          'seed', '--data-dir', service.dataDir,
          '--meetings', String(meetings), '--segments', String(segments),
          ...(seed !== undefined ? ['--seed', String(seed)] : []),
        ],
        { stdio: 'pipe' },
      );
    }
    if (options.meetings) service.seeded = seedMeetings(service.dataDir, options.meetings);
    if (options.embeddings) {
      await run(RECORDER_BIN, ['--data-dir', service.dataDir, 'models', 'add-embeddings', EMBEDDING_MODEL], {
        env: withoutDataDir(),
      });
    }
    if (!options.firstRun) {
      fs.writeFileSync(path.join(service.dataDir, 'settings.json'), JSON.stringify(options.settings ?? {}));
    }
    if (options.policy) service.writePolicy(options.policy);
    await service.launch();
    return service;
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  url(p: string): string {
    return this.base + p;
  }

  /** Replaces the policy file atomically (the service rereads it every RECORDER_POLICY_REFRESH_SECS). */
  writePolicy(policy: Record<string, unknown>): void {
    const temporary = this.policyPath + '.tmp';
    fs.writeFileSync(temporary, JSON.stringify(policy));
    fs.renameSync(temporary, this.policyPath);
  }

  /** Kills the service as a crash would, keeping its data folder and port for `restart`. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    }
  }

  /** Starts a killed service again on the same port and data folder. */
  async restart(): Promise<void> {
    await this.launch(this.port);
  }

  private async launch(port = 0): Promise<void> {
    const o = this.options;
    const env = withoutDataDir();
    delete env.RECORDER_MODEL_PATH;
    env.RECORDER_POLICY_PATH = this.policyPath;
    env.RECORDER_CREDENTIAL_STORE = 'file';
    env.RECORDER_LOG = 'info';
    if (o.policyRefreshSecs !== undefined) env.RECORDER_POLICY_REFRESH_SECS = String(o.policyRefreshSecs);
    if (o.model) env.RECORDER_MODEL_PATH = TEST_MODEL;
    Object.assign(env, o.env ?? {});
    const args = ['serve', '--port', String(port), '--data-dir', this.dataDir];
    if (o.audio) {
      args.push('--mic-file', o.audio.mic, '--sys-file', o.audio.sys, '--audio-speed', String(o.audio.speed ?? 1));
    }
    const log = fs.openSync(this.logPath, 'a');
    const child = spawn(RECORDER_BIN, args, { env, stdio: ['ignore', 'pipe', log] });
    fs.closeSync(log);
    live.add(child);
    child.on('exit', () => live.delete(child));
    this.child = child;

    const lines = readline.createInterface({ input: child.stdout! });
    this.port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address from the service within 30 s; log: ${this.logTail()}`)), 30_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the service exited (${code}) before listening; log: ${this.logTail()}`));
      });
      lines.once('line', (line) => {
        clearTimeout(timer);
        const port = Number(/:(\d+)\s*$/.exec(line)?.[1]);
        if (port > 0) resolve(port);
        else reject(new Error(`unexpected first line: ${line}`));
      });
    });
    // Keep draining stdout so the service never blocks on a full pipe.
    lines.on('line', () => {});
    this.apiToken = fs.readFileSync(path.join(this.dataDir, 'api_token'), 'utf8').trim();
    this.uiToken = fs.readFileSync(path.join(this.dataDir, 'ui_token'), 'utf8').trim();
  }

  /** The last lines of the service's log (for failure messages). */
  logTail(lines = 40): string {
    try {
      return fs.readFileSync(this.logPath, 'utf8').trim().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  /**
   * A one-time login URL, minted exactly as a person does: `recorder open
   * [LINK] --print` (LINK such as `recorder://pair`; default the library).
   */
  async loginUrl(link?: string): Promise<string> {
    const open = ['open', ...(link ? [link] : []), '--print'];
    const { stdout } = await run(RECORDER_BIN, ['--data-dir', this.dataDir, '--port', String(this.port), ...open], {
      env: withoutDataDir(),
    });
    const url = stdout.trim().split('\n').find((line) => line.startsWith('http'));
    if (!url) throw new Error(`recorder open --print printed no URL: ${stdout}`);
    return url.trim();
  }

  /** Opens a login URL in `page` (sets the HttpOnly session cookie; redirects to `/`). */
  async signIn(page: Page): Promise<void> {
    await page.goto(await this.loginUrl());
    await page.waitForURL(this.url('/'));
  }

  /** Calls the service from the test itself: `api` → api_token (/v1), `ui` → ui_token (/ui). */
  async call<T = unknown>(method: string, p: string, options: { token?: TokenKind; body?: unknown } = {}): Promise<Answer<T>> {
    const token = options.token ?? (p.startsWith('/ui/') ? 'ui' : 'api');
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token === 'api') headers.Authorization = `Bearer ${this.apiToken}`;
    if (token === 'ui') headers.Authorization = `Bearer ${this.uiToken}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(this.url(p), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: 'manual',
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: response.status, body: body as T, text };
  }

  /** GET that must answer 200. */
  async get<T = unknown>(p: string): Promise<T> {
    const answer = await this.call<T>('GET', p);
    if (answer.status !== 200) throw new Error(`GET ${p} → ${answer.status}: ${answer.text}`);
    return answer.body;
  }

  /** Polls GET /ui/meetings/:id until `status` (or throws after `ms`). */
  async waitForStatus(id: string, status: string, ms = 120_000): Promise<Meeting> {
    const deadline = Date.now() + ms;
    let last: Meeting | null = null;
    while (Date.now() < deadline) {
      last = await this.get<Meeting>(`/ui/meetings/${encodeURIComponent(id)}`);
      if (last.status === status) return last;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`meeting ${id} did not reach ${status} within ${ms} ms (last: ${JSON.stringify(last)})`);
  }

  /** Kills the service (SIGKILL, as the Rust harness) and removes its folder. */
  async stop(): Promise<void> {
    await this.kill();
    if (!process.env.E2E_KEEP_DATA) fs.rmSync(this.folder, { recursive: true, force: true });
  }
}

export interface ActionItem {
  id: string;
  text: string;
  owner: string;
  done: boolean;
}

export interface Meeting {
  id: string;
  title: string;
  source_app: string;
  started_at: number;
  status: string;
  attendees: { name: string }[];
  tags: string[];
  notes?: { id: string; kind: string; content_md: string; written_by?: string | null; fallback?: string | null }[];
  action_items?: ActionItem[];
  markers?: { id: string; at_ms: number; label: string }[];
  processing_error: string | null;
}

export interface MeetingList {
  meetings: Meeting[];
  total: number;
  limit: number;
  offset: number;
}

export interface Segment {
  speaker: string;
  channel: string;
  start_ms: number;
  end_ms: number;
  text: string;
}
