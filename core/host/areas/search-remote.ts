/**
 * Credentials for a remote Elasticsearch / OpenSearch cluster (basic auth or an API key), kept
 * in `search-remote-auth.json` in the data directory with mode 0600 and never logged or sent
 * back to the UI, and the connection test that says in plain words why a cluster cannot be used.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeJsonAtomic } from '../../common/json-store.js';
import type { SearchConnectionTest, SearchRemoteAuth, SearchRemoteAuthView } from '../contract/search.js';

const FILE = 'search-remote-auth.json';
const cache = new Map<string, SearchRemoteAuth>();

export function readRemoteAuth(dataDir: string): SearchRemoteAuth {
  const hit = cache.get(dataDir);
  if (hit) return hit;
  let auth: SearchRemoteAuth = { kind: 'none' };
  try {
    const raw = JSON.parse(readFileSync(path.join(dataDir, FILE), 'utf8')) as SearchRemoteAuth;
    if (raw.kind === 'basic' || raw.kind === 'apiKey') auth = raw;
  } catch {
    // no credentials stored
  }
  cache.set(dataDir, auth);
  return auth;
}

export async function writeRemoteAuth(dataDir: string, auth: SearchRemoteAuth): Promise<SearchRemoteAuthView> {
  await writeJsonAtomic(path.join(dataDir, FILE), auth, { mode: 0o600 });
  cache.set(dataDir, auth);
  return viewOf(auth);
}

export function viewOf(auth: SearchRemoteAuth): SearchRemoteAuthView {
  if (auth.kind === 'basic') return { kind: 'basic', username: auth.username, secretSet: auth.password !== '' };
  if (auth.kind === 'apiKey') return { kind: 'apiKey', secretSet: auth.apiKey !== '' };
  return { kind: 'none', secretSet: false };
}

export function authHeader(auth: SearchRemoteAuth): string | undefined {
  if (auth.kind === 'basic') return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
  if (auth.kind === 'apiKey') return `ApiKey ${auth.apiKey}`;
  return undefined;
}

/** `GET /` on the server: who answers, or why nobody usable does. */
export async function testConnection(url: string, auth: SearchRemoteAuth, timeoutMs = 5000): Promise<SearchConnectionTest> {
  const base = url.replace(/\/+$/, '');
  const started = performance.now();
  let res: Response;
  try {
    const authorization = authHeader(auth);
    res = await fetch(`${base}/`, { headers: { accept: 'application/json', ...(authorization ? { authorization } : {}) }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code ?? (err as Error).name;
    const hint =
      code === 'ECONNREFUSED'
        ? 'Nothing listens at that address and port. Check the URL and that the cluster is running.'
        : code === 'ENOTFOUND'
          ? 'The host name does not resolve. Check the spelling of the URL.'
          : code === 'TimeoutError'
            ? `No answer within ${timeoutMs / 1000} s. A firewall, a proxy or a wrong port may be in the way.`
            : /CERT|SSL|TLS/i.test(code)
              ? "The server's TLS certificate is not trusted by Loupe (self-signed?). Use a certificate your system trusts."
              : 'The connection failed before an HTTP answer came back.';
    return { ok: false, url: base, message: `${code}: ${cause?.message ?? (err as Error).message}`, hint };
  }
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // handled below
  }
  if (res.status === 401 || res.status === 403) {
    const e = body.error as { type?: string; reason?: string } | undefined;
    return {
      ok: false,
      url: base,
      status: res.status,
      message: e?.reason ? `${e.type}: ${e.reason}` : `HTTP ${res.status}`,
      hint: res.status === 401 ? 'The cluster wants credentials: set a user and password or an API key, or check the ones given.' : 'The credentials are valid but lack the privilege to read cluster information (monitor).',
    };
  }
  const version = body.version as { number?: string; distribution?: string; build_flavor?: string } | undefined;
  if (!res.ok || !version?.number) {
    return { ok: false, url: base, status: res.status, message: `HTTP ${res.status}: ${text.slice(0, 200)}`, hint: 'This does not answer like Elasticsearch or OpenSearch (GET / has no version). Check the URL and the port (9200 by default).' };
  }
  const distribution = version.distribution === 'opensearch' ? 'opensearch' : body.name === 'loupe' ? 'loupe' : 'elasticsearch';
  return { ok: true, url: base, name: String(body.name ?? ''), clusterName: String(body.cluster_name ?? ''), version: version.number, distribution, tookMs: Math.round(performance.now() - started) };
}
