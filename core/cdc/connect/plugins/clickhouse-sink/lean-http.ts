/**
 * The sink's writes (inserts and exactly-once state rows) as plain node HTTP requests, byte for
 * byte the requests @clickhouse/client sends for `command` and `exec`: POST, `query_id`, the
 * settings, `database` unless it is `default`, `query` in the URL when a body carries the data,
 * Basic authorization, the client's User-Agent, a chunked body on a keep-alive connection. Its
 * answers are read the same way: a status other than 2xx or an X-ClickHouse-Exception-Code header
 * is the server's error, parsed by the client's own parseError (so `code` is ClickHouse's code).
 *
 * Why: the client's request path (socket pool, stream pipeline, per-request listeners) cost ≈3 ms
 * per request on this machine against ≈1 ms for the same request over node's http, and the sink
 * sends three requests per block (bench:cdc's "sink's requests alone"). Reads (DESCRIBE, the state
 * row) stay on the client.
 */
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { parseError } from '@clickhouse/client';

const require = createRequire(import.meta.url);
const clientVersion = (require('@clickhouse/client/package.json') as { version: string }).version;
/** @clickhouse/client's getUserAgent() */
const USER_AGENT = `clickhouse-js/${clientVersion} (lv:nodejs/${process.version}; os:${os.platform()})`;

/** The client's removeTrailingSemi(query.trim()). */
function statement(query: string): string {
  return query.trim().replace(/;+$/, '');
}

const IDLE_SOCKET_TTL_MS = 2500;

export interface LeanHttpOptions {
  url: string;
  username: string;
  password: string;
  database: string;
  requestTimeoutMs: number;
  maxOpenConnections: number;
}

export class LeanHttp {
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;
  private readonly auth: string;
  private readonly base: URL;

  constructor(private readonly opts: LeanHttpOptions) {
    this.base = new URL(opts.url);
    const tls = this.base.protocol === 'https:';
    // An idle connection is closed after 2.5 s, as the client's keep_alive.idle_socket_ttl does, before
    // a server's keep-alive timeout (3 s by default) could close it under a request.
    const agentOptions = { keepAlive: true, maxSockets: opts.maxOpenConnections, timeout: IDLE_SOCKET_TTL_MS };
    this.agent = tls ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    this.request = tls ? https.request : http.request;
    this.auth = `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`;
  }

  /** `command`: the statement is the body. */
  command(query: string, settings?: Record<string, string | number>): Promise<void> {
    return this.post(this.search(settings, undefined), statement(query));
  }

  /** `exec` with values: the statement in the URL, the data as the body; done when the answer has ended. */
  exec(query: string, data: string | Buffer, settings?: Record<string, string | number>): Promise<void> {
    return this.post(this.search(settings, statement(query)), data);
  }

  close(): void {
    this.agent.destroy();
  }

  /** toSearchParams of @clickhouse/client, in its order. */
  private search(settings: Record<string, string | number> | undefined, query: string | undefined): string {
    const entries: [string, string][] = [['query_id', randomUUID()]];
    for (const [k, v] of Object.entries(settings ?? {})) if (v !== undefined) entries.push([k, String(v)]);
    if (this.opts.database && this.opts.database !== 'default') entries.push(['database', this.opts.database]);
    if (query) entries.push(['query', query]);
    return new URLSearchParams(entries).toString();
  }

  private post(search: string, body: string | Buffer): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const req = this.request(
        {
          protocol: this.base.protocol,
          hostname: this.base.hostname,
          port: this.base.port,
          path: `${this.base.pathname}?${search}`,
          method: 'POST',
          agent: this.agent,
          headers: { 'User-Agent': USER_AGENT, Authorization: this.auth, 'Transfer-Encoding': 'chunked' },
        },
        (res) => {
          const failed = !(res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300) || res.headers['x-clickhouse-exception-code'] !== undefined;
          if (!failed) {
            res.on('error', reject);
            res.on('end', () => resolve());
            res.resume();
            return;
          }
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('error', reject);
          res.on('end', () => reject(parseError(Buffer.concat(parts).toString('utf8'))));
        },
      );
      req.setTimeout(this.opts.requestTimeoutMs, () => req.destroy(new Error('Timeout error.')));
      req.on('error', reject);
      req.end(body);
    });
  }
}
