/**
 * The HTTP server of the Connect worker: Kafka Connect's REST API on 127.0.0.1. Errors leave as
 * `{"error_code": N, "message": "…"}`; unknown paths and methods answer as Jersey does
 * (`HTTP 404 Not Found`, `HTTP 405 Method Not Allowed`); a body that is not JSON gets Jackson's
 * message with status 500, as Kafka Connect's exception mapper produces. The server stays up
 * after any bad request.
 */
import http from 'node:http';
import { stringifyExactJson } from '../../../common/exact-json.js';
import { BodyTooLargeError, closeServer, listen, readBody } from '../../../common/http.js';
import { browserGuard } from '../../../common/browser-guard.js';
import type { Logger } from '../../../common/log.js';
import { ConnectError } from '../errors.js';
import { jacksonParseError } from './jackson-errors.js';
import { buildRoutes, type RestRequest, type RestResponse, type RouteDeps } from './routes.js';

export interface ConnectRestServer {
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export async function startConnectRest(opts: { host: string; port: number; log: Logger; deps: () => Promise<RouteDeps> }): Promise<ConnectRestServer> {
  let routes: ReturnType<typeof buildRoutes> | undefined;
  const getRoutes = async () => (routes ??= buildRoutes(await opts.deps(), parseJson));

  let port = 0;
  const guard = browserGuard(() => port);
  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err) => {
      opts.log.error('unhandled REST error', { error: (err as Error).message });
      if (!res.headersSent) send(res, { status: 500, body: { error_code: 500, message: (err as Error).message } });
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refused = guard.refusal(req);
    if (refused) return send(res, { status: 403, body: { error_code: 403, message: refused } });
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    let body: string;
    try {
      body = (await readBody(req, 16 * 1024 * 1024)).toString('utf8');
    } catch (err) {
      if (err instanceof BodyTooLargeError) return send(res, { status: 413, body: { error_code: 413, message: 'HTTP 413 Request Entity Too Large' } });
      throw err;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const r = await getRoutes();
    const m = r.match(method, url.pathname.replace(/\/+$/, '') || '/');
    if (m === undefined) return send(res, { status: 404, body: { error_code: 404, message: 'HTTP 404 Not Found' } });
    if (m === 'method') return send(res, { status: 405, body: { error_code: 405, message: 'HTTP 405 Method Not Allowed' } });
    if (BODY_METHODS.has(method) && body.length > 0) {
      // Jersey matches the media type (@Consumes application/json), not a substring: `text/plain; a=json`
      // is a type a page may send cross-site without asking first, and it is not JSON
      const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type && type !== 'application/json') return send(res, { status: 415, body: { error_code: 415, message: 'HTTP 415 Unsupported Media Type' } });
    }
    const started = Date.now();
    try {
      const out = await m.handler({ req, url, body }, m.params);
      send(res, out as RestResponse);
    } catch (err) {
      if (err instanceof ConnectError) send(res, { status: err.errorCode, body: err.toJSON() });
      else {
        opts.log.error('REST handler failed', { path: url.pathname, error: (err as Error).message });
        send(res, { status: 500, body: { error_code: 500, message: (err as Error).message ?? null } });
      }
    } finally {
      opts.log.debug('rest', { method, path: url.pathname, ms: Date.now() - started });
    }
  }

  port = await listen(server, opts.host, opts.port, 'connect', 'Set LOUPE_CONNECT_PORT or --port-base to use another port.');
  return { port, server, close: () => closeServer(server) };
}

function parseJson(ctx: RestRequest): unknown {
  if (ctx.body.trim() === '') return null;
  try {
    return JSON.parse(ctx.body);
  } catch {
    const msg = jacksonParseError(ctx.body) ?? 'Unexpected character: invalid JSON';
    throw new ConnectError(500, msg);
  }
}

function send(res: http.ServerResponse, out: RestResponse): void {
  if (out.body === undefined) {
    res.writeHead(out.status, { ...(out.headers ?? {}) });
    res.end();
    return;
  }
  // a source row's BIGINT beyond 2^53 (POST /loupe/sql) is a bigint: its digits, exact
  const text = stringifyExactJson(out.body);
  res.writeHead(out.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(out.headers ?? {}) });
  res.end(text);
}
