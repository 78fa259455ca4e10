/**
 * The embedded source's own address: an HTTP listener on its port (LOUPE_SOURCE_PORT, 3306 by
 * default) that holds the address a source connector names to capture it, so that nothing else
 * (a real MySQL on that port) can be taken for it. `GET /` says what is there; `POST /sql` runs
 * statements as `POST /loupe/sql` on the connect service does, answering digests of the statements.
 * It speaks HTTP, not MySQL's protocol: a MySQL client gets nothing from it.
 */
import http from 'node:http';
import { browserGuard } from '../../../common/browser-guard.js';
import { BodyTooLargeError, closeServer, listen, readBody, sendJson } from '../../../common/http.js';
import type { Logger } from '../../../common/log.js';
import type { EmbeddedSource } from '../embedded-source.js';
import { MySqlError } from '../mysql-error.js';
import { sqlAnswer } from './sql-answer.js';

export interface SourceServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function startSourceServer(opts: { host: string; port: number; source: EmbeddedSource; log: Logger }): Promise<SourceServer> {
  let port = 0;
  const guard = browserGuard(() => port);
  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      opts.log.error('source request failed', { error: (err as Error).message });
      if (!res.headersSent) sendJson(res, 500, { error: { message: (err as Error).message } });
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refused = guard.refusal(req);
    if (refused) return sendJson(res, 403, { error: { message: refused } });
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname === '/' && method === 'GET') {
      const info = opts.source.info();
      return sendJson(res, 200, { name: 'loupe-embedded-source', version: info.version, server_uuid: info.serverUuid, server_id: info.serverId, address: `${opts.host}:${port}`, sql: 'POST /sql {"database": "<name>", "sql": "<statements>"}' });
    }
    if (url.pathname !== '/sql') return sendJson(res, 404, { error: { message: `no ${url.pathname} here: GET / or POST /sql` } });
    if (method !== 'POST') return sendJson(res, 405, { error: { message: 'POST /sql' } });
    if (String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json') return sendJson(res, 415, { error: { message: 'send application/json' } });
    let body: { database?: unknown; sql?: unknown } | null;
    try {
      body = JSON.parse((await readBody(req, 64 * 1024 * 1024)).toString('utf8')) as typeof body;
    } catch (err) {
      if (err instanceof BodyTooLargeError) return sendJson(res, 413, { error: { message: err.message } });
      return sendJson(res, 400, { error: { message: 'Body must be {"database": "<name>", "sql": "<statements>"}' } });
    }
    if (!body || typeof body.sql !== 'string') return sendJson(res, 400, { error: { message: 'Body must be {"database": "<name>", "sql": "<statements>"}' } });
    const database = typeof body.database === 'string' && body.database !== '' ? body.database : null;
    try {
      return sendJson(res, 200, sqlAnswer(await opts.source.execute(database, body.sql)));
    } catch (err) {
      if (err instanceof MySqlError) return sendJson(res, 400, { error: err.toJSON() });
      throw err;
    }
  }

  port = await listen(server, opts.host, opts.port, 'the embedded CDC source', 'Set LOUPE_SOURCE_PORT or --port-base to use another port.');
  return { port, url: `http://${opts.host}:${port}`, close: () => closeServer(server) };
}
