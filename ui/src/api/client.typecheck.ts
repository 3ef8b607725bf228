// Compile-time checks of the typed client (never imported, never run): `npm run
// check` fails if a wrong path, method, params or body stops being an error,
// or if a reply stops having the type its route gives.
import { api, href } from './client';
import type { Meeting } from './types';

export async function typedCalls(): Promise<void> {
  const m: Meeting = await api.get('/ui/meetings/{id}', { params: { id: 'x' } });
  const list = await api.get('/ui/meetings', { query: { limit: 50, offset: 0 } });
  const l2 = await api.get('/ui/meetings');
  const h = await api.get('/ui/health');
  const stop = await api.post('/ui/recording/stop');
  const p = await api.patch('/ui/meetings/{id}', { params: { id: 'x' }, body: { starred: true } });
  const d = await api.delete('/ui/meetings/{id}', { params: { id: 'x' } });
  const mk = await api.post('/ui/recording/marker', { body: {} });
  const mk2 = await api.post('/ui/recording/marker');
  const tpl = await api.get('/ui/templates');
  const eff = await api.get('/ui/settings/effective');
  const logs = await api.text('/ui/logs', { query: { lines: 500 } });
  const ex = await api.post('/ui/meetings/{id}/export', { params: { id: 'x' }, body: {} });
  const notes = await api.post('/ui/meetings/{id}/notes', { params: { id: 'x' }, body: { kind: 'summary' } });
  const s = await api.get('/ui/search/meetings', { query: { q: 'a', limit: 10 } });
  const ai = await api.get('/ui/ai/keys');
  // @ts-expect-error missing params
  await api.get('/ui/meetings/{id}');
  // @ts-expect-error wrong body
  await api.patch('/ui/meetings/{id}', { params: { id: 'x' }, body: { starred: 'yes' } });
  // @ts-expect-error no such path
  await api.get('/ui/nope');
  // @ts-expect-error wrong method
  await api.post('/ui/health');
  // @ts-expect-error body required
  await api.post('/ui/recording/pause');
  // @ts-expect-error bad kind
  await api.post('/ui/meetings/{id}/notes', { params: { id: 'x' }, body: { kind: 'nope' } });
  const u = href('/ui/events');
  const u2 = href('/ui/meetings/{id}/audio/{channel}', { params: { id: 'a', channel: 'mic' } });
  // @ts-expect-error missing channel
  href('/ui/meetings/{id}/audio/{channel}', { params: { id: 'a' } });
  const checks: [string, number, string | null | undefined, boolean, undefined, string, string, unknown][] = [
    [m.title, list.total, h.version, p.starred, d, tpl.templates[0].name, logs, eff.general],
  ];
  console.log(checks, l2.meetings, stop.meeting_id, mk.at_ms, mk2.label, ex.path, notes.status, s.meetings, ai.keys[0].provider, u, u2);
}
