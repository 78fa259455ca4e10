/**
 * ClickHouse's HTTP interface (port 8123) over the embedded engine: URL parameters, body
 * handling, authentication, response headers and error bodies as a ClickHouse server sends
 * them. This file only maps HTTP to engine calls; the engine knows nothing about HTTP.
 */
import http from 'node:http';
import os from 'node:os';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { Logger } from '../../common/log.js';
import { BodyTooLargeError, readBody } from '../../common/http.js';
import { uuid } from '../../common/ids.js';
import { ClickHouseError, chErrors, toClickHouseError } from './errors.js';
import type { ChEngine, ExecRequest, ExecResult } from './engine.js';

/** URL parameters the HTTP handler consumes itself; every other one is a setting. */
const RESERVED = new Set([
  'query', 'database', 'default_format', 'query_id', 'session_id', 'session_timeout', 'session_check', 'user', 'password',
  'quota_key', 'buffer_size', 'wait_end_of_query', 'compress', 'decompress', 'role', 'stacktrace', 'readonly',
  'client_protocol_version', 'default_session', 'close_session', 'query_kind',
]);

export interface HttpOptions {
  engine: ChEngine;
  log: Logger;
  /** user → password; the embedded server has `default` with an empty password. */
  users: Record<string, string>;
  displayName?: string;
  maxBodyBytes?: number;
}

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const brotliDecompress = promisify(zlib.brotliDecompress);

export function createClickHouseHttpHandler(opts: HttpOptions): http.RequestListener {
  const displayName = opts.displayName ?? os.hostname();
  const version = opts.engine.version;
  const baseHeaders = (): Record<string, string> => ({
    'X-ClickHouse-Server-Display-Name': displayName,
    'Keep-Alive': 'timeout=10, max=10000',
  });

  const sendError = (res: http.ServerResponse, err: ClickHouseError, extra: Record<string, string | string[]> = {}) => {
    if (res.headersSent) return res.end();
    const body = err.render(version);
    res.writeHead(err.httpStatus, {
      ...baseHeaders(),
      ...extra,
      'Content-Type': 'text/plain; charset=UTF-8',
      'X-ClickHouse-Exception-Code': String(err.code),
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  };

  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = (req.method ?? 'GET').toUpperCase();
      const path = url.pathname;

      if (path === '/ping' && (method === 'GET' || method === 'HEAD')) return plain(res, 'Ok.\n', baseHeaders());
      if (path === '/replicas_status' && method === 'GET') {
        // No replicated tables exist on a single node, so every replica is "ok".
        return plain(res, 'Ok.\n', baseHeaders());
      }
      if (path !== '/' && path !== '') {
        const e = new ClickHouseError(
          0,
          'UNKNOWN_EXCEPTION',
          `There is no handle ${path}\n\nUse / or /ping for health checks.\nOr /replicas_status for more sophisticated health checks.\n\nSend queries from your program with POST method or GET /?query=...\n\nUse clickhouse-client:\n\nFor interactive data analysis:\n    clickhouse-client\n\nFor batch data processing:\n    clickhouse-client --query='SELECT 1' > data.tsv\n    clickhouse-client --query='INSERT INTO table FORMAT TabSeparated' < data.tsv\n\nDocumentation: https://clickhouse.com/docs/`,
        );
        const text = e.detail + '\n';
        res.writeHead(404, { ...baseHeaders(), 'Content-Type': 'text/html; charset=UTF-8', 'Content-Length': Buffer.byteLength(text) });
        return res.end(text);
      }
      if (method !== 'GET' && method !== 'POST' && method !== 'HEAD') {
        return sendError(res, new ClickHouseError(0, 'UNKNOWN_EXCEPTION', `HTTP method ${method} is not supported`));
      }

      const queryId = url.searchParams.get('query_id') || uuid();
      const defaultFormat = url.searchParams.get('default_format') || undefined;
      const idHeaders = { 'X-ClickHouse-Query-Id': queryId, 'X-ClickHouse-Timezone': opts.engine.timezone };

      try {
        authenticate(req, url, opts.users);
      } catch (err) {
        return sendError(res, toClickHouseError(err), idHeaders);
      }

      let body: Buffer;
      try {
        body = await readBody(req, opts.maxBodyBytes ?? 1024 * 1024 * 1024);
        body = await decodeBody(body, String(req.headers['content-encoding'] ?? ''));
      } catch (err) {
        if (err instanceof BodyTooLargeError) return sendError(res, new ClickHouseError(202, 'QUERY_IS_TOO_LARGE', err.message), idHeaders);
        return sendError(res, new ClickHouseError(354, 'CANNOT_DECOMPRESS', `Cannot decompress request body: ${(err as Error).message}`), idHeaders);
      }

      const queryParam = url.searchParams.get('query');
      if (method === 'GET' && !queryParam) return plain(res, 'Ok.\n', baseHeaders());
      if (queryParam === null && body.length === 0) return sendError(res, chErrors.emptyQuery(), idHeaders);

      const settings: Record<string, string> = {};
      const params: Record<string, string> = {};
      for (const [k, v] of url.searchParams) {
        if (k.startsWith('param_')) params[k.slice(6)] = v;
        else if (!RESERVED.has(k)) settings[k] = v;
      }
      const readonlyParam = url.searchParams.get('readonly');
      const execReq: ExecRequest = {
        query: queryParam ?? '',
        ...(queryParam !== null ? { data: body } : {}),
        settings,
        params,
        queryId,
        readonly: method === 'GET' || readonlyParam === '1' || readonlyParam === '2',
        ...(defaultFormat ? { defaultFormat } : {}),
        ...(url.searchParams.get('database') ? { database: url.searchParams.get('database')! } : {}),
        ...(url.searchParams.get('session_id') ? { sessionId: url.searchParams.get('session_id')! } : {}),
      };
      if (queryParam === null) {
        // The whole body is the query (and, for INSERT … FORMAT, its data).
        execReq.query = body.toString('utf8');
        delete execReq.data;
      }

      let result: ExecResult;
      try {
        result = await opts.engine.exec(execReq);
      } catch (err) {
        const e = toClickHouseError(err);
        opts.log.debug('query failed', { queryId, code: e.code, name: e.name });
        return sendError(res, e, { ...idHeaders, 'X-ClickHouse-Format': defaultFormat ?? 'TabSeparated' });
      }

      const headers: Record<string, string | string[]> = {
        ...baseHeaders(),
        ...idHeaders,
        'X-ClickHouse-Format': result.format,
        'Content-Type': contentTypeFor(result.format),
        'X-ClickHouse-Summary': JSON.stringify(result.summary),
      };
      if (settings.send_progress_in_http_headers === '1') {
        const s = result.summary;
        headers['X-ClickHouse-Progress'] = JSON.stringify({ read_rows: s.read_rows, read_bytes: s.read_bytes, written_rows: s.written_rows, written_bytes: s.written_bytes, total_rows_to_read: s.total_rows_to_read, result_rows: s.result_rows, result_bytes: s.result_bytes, elapsed_ns: s.elapsed_ns });
      }
      if (result.notices.length) {
        headers['X-Loupe-Notice'] = result.notices.map(asciiHeader);
      }
      let out: Buffer = Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
      const accept = String(req.headers['accept-encoding'] ?? '');
      if (settings.enable_http_compression === '1' && out.length > 0) {
        if (/\bgzip\b/.test(accept)) {
          out = zlib.gzipSync(out);
          headers['Content-Encoding'] = 'gzip';
        } else if (/\bdeflate\b/.test(accept)) {
          out = zlib.deflateSync(out);
          headers['Content-Encoding'] = 'deflate';
        }
      }
      headers['Content-Length'] = String(out.length);
      res.writeHead(200, headers);
      res.end(method === 'HEAD' ? undefined : out);
    })().catch((err) => {
      opts.log.error('clickhouse http handler failed', { error: (err as Error).message });
      sendError(res, toClickHouseError(err));
    });
  };
}

