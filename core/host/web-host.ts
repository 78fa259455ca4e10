/**
 * `loupe serve`'s transport: the built renderer plus the host contract as `POST /api/<method>`
 * and events as server-sent events on `GET /api/events`. Loopback only; every API call needs the
 * per-run token, and foreign Host or Origin headers are refused (DNS rebinding, other local pages).
 */
import http from 'node:http';
import path from 'node:path';
import { promises as fs } from 'node:fs';
import { timingSafeEqual } from 'node:crypto';
import { stringifyExactJson } from '../common/exact-json.js';
import { closeServer, listen, readBody, sendJson, sendText, BodyTooLargeError } from '../common/http.js';
import { randomToken } from '../common/ids.js';
import type { ContractErrorBody } from './contract.js';
import type { Host } from './host.js';
import { portEnvFor } from './ports.js';
import { CONTENT_SECURITY_POLICY } from './csp.js';

export { CONTENT_SECURITY_POLICY };

export interface WebHostOptions {
  port: number;
  /** The built renderer (dist/renderer). */
  staticDir: string;
  /** Fixed token (tests); by default a fresh random one per run. */
  token?: string;
}

export interface WebHost {
  readonly url: string;
  /** The URL to open: carries the token. */
  readonly openUrl: string;
  readonly token: string;
  readonly port: number;
  close(): Promise<void>;
}

const STATUS: Record<ContractErrorBody['error']['code'], number> = {
  unknown_method: 404,
  bad_params: 400,
  unauthorized: 401,
  failed: 500,
  unavailable: 503,
};

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=UTF-8',
  '.js': 'text/javascript; charset=UTF-8',
  '.mjs': 'text/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.map': 'application/json; charset=UTF-8',
};

export async function startWebHost(host: Host, opts: WebHostOptions): Promise<WebHost> {
  const token = opts.token ?? randomToken(24);
  const tokenBuf = Buffer.from(token);
  let boundPort = opts.port;
  const sse = new Set<http.ServerResponse>();

  const allowedHosts = () => new Set([`127.0.0.1:${boundPort}`, `localhost:${boundPort}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${boundPort}`, `http://localhost:${boundPort}`]);

  const tokenOk = (given: string | null | undefined) => {
    if (!given) return false;
    const b = Buffer.from(given);
    return b.length === tokenBuf.length && timingSafeEqual(b, tokenBuf);
  };

  const refuse = (res: http.ServerResponse, status: number, message: string) =>
    sendJson(res, status, { error: { code: 'unauthorized', message } } satisfies ContractErrorBody, securityHeaders());

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      host.log.error('web host request failed', { message: (err as Error).message });
      if (!res.headersSent) sendJson(res, 500, { error: { code: 'failed', message: 'internal error in the web host' } });
      else res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!allowedHosts().has(req.headers.host ?? '')) {
      return refuse(res, 403, `Host header "${req.headers.host ?? ''}" is not this Loupe server; open the URL printed by loupe serve`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin)) {
      return refuse(res, 403, `requests from origin ${origin} are not allowed`);
    }
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);

    if (url.pathname === '/api/events') {
      if (req.method !== 'GET') return sendJson(res, 405, { error: { code: 'bad_params', message: 'use GET for /api/events' } });
      if (!tokenOk(url.searchParams.get('token'))) return refuse(res, 401, 'missing or wrong token');
      return openEventStream(res);
    }
    if (url.pathname.startsWith('/api/')) {
      const given = req.headers['x-loupe-token'] ?? bearer(req.headers.authorization);
      if (!tokenOk(Array.isArray(given) ? given[0] : given)) return refuse(res, 401, 'missing or wrong token (send it in the X-Loupe-Token header)');
      if (req.method !== 'POST') {
        return sendJson(res, 405, { error: { code: 'bad_params', message: `use POST for ${url.pathname}` } }, { allow: 'POST' });
      }
      const method = decodeURIComponent(url.pathname.slice('/api/'.length));
      let params: unknown = {};
      try {
        const body = await readBody(req, 64 * 1024 * 1024);
        if (body.length > 0) params = JSON.parse(body.toString('utf8'));
      } catch (err) {
        const message = err instanceof BodyTooLargeError ? err.message : `request body is not JSON: ${(err as Error).message}`;
        return sendJson(res, 400, { error: { code: 'bad_params', message } } satisfies ContractErrorBody);
      }
      if (method === '_methods') return sendJson(res, 200, host.dispatcher.describe(), securityHeaders());
      const outcome = await host.call(method, params);
      if (outcome.ok) return sendJson(res, 200, outcome.result ?? null, securityHeaders());
      return sendJson(res, STATUS[outcome.error.code], { error: outcome.error } satisfies ContractErrorBody, securityHeaders());
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method Not Allowed');
    return serveStatic(url.pathname, res);
  }

  function openEventStream(res: http.ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=UTF-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      ...securityHeaders(),
    });
    sse.add(res);
    writeEvent(res, 'services.changed', host.supervisor.status());
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    res.on('close', () => {
      clearInterval(ping);
      sse.delete(res);
    });
  }

  const unsubscribe = host.on((event, payload) => {
    for (const res of sse) writeEvent(res, event, payload);
  });

  async function serveStatic(pathname: string, res: http.ServerResponse): Promise<void> {
    const root = path.resolve(opts.staticDir);
    const rel = path.normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
    let file = path.join(root, rel);
    if (!file.startsWith(root)) return sendText(res, 404, 'Not Found');
    let stat = await fs.stat(file).catch(() => undefined);
    if (!stat || stat.isDirectory()) {
      // The renderer is a single page: unknown paths get index.html.
      file = path.join(root, 'index.html');
      stat = await fs.stat(file).catch(() => undefined);
      if (!stat) {
        return sendText(res, 503, `The Loupe UI has not been built. Run "npm run build:renderer" (or "npm run serve", which builds it), then reload.\n`);
      }
    }
    const body = await fs.readFile(file);
    res.writeHead(200, {
      'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': file.endsWith('index.html') ? 'no-store' : 'public, max-age=31536000, immutable',
      ...securityHeaders(),
    });
    res.end(body);
  }

  try {
    boundPort = await listen(server, '127.0.0.1', opts.port, 'ui', `Set ${portEnvFor('ui')} or --port-base.`);
  } catch (err) {
    unsubscribe();
    throw err;
  }
  const url = `http://127.0.0.1:${boundPort}`;
  return {
    url,
    openUrl: `${url}/?token=${token}`,
    token,
    port: boundPort,
    async close() {
      unsubscribe();
      for (const res of sse) res.end();
      sse.clear();
      await closeServer(server);
    },
  };
}

function writeEvent(res: http.ServerResponse, event: string, payload: unknown): void {
  res.write(`event: ${event}\ndata: ${stringifyExactJson(payload)}\n\n`);
}

function bearer(h: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(h ?? '');
  return m?.[1];
}

function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    // The page URL carries the token: never send it on as a referrer.
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}
