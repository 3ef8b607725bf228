// The address of a route of the person's channel from its path template:
// `href('/ui/meetings/{id}', { params: { id } })`. Each `{name}` must be given
// (the compiler checks it) and is percent-encoded; query values are added in
// the order given, without the ones left undefined or null.
import type { Call, Method, Routes } from './routes';

/** The path templates that answer one method. */
export type PathOf<M extends Method> = {
  [P in keyof Routes]: M extends keyof Routes[P] ? P : never;
}[keyof Routes];

/** The call a path template and method describe. */
export type CallOf<P extends keyof Routes, M extends Method> = Routes[P][M & keyof Routes[P]] extends infer C extends Call
  ? C
  : never;

/** The reply of a call. */
export type Reply<P extends keyof Routes, M extends Method> = CallOf<P, M>['reply'];

/** The JSON body of a call. */
export type Body<P extends keyof Routes, M extends Method> = CallOf<P, M> extends { body?: infer B } ? B : never;

/** The `{name}` parts of a path template, each a string. */
export type Params<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string } & Params<Rest>
  : unknown;

/** `params` when the template has any. */
export type ParamsOption<P extends string> = P extends `${string}{${string}}${string}`
  ? { params: Params<P> }
  : { params?: undefined };

/** Query values, in the order given; undefined and null are left out. */
export type QueryValues = Record<string, string | number | boolean | null | undefined>;

/** Rest arguments: the options may be left out when nothing in them is required. */
export type OptionalWhenEmpty<O> = object extends O ? [options?: O] : [options: O];

/** The address of a route: its template filled in, and the query if any. */
export function href<P extends keyof Routes>(
  path: P,
  ...[options]: OptionalWhenEmpty<ParamsOption<P & string> & { query?: QueryValues }>
): string {
  return fill(path, options?.params, options?.query);
}

/** `href` for the client, which has checked the options' types already. */
export function fill(path: string, params: object | undefined, query: QueryValues | undefined): string {
  const values: Record<string, unknown> = { ...params };
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}
