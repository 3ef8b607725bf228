// The routes of the person's channel (/ui) as types, read by the typed client
// (client.ts, path.ts). Where the service serves a /v1 operation again under
// /ui, its request and reply come straight from the generated document
// (schema.d.ts, `npm run gen:api`), so a changed schema reaches every call.
// The /ui-only routes the document does not list yet are written below from
// its schemas.
import type { components, paths } from './schema';

type S = components['schemas'];

/** One call as the client reads it: its JSON reply, and its body and query when it takes them. */
export interface Call {
  reply: unknown;
  body?: unknown;
  query?: unknown;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

// ---- from the generated document ---------------------------------------------

type Success = 200 | 201 | 202 | 204;

/** What one response carries: JSON, plain text, or nothing (204). */
type Content<R> = R extends { content: { 'application/json': infer T } }
  ? T
  : R extends { content: { 'text/plain': infer T } }
    ? T
    : undefined;

/** The successful replies of an operation, as one type. */
type ReplyOf<Op> = Op extends { responses: infer Rs }
  ? { [K in keyof Rs & Success]: Content<Rs[K]> }[keyof Rs & Success]
  : never;

/** Whether property K of T may be left out. */
type Optional<T, K extends keyof T> = object extends Pick<T, K> ? true : false;

/** The JSON body of an operation: required, optional or none. */
type BodyOf<Op> = 'requestBody' extends keyof Op
  ? NonNullable<Op['requestBody']> extends { content: { 'application/json': infer T } }
    ? Optional<Op, 'requestBody'> extends true
      ? { body?: T }
      : { body: T }
    : unknown
  : unknown;

/** The query parameters of an operation, when it has any. */
type QueryOf<Op> = Op extends { parameters: infer Ps }
  ? 'query' extends keyof Ps
    ? [NonNullable<Ps['query']>] extends [never]
      ? unknown
      : Optional<Ps, 'query'> extends true
        ? { query?: NonNullable<Ps['query']> }
        : { query: Ps['query'] }
    : unknown
  : unknown;

/** A generated operation in the client's form. */
type FromDoc<Op> = { reply: ReplyOf<Op> } & BodyOf<Op> & QueryOf<Op>;

/** The methods a generated path item has, each in the client's form. */
type Operations<Item> = {
  [M in Method as M extends keyof Item ? ([NonNullable<Item[M]>] extends [never] ? never : M) : never]: FromDoc<
    NonNullable<Item[M & keyof Item]>
  >;
};

/** The /v1 operations the service serves again under /ui (crates/service/src/http/router.rs). */
interface Shared {
  '/ui/ask': '/v1/ask';
  '/ui/events': '/v1/events';
  '/ui/health': '/v1/health';
  '/ui/import': '/v1/import';
  '/ui/ledger': '/v1/ledger';
  '/ui/meetings': '/v1/meetings';
  '/ui/meetings/{id}': '/v1/meetings/{id}';
  '/ui/meetings/{id}/action_items': '/v1/meetings/{id}/action_items';
  '/ui/meetings/{id}/action_items/{item_id}': '/v1/meetings/{id}/action_items/{item_id}';
  '/ui/meetings/{id}/history': '/v1/meetings/{id}/history';
  '/ui/meetings/{id}/history/{change_id}/undo': '/v1/meetings/{id}/history/{change_id}/undo';
  '/ui/meetings/{id}/notes': '/v1/meetings/{id}/notes';
  '/ui/meetings/{id}/notes/mine': '/v1/meetings/{id}/notes/mine';
  '/ui/meetings/{id}/notes/{note_id}': '/v1/meetings/{id}/notes/{note_id}';
  '/ui/meetings/{id}/segments/{segment_id}': '/v1/meetings/{id}/segments/{segment_id}';
  '/ui/meetings/{id}/speakers': '/v1/meetings/{id}/speakers';
  '/ui/meetings/{id}/transcript': '/v1/meetings/{id}/transcript';
  '/ui/meetings/{id}/transcribe': '/v1/meetings/{id}/transcribe';
  '/ui/policy': '/v1/policy';
  '/ui/recording/marker': '/v1/recording/marker';
  '/ui/search': '/v1/search';
  '/ui/search/meetings': '/v1/search/meetings';
  '/ui/settings/effective': '/v1/settings';
  '/ui/templates': '/v1/templates';
}

type FromV1 = { [P in keyof Shared]: Operations<paths[Shared[P] & keyof paths]> };

/** /ui paths the document lists itself (none yet): they win over everything below. */
type Listed = { [P in keyof paths as P extends `/ui/${string}` ? P : never]: Operations<paths[P]> };

/** A reply the document gives only as "an object" takes the shape the route is known to send. */
type Described<C extends Call, Known> = Omit<C, 'reply'> & {
  reply: [C['reply']] extends [Record<string, never>]
    ? [Record<string, never>] extends [C['reply']]
      ? Known
      : C['reply']
    : C['reply'];
};

// ---- shapes the document gives only as "an object" ---------------------------

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** settings.json (and its effective view): sections of keys. */
export type SettingsDoc = Record<string, Record<string, Json>>;
/** A value of the effective settings that an organisation's policy sets. */
export interface Managed<T = Json> {
  value: T;
  managed: true;
  managed_by: string;
}

// ---- /ui-only routes -------------------------------------------------------------


interface Only {
  '/ui/logout': { post: { reply: undefined } };
  '/ui/sessions': { get: { reply: S['SessionList'] } };
  '/ui/sessions/{id}': { delete: { reply: undefined } };
  '/ui/prompts': { get: { reply: S['PendingPrompts'] } };
  '/ui/prompts/{prompt_id}/answer': { post: { reply: S['PromptAnswer']; body: S['PromptAnswerRequest'] } };
  '/ui/settings': {
    get: { reply: SettingsDoc };
    patch: { reply: SettingsDoc; body: SettingsDoc };
  };
  '/ui/pairing-code': { post: { reply: S['PairingCode'] } };
  '/ui/pairings': { get: { reply: S['Pairings'] } };
  '/ui/pairings/{id}': { delete: { reply: undefined } };
  '/ui/license': {
    get: { reply: S['LicenseInfo'] };
    post: { reply: S['PlanReply']; body: S['LicenseRequest'] };
  };
  '/ui/models': { get: { reply: S['ModelList'] } };
  '/ui/models/install': { post: { reply: S['ModelInstallReply']; body: S['ModelInstallRequest'] } };
  '/ui/models/add': { post: { reply: S['ModelAdded']; body: S['ModelAddRequest'] } };
  '/ui/models/measure': { post: { reply: S['ModelSpeeds'] } };
  '/ui/models/{name}': { delete: { reply: S['ModelRemoval'] } };
  '/ui/notes-models': { get: { reply: S['NotesModelList'] } };
  '/ui/notes-models/install': { post: { reply: S['ModelInstallReply']; body: S['NotesModelInstallRequest'] } };
  '/ui/notes-models/add': { post: { reply: S['ModelAdded']; body: S['NotesModelAddRequest'] } };
  '/ui/notes-models/{name}': { delete: { reply: S['ModelRemoval'] } };
  '/ui/recording/start': { post: { reply: S['Meeting']; body: S['PersonStartRequest'] } };
  '/ui/recording/stop': { post: { reply: S['StopReply'] } };
  '/ui/recording/pause': { post: { reply: S['PauseReply']; body: S['PauseRequest'] } };
  '/ui/recording/mute': { post: { reply: S['MuteReply']; body: S['MuteRequest'] } };
  // KeepReply is not among the document's schemas (only /ui serves it): its one field.
  '/ui/recording/keep': { post: { reply: { meeting_id: S['MeetingId'] } } };
  // Only /ui serves it: pins the language of the recording's lines to come.
  '/ui/recording/language': { post: { reply: S['Meeting']; body: { language: string } } };
  '/ui/devices/check': { post: { reply: { seconds: number } } };
  '/ui/meetings/{id}/export': { post: { reply: S['ExportReply']; body: S['ExportRequest'] } };
  '/ui/ai/keys': { get: { reply: S['AiKeyList'] } };
  '/ui/ai/keys/{provider}': {
    put: { reply: undefined; body: S['KeyRequest'] };
    delete: { reply: undefined };
  };
  '/ui/meetings/{id}/audio': { get: { reply: S['AudioInfo'] } };
  '/ui/meetings/{id}/audio/reveal': { post: { reply: undefined } };
  /** `audio/wav` with HTTP Range: for `<audio src>`, not for the JSON client. */
  '/ui/meetings/{id}/audio/{channel}': { get: { reply: Blob } };
  '/ui/logs': { get: { reply: string; query?: { lines?: number } } };
  /** The file itself as the body (upload.ts); the reply is the new meeting. */
  '/ui/imports': { post: { reply: S['Meeting']; body: Blob } };
  '/ui/voices': { get: { reply: S['VoiceList'] } };
  '/ui/voices/{id}': { delete: { reply: undefined } };
  '/ui/owner-voice': { delete: { reply: undefined } };
  '/ui/voices/owner/reading': { post: { reply: { seconds: number } } };
}

type Known = Omit<FromV1, '/ui/settings/effective'> &
  Only & {
    '/ui/settings/effective': { get: Described<FromV1['/ui/settings/effective']['get'], SettingsDoc> };
  };

/** Every route of the person's channel, by path template and method. */
export type Routes = Listed & Omit<Known, keyof Listed>;
