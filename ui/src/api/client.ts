// The typed client of the person's channel: `api.get('/ui/meetings/{id}', {
// params: { id } })` resolves to the reply the route's types give (routes.ts,
// from the generated OpenAPI document), and a body must have the route's
// request shape. A 401 anywhere signs the page out; failures are ApiErrors
// with the service's own words.
import { session } from '../lib/session.svelte';
import { fill, href, type CallOf, type OptionalWhenEmpty, type ParamsOption, type PathOf, type QueryValues } from './path';
import type { Method } from './routes';

/** A refused or failed call, with the service's own words. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function describeStatus(status: number): string {
  if (status === 404) return 'Not found.';
  if (status >= 500) return `The recorder service had a problem (HTTP ${status}).`;
  return `The recorder service refused the request (HTTP ${status}).`;
}

export async function errorFrom(response: Response): Promise<ApiError> {
  let code = 'http_' + response.status;
  let message = describeStatus(response.status);
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'error' in body) {
      const error = (body as { error: { code?: unknown; message?: unknown } }).error;
      if (typeof error.code === 'string') code = error.code;
      if (typeof error.message === 'string' && error.message) message = error.message;
    }
  } catch {
    // not JSON: keep the generic words
  }
  return new ApiError(response.status, code, message);
}

interface SendOptions {
  method: string;
  body?: unknown;
  signal?: AbortSignal;
}

async function send(url: string, options: SendOptions): Promise<Response> {
  const init: RequestInit = {
    method: options.method,
    credentials: 'same-origin',
    signal: options.signal,
    headers: { Accept: 'application/json' },
  };
  if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    init.headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'offline', 'Cannot reach the recorder service. Is it running?');
  }
  if (response.status === 401) {
    session.signOut();
  }
  if (!response.ok) throw await errorFrom(response);
  return response;
}

/** What a call takes: the template's params, and the route's body and query. */
export type Options<P extends PathOf<M>, M extends Method> = ParamsOption<P> &
  Omit<CallOf<P, M>, 'reply'> & { signal?: AbortSignal };

type Args<P extends PathOf<M>, M extends Method> = OptionalWhenEmpty<Options<P, M>>;
type Replied<P extends PathOf<M>, M extends Method> = Promise<CallOf<P, M>['reply']>;

interface Loose {
  params?: object;
  query?: QueryValues;
  body?: unknown;
  signal?: AbortSignal;
}

/** JSON call; 204 (or an empty reply) gives `undefined`. */
async function json(method: Method, path: string, options: Loose | undefined): Promise<unknown> {
  options ??= {};
  const response = await send(fill(path, options.params, options.query), {
    method: method.toUpperCase(),
    body: options.body,
    signal: options.signal,
  });
  if (response.status === 204) return undefined;
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

function caller<M extends Method>(method: M) {
  return <P extends PathOf<M>>(path: P, ...[options]: Args<P, M>): Replied<P, M> =>
    json(method, path, options as Loose | undefined) as Replied<P, M>;
}

/** The person's channel, one function per method. */
export const api = {
  get: caller('get'),
  post: caller('post'),
  put: caller('put'),
  patch: caller('patch'),
  delete: caller('delete'),
  /** A plain-text reply (the logs), fetched like any other call. */
  async text<P extends PathOf<'get'>>(path: P, ...[options]: Args<P, 'get'>): Promise<string> {
    const loose = (options ?? {}) as Loose;
    const response = await send(fill(path, loose.params, loose.query), { method: 'GET', signal: loose.signal });
    return response.text();
  },
};

/** The words to show for any failure. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export { href };

/** Percent-encodes one part of an app address (`/meetings/<id>`). */
export const enc = encodeURIComponent;
