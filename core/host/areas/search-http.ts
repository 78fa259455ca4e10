/**
 * The search area's one HTTP client: Elasticsearch's REST API at `rt.urlOf('search')`, with the
 * remote cluster's credentials when the URL is not the embedded engine's. Elasticsearch errors
 * become HostCallErrors carrying Elasticsearch's JSON as `detail`.
 */
import type { HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import { authHeader, readRemoteAuth } from './search-remote.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Elasticsearch responses are read field by field
export type Json = Record<string, any>;

export const enc = encodeURIComponent;

/** The base URL and the Authorization header to use for it (none for the embedded engine). */
export function target(rt: HostRuntime): { base: string; authorization?: string } {
  const base = rt.urlOf('search').replace(/\/+$/, '');
  const embedded = rt.handle('search')?.url?.replace(/\/+$/, '');
  if (embedded === base) return { base };
  const authorization = authHeader(readRemoteAuth(rt.dataDir));
  return authorization ? { base, authorization } : { base };
}

export async function es(rt: HostRuntime, method: string, p: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: Json }> {
  const { base, authorization } = target(rt);
  return esAt(base, authorization, method, p, body, contentType);
}

export async function esAt(base: string, authorization: string | undefined, method: string, p: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: Json }> {
  let res: Response;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = contentType;
  if (authorization) headers.authorization = authorization;
  try {
    res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new HostCallError(`The search service at ${base} could not be reached: ${cause?.code ?? cause?.message ?? (err as Error).message}`, undefined, 'unavailable');
  }
  const text = await res.text();
  let parsed: Json;
  try {
    parsed = text ? (JSON.parse(text) as Json) : {};
  } catch {
    throw new HostCallError(`The search service answered ${res.status} with a body that is not JSON`, text.slice(0, 500));
  }
  return { status: res.status, body: parsed };
}

/** Throws the Elasticsearch error (type: reason) with its JSON as detail. */
export function orThrow(r: { status: number; body: Json }, allow: number[] = []): Json {
  if (r.status < 400 || allow.includes(r.status)) return r.body;
  const e = r.body.error;
  const message = typeof e === 'object' && e ? `${e.type}: ${e.reason}` : typeof e === 'string' ? e : `HTTP ${r.status}`;
  throw new HostCallError(message, r.body);
}
