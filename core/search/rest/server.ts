/**
 * The HTTP side of the search engine: Elasticsearch's REST API on 127.0.0.1. Every response
 * carries `X-Elastic-Product: Elasticsearch` (official clients check it), accepts the
 * compatible-with media types the clients send, and turns every error into Elasticsearch's JSON
 * shape; nothing a client sends takes the server down.
 */
import http from 'node:http';
import { BodyTooLargeError, closeServer, listen, readBody } from '../../common/http.js';
import { browserGuard } from '../../common/browser-guard.js';
import type { Logger } from '../../common/log.js';
import type { SearchEngine } from '../engine.js';
import { EsError } from '../errors.js';
import { buildRouter, type RestRequest, type RestResult } from './routes.js';
import { toEsJson } from './es-json.js';

// Elasticsearch's strict content-type check (6.0 on): text/plain, a form or no type at all is
// refused, which is also what keeps a web page from posting to it without a CORS preflight
const ACCEPTED_TYPES = ['application/json', 'application/x-ndjson', 'application/vnd.elasticsearch+json', 'application/vnd.elasticsearch+x-ndjson'];

export interface RestServer {
  port: number;
  close(): Promise<void>;
}

export async function startRestServer(engine: SearchEngine, host: string, port: number, log: Logger): Promise<RestServer> {
  const router = buildRouter();
  let bound = 0;
  const guard = browserGuard(() => bound);
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      log.error('search request failed', { error: (err as Error).message });
      if (!res.headersSent) send(res, req, { status: 500, body: new EsError('exception', (err as Error).message, 500).toJson() });
      else res.destroy();
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nX-Elastic-Product: Elasticsearch\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refused = guard.refusal(req);
    if (refused) return send(res, req, { status: 403, body: new EsError('security_exception', refused, 403).toJson() });
    const method = req.method ?? 'GET';
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      return send(res, req, { status: 400, body: new EsError('illegal_argument_exception', `invalid uri [${req.url}]`, 400).toJson() });
    }
    let body: string;
    try {
      body = (await readBody(req)).toString('utf8');
    } catch (err) {
      if (err instanceof BodyTooLargeError) return send(res, req, { status: 413, body: new EsError('content_too_long_exception', 'request body too large', 413).toJson() });
      throw err;
    }
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (body.length > 0 && !ACCEPTED_TYPES.includes(contentType)) {
      return send(res, req, { status: 406, body: { error: `Content-Type header [${req.headers['content-type']}] is not supported`, status: 406 } });
    }
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const match = router.match(method, path);
    if (match === undefined) {
      return send(res, req, { status: 400, body: new EsError('illegal_argument_exception', `no handler found for uri [${req.url}] and method [${method}]`, 400).toJson() }, url);
    }
    if (match === 'method') {
      const allowed = router.allowed(path);
      return send(res, req, { status: 405, body: { error: `Incorrect HTTP method for uri [${req.url}] and method [${method}], allowed: [${allowed.join(', ')}]`, status: 405 } }, url, { Allow: allowed.join(',') });
    }
    const restReq: RestRequest = { method, path, query: url.searchParams, body, engine };
    let result: RestResult;
    try {
      result = match.handler(restReq, match.params) as RestResult;
    } catch (err) {
      if (err instanceof EsError) result = { status: err.status, body: err.toJson() };
      else if (err instanceof RangeError || err instanceof TypeError || err instanceof SyntaxError) {
        log.warn('search request rejected', { path, error: err.message });
        result = { status: 400, body: new EsError('illegal_argument_exception', err.message, 400).toJson() };
      } else throw err;
    }
    send(res, req, result, url);
  }

  bound = await listen(server, host, port, 'search', 'Set LOUPE_SEARCH_PORT to another port.');
  return { port: bound, close: () => closeServer(server) };
}

function send(res: http.ServerResponse, req: http.IncomingMessage, result: RestResult, url?: URL, extra: Record<string, string> = {}): void {
  const accept = String(req.headers.accept ?? '');
  const compat = /compatible-with=(\d+)/.exec(accept);
  const headers: Record<string, string> = { 'X-Elastic-Product': 'Elasticsearch', ...extra };
  let text = '';
  if (result.text !== undefined) {
    text = result.text;
    headers['content-type'] = 'text/plain; charset=UTF-8';
  } else if (result.body !== undefined) {
    const pretty = url?.searchParams.has('pretty') && url.searchParams.get('pretty') !== 'false';
    text = result.document ? JSON.stringify(result.body, null, pretty ? 2 : undefined) : toEsJson(result.body, pretty) + (pretty ? '\n' : '');
    headers['content-type'] = compat ? `application/vnd.elasticsearch+json;compatible-with=${compat[1]}` : 'application/json';
  }
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(result.status, headers);
  res.end(req.method === 'HEAD' ? undefined : text);
}
