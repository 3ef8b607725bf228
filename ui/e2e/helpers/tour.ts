/**
 * Every page state the app has, for the page-wide checks (network, axe,
 * screenshots). `open` brings the page into the state; `close` undoes what it
 * started (a prompt, a recording) so the next state starts clean.
 */
import type { Page } from '@playwright/test';
import { expect, settled } from './fixtures';
import type { MeetingList, Service } from './service';

export interface PageState {
  name: string;
  /** Needs a browser context without a session. */
  signedOut?: boolean;
  /** A very tall page: screenshot the viewport only. */
  tall?: boolean;
  open(page: Page, service: Service): Promise<void>;
  close?(page: Page, service: Service): Promise<void>;
}

export const SETTINGS_SECTIONS = [
  'general', 'recording', 'transcription', 'speakers', 'ai', 'export', 'retention', 'extension', 'license', 'diagnostics',
];

async function go(page: Page, service: Service, path: string): Promise<void> {
  await page.goto(service.url(path));
  await settled(page);
}

async function newestMeeting(service: Service): Promise<string> {
  return (await service.get<MeetingList>('/ui/meetings?limit=1')).meetings[0].id;
}

export function tour(options: { recording: boolean }): PageState[] {
  const states: PageState[] = [
    {
      name: 'signin',
      signedOut: true,
      async open(page, service) {
        await page.goto(service.url('/'));
        await expect(page.getByText(/recorder open/)).toBeVisible();
      },
    },
    {
      name: 'library',
      async open(page, service) {
        await go(page, service, '/');
        await expect(page.getByRole('region', { name: 'Meetings' }).getByRole('link').first()).toBeVisible();
      },
    },
    {
      name: 'library-search',
      async open(page, service) {
        await go(page, service, '/');
        await page.getByRole('searchbox', { name: 'Search meetings' }).fill('budget');
        await expect(page.getByRole('region', { name: 'Search results' }).locator('mark').first()).toBeVisible();
      },
    },
    {
      name: 'meeting',
      tall: true,
      async open(page, service) {
        await go(page, service, `/meetings/${await newestMeeting(service)}`);
        await expect(page.getByRole('button', { name: /^Play from/ }).first()).toBeVisible();
      },
    },
    {
      name: 'recording-idle',
      async open(page, service) {
        await go(page, service, '/recording');
        await expect(page.getByRole('button', { name: 'Start recording' })).toBeVisible();
      },
    },
  ];
  if (options.recording) {
    states.push({
      name: 'recording-active',
      async open(page, service) {
        const started = await service.call('POST', '/ui/recording/start', { body: { title: 'Weekly sync' } });
        expect(started.status, started.text).toBe(201);
        await go(page, service, '/recording');
        await expect(page.getByRole('button', { name: 'Stop recording' })).toBeVisible();
        // Let a few level updates and the first live line arrive.
        await expect(page.getByRole('log', { name: 'Live transcript' })).toContainText(/budget/i, { timeout: 30_000 });
      },
      async close(_page, service) {
        const stopped = await service.call('POST', '/ui/recording/stop');
        expect(stopped.status, stopped.text).toBe(200);
      },
    });
    states.push({
      name: 'recording-muted',
      async open(page, service) {
        const started = await service.call('POST', '/ui/recording/start', { body: { title: 'Weekly sync' } });
        expect(started.status, started.text).toBe(201);
        const muted = await service.call('POST', '/ui/recording/mute', { body: { muted: true } });
        expect(muted.status, muted.text).toBe(200);
        await go(page, service, '/recording');
        await expect(page.getByRole('button', { name: 'Unmute microphone' })).toBeVisible();
        await expect(page.getByRole('log', { name: 'Live transcript' })).toContainText(/march/i, { timeout: 30_000 });
      },
      async close(_page, service) {
        const stopped = await service.call('POST', '/ui/recording/stop');
        expect(stopped.status, stopped.text).toBe(200);
      },
    });
    states.push({
      name: 'countdown-card',
      async open(page, service) {
        // A call recorded from its prompt, then reported ended: the card counts down (long enough for the checks).
        const grace = await service.call('PATCH', '/ui/settings', { body: { recording: { stop_after_call_ends_s: 3600 } } });
        expect(grace.status, grace.text).toBe(200);
        const url = 'https://meet.google.com/tour-call-end';
        const asked = await service.call<{ prompt_id: string }>('POST', '/v1/recording/prompt', {
          body: { source_app: 'google_meet', title: 'Design review', url },
        });
        expect(asked.status, asked.text).toBe(200);
        const answered = await service.call('POST', `/ui/prompts/${asked.body.prompt_id}/answer`, { body: { answer: 'record' } });
        expect(answered.status, answered.text).toBe(200);
        const ended = await service.call<{ stopping: boolean }>('POST', '/v1/recording/ended', { body: { source_app: 'google_meet', url } });
        expect(ended.status, ended.text).toBe(200);
        expect(ended.body.stopping).toBe(true);
        await go(page, service, '/');
        await expect(page.getByRole('dialog', { name: 'The call ended' })).toBeVisible();
      },
      async close(page, service) {
        const stopped = await service.call('POST', '/ui/recording/stop');
        expect(stopped.status, stopped.text).toBe(200);
        await expect(page.getByRole('dialog', { name: 'The call ended' })).toHaveCount(0);
        const grace = await service.call('PATCH', '/ui/settings', { body: { recording: { stop_after_call_ends_s: 30 } } });
        expect(grace.status, grace.text).toBe(200);
      },
    });
    states.push({
      name: 'library-recording-bar',
      async open(page, service) {
        const started = await service.call('POST', '/ui/recording/start', { body: { title: 'Weekly sync' } });
        expect(started.status, started.text).toBe(201);
        await go(page, service, '/');
        await expect(page.getByRole('region', { name: 'Recording in progress' })).toBeVisible();
      },
      async close(_page, service) {
        const stopped = await service.call('POST', '/ui/recording/stop');
        expect(stopped.status, stopped.text).toBe(200);
      },
    });
  }
  for (const section of SETTINGS_SECTIONS) {
    states.push({
      name: `settings-${section}`,
      async open(page, service) {
        await go(page, service, `/settings/${section}`);
        await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
        await expect(page.getByText(/^Loading/)).toHaveCount(0);
      },
    });
  }
  states.push(
    {
      name: 'privacy',
      async open(page, service) {
        await go(page, service, '/privacy');
        await expect(page.getByText(/nothing has left/i)).toBeVisible();
      },
    },
    {
      name: 'record-card',
      async open(page, service) {
        await go(page, service, '/');
        const asked = await service.call('POST', '/v1/recording/prompt', {
          body: { source_app: 'zoom', title: 'Design review', attendees: [{ name: 'Lin' }, { name: 'Sam Okafor' }] },
        });
        expect(asked.status, asked.text).toBe(200);
        await expect(page.getByRole('dialog', { name: 'Record this meeting?' })).toBeVisible();
      },
      async close(page, service) {
        const prompts = (await service.get<{ prompts: { prompt_id: string }[] }>('/ui/prompts')).prompts;
        for (const p of prompts) await service.call('POST', `/ui/prompts/${p.prompt_id}/answer`, { body: { answer: 'decline' } });
        await expect(page.getByRole('dialog', { name: 'Record this meeting?' })).toHaveCount(0);
      },
    },
  );
  return states;
}
