// The official A2A JavaScript SDK (@a2a-js/sdk 1.x) as a client of
// recorder-gateway. tests/gateway/test_a2a_js.py runs it and reads the JSON it
// prints.
//
//   node client.mjs URL TOKEN basic
//   node client.mjs URL TOKEN cancel MEETING_ID
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { Role } from '@a2a-js/sdk';

const [url, token, scenario, meetingId] = process.argv.slice(2);

/** fetch with the gateway's bearer token. */
const authFetch = (input, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${token}`);
  return fetch(input, { ...init, headers });
};

const factory = new ClientFactory(
  ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: authFetch }),
  }),
);

let counter = 0;
const part = (content) => ({ content, metadata: undefined, filename: '', mediaType: '' });
const message = (parts) => ({
  messageId: `js-${process.pid}-${(counter += 1)}`,
  contextId: '',
  taskId: '',
  role: Role.ROLE_USER,
  parts,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const text = (value) => message([part({ $case: 'text', value })]);
const skill = (name, args) => message([part({ $case: 'data', value: { skill: name, args } })]);

/** A StreamResponse as `{kind, state, id, parts}` for the test to read. */
function summarise(event) {
  const { $case, value } = event.payload ?? {};
  const status = value?.status ?? {};
  return {
    kind: $case,
    id: value?.id ?? value?.taskId,
    state: status.state,
    said: status.message?.parts?.map((p) => p.content?.value) ?? [],
    parts: value?.artifact?.parts?.map((p) => p.content) ?? [],
  };
}

async function errorName(promise) {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return error?.constructor?.name ?? String(error);
  }
}

async function basic() {
  const out = {};
  const client = await factory.createFromUrl(url);
  const task = await client.sendMessage({ message: text('what are my open action items?') });
  out.send = { id: task.id, state: task.status?.state, artifacts: task.artifacts?.map((a) => a.parts.map((p) => p.content)) };
  const got = await client.getTask({ id: task.id, historyLength: 5 });
  out.get = { id: got.id, state: got.status?.state, history: got.history?.length };
  out.cancelFinished = await errorName(client.cancelTask({ id: task.id }));
  out.stream = [];
  for await (const event of client.sendMessageStream({ message: skill('list_meetings', { limit: 2 }) })) {
    out.stream.push(summarise(event));
  }
  out.subscribeFinished = await errorName((async () => {
    for await (const _ of client.resubscribeTask({ id: task.id })) { /* nothing expected */ }
  })());
  return out;
}

async function cancel() {
  const out = { events: [] };
  const client = await factory.createFromUrl(url);
  let canceled = false;
  for await (const event of client.sendMessageStream({ message: skill('regenerate_notes', { meeting_id: meetingId }) })) {
    const seen = summarise(event);
    out.events.push(seen);
    if (!canceled && seen.state === 2 /* TASK_STATE_WORKING */) {
      canceled = true;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const task = await client.cancelTask({ id: seen.id });
      out.cancel = { id: task.id, state: task.status?.state };
    }
  }
  return out;
}

const run = scenario === 'basic' ? basic : cancel;
run().then(
  (out) => console.log(JSON.stringify(out, (_, v) => (typeof v === 'bigint' ? Number(v) : v))),
  (error) => {
    console.error(error?.stack ?? error);
    process.exit(1);
  },
);