function plain(res: http.ServerResponse, text: string, headers: Record<string, string>) {
  res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=UTF-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Credentials from X-ClickHouse-User/Key, basic auth or user/password parameters, as the server reads them. */
function authenticate(req: http.IncomingMessage, url: URL, users: Record<string, string>): void {
  let user = req.headers['x-clickhouse-user'] as string | undefined;
  let key = req.headers['x-clickhouse-key'] as string | undefined;
  const auth = req.headers.authorization;
  if (auth && /^basic /i.test(auth)) {
    if (user !== undefined) {
      throw new ClickHouseError(194, 'REQUIRED_PASSWORD', 'Invalid authentication: it is not allowed to use Authorization HTTP header and authentication via parameters simultaneously');
    }
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    user = i < 0 ? decoded : decoded.slice(0, i);
    key = i < 0 ? '' : decoded.slice(i + 1);
  }
  if (url.searchParams.has('user')) {
    if (user !== undefined) {
      throw new ClickHouseError(194, 'REQUIRED_PASSWORD', 'Invalid authentication: it is not allowed to use X-ClickHouse HTTP headers and other authentication methods simultaneously');
    }
    user = url.searchParams.get('user')!;
    key = url.searchParams.get('password') ?? '';
  }
  const name = user || 'default';
  const expected = users[name];
  if (expected === undefined || expected !== (key ?? '')) throw chErrors.authFailed(name);
}

async function decodeBody(body: Buffer, encoding: string): Promise<Buffer> {
  const enc = encoding.trim().toLowerCase();
  if (!enc || enc === 'identity' || body.length === 0) return body;
  if (enc === 'gzip') return gunzip(body);
  if (enc === 'deflate') return inflate(body);
  if (enc === 'br') return brotliDecompress(body);
  throw new Error(`Unknown HTTP compression method ${enc}`);
}

/** Content types ClickHouse's output formats report (IOutputFormat::getContentType). */
export function contentTypeFor(format: string): string {
  if (/^(JSONEachRow|JSONLines|NDJSON|JSONStringsEachRow|JSONCompactEachRow|JSONCompactStringsEachRow|JSONCompactEachRowWithNames|JSONCompactEachRowWithNamesAndTypes|JSONEachRowWithProgress|JSONStringsEachRowWithProgress|JSONCompactStringsEachRowWithNames|JSONCompactStringsEachRowWithNamesAndTypes)$/.test(format)) {
    return 'application/x-ndjson; charset=UTF-8';
  }
  if (/^(JSON|JSONCompact|JSONStrings|JSONCompactStrings|JSONColumns|JSONCompactColumns|JSONColumnsWithMetadata|JSONObjectEachRow|PrettyJSONEachRow)$/.test(format)) return 'application/json; charset=UTF-8';
  if (/^(TabSeparated|TSV|TabSeparatedRaw|TSVRaw|TabSeparatedWithNames|TSVWithNames|TabSeparatedWithNamesAndTypes|TSVWithNamesAndTypes)$/.test(format)) return 'text/tab-separated-values; charset=UTF-8';
  if (/^CSV$/.test(format)) return 'text/csv; charset=UTF-8; header=absent';
  if (/^CSVWith/.test(format)) return 'text/csv; charset=UTF-8; header=present';
  if (/^(RowBinary|Native|Parquet|Arrow|ArrowStream|ORC|Avro|MsgPack|Protobuf|CapnProto)/.test(format)) return 'application/octet-stream';
  return 'text/plain; charset=UTF-8';
}

function asciiHeader(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?');
}
