import { session } from '../lib/session.svelte';

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

interface Options {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
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

async function send(path: string, options: Options): Promise<Response> {
  const init: RequestInit = {
    method: options.method ?? 'GET',
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
    response = await fetch(path, init);
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

/** JSON call to the person's channel; 204 gives `undefined`. */
export async function api<T>(path: string, options: Options = {}): Promise<T> {
  const response = await send(path, options);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function apiText(path: string, options: Options = {}): Promise<string> {
  const response = await send(path, options);
  return response.text();
}

/** The words to show for any failure. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export const enc = encodeURIComponent;
