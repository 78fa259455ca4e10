/**
 * ClickHouse's HTTP interface (port 8123) over the embedded engine: URL parameters, body
 * handling, authentication, response headers and error bodies as a ClickHouse server sends
 * them. This file only maps HTTP to engine calls; the engine knows nothing about HTTP.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { Logger } from '../../common/log.js';
import { BodyTooLargeError, readBody } from '../../common/http.js';
import type { BrowserGuard } from '../../common/browser-guard.js';
import { uuid } from '../../common/ids.js';
import { ClickHouseError, chErrors, toClickHouseError } from './errors.js';
import type { ChEngine, ExecRequest, ExecResult, Summary } from './engine.js';

/** URL parameters the HTTP handler consumes itself; every other one is a setting. */
export const HANDLER_PARAMETERS: ReadonlySet<string> = new Set([
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
  /** Refuses what a web page makes a browser send (see browser-guard.ts); none in tests of the bare handler. */
  guard?: BrowserGuard;
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
  /** Requests holding a session, which ClickHouse refuses to share (SESSION_IS_LOCKED). */
  const sessionsInUse = new Set<string>();

  // WriteBufferFromHTTP1ServerResponse::finishSendHeaders writes X-ClickHouse-Summary and the
  // per-response X-ClickHouse-Exception-Tag on every query response, failed ones included.
  const sendError = (res: http.ServerResponse, err: ClickHouseError, started: bigint, tag: string) => {
    if (res.headersSent) return res.end();
    const body = err.render(version);
    res.writeHead(err.httpStatus, {
      ...baseHeaders(),
      'Content-Type': 'text/plain; charset=UTF-8',
      'X-ClickHouse-Exception-Code': String(err.code),
      ...(err.code === 194 ? { 'WWW-Authenticate': 'Basic realm="ClickHouse server HTTP API"' } : {}),
      'X-ClickHouse-Exception-Tag': tag,
      'X-ClickHouse-Summary': JSON.stringify(emptySummary(process.hrtime.bigint() - started)),
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  };

  return (req, res) => {
    const started = process.hrtime.bigint();
    const tag = exceptionTag();
    void (async () => {
      const uri = req.url ?? '/';
      const method = (req.method ?? 'GET').toUpperCase();
      const reading = method === 'GET' || method === 'HEAD';
      const refused = opts.guard?.refusal(req);
      if (refused) return sendError(res, new ClickHouseError(497, 'ACCESS_DENIED', refused), started, tag);

      // The default handlers of HTTPHandlerFactory.cpp: `/` and `/ping` match the whole URI,
      // `/replicas_status` its start, and the query handler takes GET/HEAD on `?…`, `/?…` and
      // `/query?…` and POST on those or a bare `/`.
      if (reading && (uri === '/' || uri === '/ping')) return plain(res, 'Ok.\n', baseHeaders(), method);
      if (reading && uri.startsWith('/replicas_status')) {
        // No replicated tables exist on a single node, so every replica is "ok".
        return plain(res, 'Ok.\n', baseHeaders(), method);
      }
      const queryPath = uri.startsWith('?') || uri.startsWith('/?') || uri.startsWith('/query?');
      const isQuery = (reading && queryPath) || ((method === 'POST' || method === 'OPTIONS') && (queryPath || uri === '/' || uri === ''));
      if (!isQuery) {
        if (reading || method === 'POST') return notFound(res, uri, method);
        // No handler for the method: HTTPServerConnection answers 501 with no body and closes.
        res.writeHead(501, { Connection: 'close', 'Content-Length': 0 });
        return res.end();
      }
      if (method === 'OPTIONS') {
        return sendError(res, new ClickHouseError(0, 'UNKNOWN_EXCEPTION', `HTTP method ${method} is not supported`), started, tag);
      }

      const url = new URL(uri.startsWith('?') ? `/${uri}` : uri, 'http://localhost');
      const header = (name: string) => {
        const v = req.headers[name];
        return typeof v === 'string' && v !== '' ? v : undefined;
      };
      // Control characters would let a query_id break the response headers it is echoed in.
      const queryId = [...(url.searchParams.get('query_id') ?? header('x-clickhouse-query-id') ?? '')].filter((c) => c >= ' ' && c !== '\x7f').join('') || uuid();

      try {
        authenticate(req, url, opts.users);
      } catch (err) {
        return sendError(res, toClickHouseError(err), started, tag);
      }

      let sessionId: string | undefined;
      let body: Buffer;
      try {
        if (url.searchParams.has('session_id')) {
          sessionId = url.searchParams.get('session_id')!;
          if (!sessionId) throw new ClickHouseError(744, 'SESSION_ID_EMPTY', 'Session id query parameter was provided, but it was empty');
          const timeout = parseSessionTimeout(url.searchParams.get('session_timeout'));
          if (sessionsInUse.has(sessionId)) throw new ClickHouseError(373, 'SESSION_IS_LOCKED', `Session ${sessionId} is locked by a concurrent client`);
          opts.engine.openSession(sessionId, timeout, url.searchParams.get('session_check') === '1');
        }
        body = await readBody(req, opts.maxBodyBytes ?? 1024 * 1024 * 1024);
        body = await decodeBody(body, String(req.headers['content-encoding'] ?? ''));
      } catch (err) {
        if (err instanceof BodyTooLargeError) return sendError(res, new ClickHouseError(229, 'QUERY_IS_TOO_LARGE', err.message), started, tag);
        return sendError(res, toClickHouseError(err), started, tag);
      }

      const params: Record<string, string> = {};
      const settings: Record<string, string> = {};
      let queryParam = url.searchParams.get('query');
      const contentType = String(req.headers['content-type'] ?? '');
      if (contentType.startsWith('multipart/form-data')) {
        // DynamicQueryHandler::getQuery: with form data the query and param_* come from the form
        // fields (@clickhouse/client sends long query parameters this way), and the body is no data.
        let fields: [string, string][];
        try {
          fields = parseMultipart(body, contentType);
        } catch (err) {
          return sendError(res, toClickHouseError(err), started, tag);
        }
        for (const [k, v] of fields) {
          if (k === 'query') queryParam = (queryParam ?? '') + v;
          else if (k.startsWith('param_')) params[k.slice(6)] ??= v;
        }
        body = Buffer.alloc(0);
      }
      for (const [k, v] of url.searchParams) {
        if (k.startsWith('param_')) params[k.slice(6)] ??= v;
        else if (k && !HANDLER_PARAMETERS.has(k)) settings[k] = v;
      }
      // A GET without a query reaches the query handler too, which finds nothing to run.
      if (!queryParam && body.length === 0) return sendError(res, chErrors.emptyQuery(), started, tag);

      const readonlyParam = url.searchParams.get('readonly');
      const database = header('x-clickhouse-database') ?? url.searchParams.get('database') ?? undefined;
      const defaultFormat = header('x-clickhouse-format') ?? url.searchParams.get('default_format') ?? undefined;
      const execReq: ExecRequest = {
        query: queryParam ?? '',
        ...(queryParam ? { data: body } : {}),
        settings,
        params,
        queryId,
        readonly: method !== 'POST' || readonlyParam === '1' || readonlyParam === '2',
        ...(defaultFormat ? { defaultFormat } : {}),
        ...(database ? { database } : {}),
        ...(sessionId ? { sessionId } : {}),
      };
      if (!queryParam) {
        // The whole body is the query (and, for INSERT … FORMAT, its data).
        execReq.query = body.toString('utf8');
        delete execReq.data;
      }

      let result: ExecResult;
      if (sessionId) sessionsInUse.add(sessionId);
      try {
        result = await opts.engine.exec(execReq);
      } catch (err) {
        const e = toClickHouseError(err);
        opts.log.debug('query failed', { queryId, code: e.code, name: e.name });
        return sendError(res, e, started, tag);
      } finally {
        if (sessionId) {
          sessionsInUse.delete(sessionId);
          if (flag(url.searchParams.get('close_session'))) opts.engine.closeSession(sessionId);
        }
      }

      // set_query_result in HTTPHandler.cpp: the format and its content type exist only for
      // queries with an output format; an INSERT or DDL keeps the handler's text/plain.
      const headers: Record<string, string | string[]> = {
        ...baseHeaders(),
        'Content-Type': result.format ? contentTypeFor(result.format) : 'text/plain; charset=UTF-8',
        'X-ClickHouse-Query-Id': queryId,
        ...(result.format ? { 'X-ClickHouse-Format': result.format } : {}),
        'X-ClickHouse-Timezone': opts.engine.timezone,
      };
      if (settings.send_progress_in_http_headers !== undefined && flag(settings.send_progress_in_http_headers)) {
        // Progress headers use Progress::DisplayMode::Minimal, which leaves out zero values.
        const s = result.summary;
        const progress = Object.fromEntries(Object.entries(s).filter(([, v]) => v !== '0'));
        headers['X-ClickHouse-Progress'] = JSON.stringify(progress);
      }
      headers['X-ClickHouse-Exception-Tag'] = tag;
      headers['X-ClickHouse-Summary'] = JSON.stringify(result.summary);
      if (result.notices.length) {
        headers['X-Loupe-Notice'] = result.notices.map(asciiHeader);
      }
      let out: Buffer = Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
      const compression = url.searchParams.has('enable_http_compression') ? flag(url.searchParams.get('enable_http_compression')) : true;
      const encoding = compression && out.length > 0 ? chooseResponseEncoding(String(req.headers['accept-encoding'] ?? '')) : undefined;
      if (encoding) {
        out = encoding === 'br' ? zlib.brotliCompressSync(out) : encoding === 'gzip' ? zlib.gzipSync(out) : zlib.deflateSync(out);
        headers['Content-Encoding'] = encoding;
      }
      headers['Content-Length'] = String(out.length);
      res.writeHead(200, headers);
      res.end(method === 'HEAD' ? undefined : out);
    })().catch((err) => {
      opts.log.error('clickhouse http handler failed', { error: (err as Error).message });
      sendError(res, toClickHouseError(err), started, tag);
    });
  };
}

function plain(res: http.ServerResponse, text: string, headers: Record<string, string>, method: string) {
  res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=UTF-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(method === 'HEAD' ? undefined : text);
}

/** NotFoundHandler.cpp: 404 with the request URI and where to go instead. */
function notFound(res: http.ServerResponse, uri: string, method: string) {
  const text =
    `There is no handle ${uri}\n\n` +
    'Use / or /ping for health checks.\n' +
    'Or /replicas_status for more sophisticated health checks.\n\n' +
    'Send queries from your program with POST method or GET /?query=...\n\n' +
    'Use clickhouse-client:\n\n' +
    'For interactive data analysis:\n' +
    '    clickhouse-client\n\n' +
    'For batch query processing:\n' +
    "    clickhouse-client --query='SELECT 1' > result\n" +
    '    clickhouse-client < query > result\n';
  res.writeHead(404, { 'Content-Length': Buffer.byteLength(text) });
  res.end(method === 'HEAD' ? undefined : text);
}

/** What HTMLForm::getParsed<bool> accepts as true. */
function flag(v: string | null): boolean {
  return v !== null && /^(1|true)$/i.test(v.trim());
}

function emptySummary(elapsed: bigint): Summary {
  return { read_rows: '0', read_bytes: '0', written_rows: '0', written_bytes: '0', total_rows_to_read: '0', result_rows: '0', result_bytes: '0', elapsed_ns: String(elapsed) };
}

/** getRandomASCIIString(EXCEPTION_TAG_LENGTH): 16 lower-case letters, fresh per response. */
function exceptionTag(): string {
  const bytes = crypto.randomBytes(16);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(97 + (b % 26));
  return s;
}

/** parseSessionTimeout in HTTPHandler.cpp: default_session_timeout 60 s, max_session_timeout 3600 s. */
function parseSessionTimeout(value: string | null): number {
  if (value === null) return 60;
  if (!/^\+?\d+$/.test(value)) throw new ClickHouseError(374, 'INVALID_SESSION_TIMEOUT', `Invalid session timeout: '${value}'`);
  const n = Number(value);
  if (n > 3600) {
    throw new ClickHouseError(
      374,
      'INVALID_SESSION_TIMEOUT',
      `Session timeout '${value}' is larger than max_session_timeout: 3600. Maximum session timeout could be modified in configuration file.`,
    );
  }
  return n;
}

/**
 * Credentials as authenticateUserByHTTP.cpp reads them: X-ClickHouse-User/Key headers, else an
 * Authorization header, else user/password parameters (user `default` when none); mixing two of
 * these is refused.
 */
function authenticate(req: http.IncomingMessage, url: URL, users: Record<string, string>): void {
  const failed = (detail: string) => new ClickHouseError(516, 'AUTHENTICATION_FAILED', detail);
  const mixed = (a: string, b: string) => failed(`Invalid authentication: it is not allowed to use ${a} and ${b} simultaneously`);
  const emptyUser = (from: string) => failed(`Got an empty user name from ${from}`);
  const headerUser = String(req.headers['x-clickhouse-user'] ?? '');
  const headerKey = String(req.headers['x-clickhouse-key'] ?? '');
  const auth = req.headers.authorization;
  const inParams = url.searchParams.has('user') || url.searchParams.has('password');
  let user: string;
  let key: string;
  if (headerUser || headerKey) {
    if (!headerUser) throw emptyUser('X-ClickHouse HTTP headers');
    if (auth) throw mixed('X-ClickHouse HTTP headers', 'Authorization HTTP header');
    if (inParams) throw mixed('X-ClickHouse HTTP headers', 'authentication via parameters');
    user = headerUser;
    key = headerKey;
  } else if (auth) {
    if (inParams) throw mixed('Authorization HTTP header', 'authentication via parameters');
    const space = auth.indexOf(' ');
    const scheme = space < 0 ? auth : auth.slice(0, space);
    if (scheme.toLowerCase() !== 'basic') throw failed(`Invalid authentication: '${scheme}' HTTP Authorization scheme is not supported`);
    const decoded = Buffer.from(auth.slice(space + 1).trim(), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    user = i < 0 ? decoded : decoded.slice(0, i);
    key = i < 0 ? '' : decoded.slice(i + 1);
    if (!user) throw emptyUser('Authorization HTTP header');
  } else {
    user = url.searchParams.get('user') ?? 'default';
    key = url.searchParams.get('password') ?? '';
    if (!user) throw emptyUser('authentication via parameters');
  }
  const expected = users[user];
  if (expected === undefined || expected !== key) throw chErrors.authFailed(user);
}

/** The request body as Content-Encoding says (chooseCompressionMethod in IO/CompressionMethod.cpp). */
async function decodeBody(body: Buffer, encoding: string): Promise<Buffer> {
  const enc = encoding.trim().toLowerCase();
  if (!enc || enc === 'auto' || enc === 'none') return body;
  const inflateFailed = (err: unknown) => {
    const code = (err as { code?: string }).code;
    const what = code === 'Z_DATA_ERROR' ? 'data error' : code === 'Z_BUF_ERROR' ? 'buffer error' : (err as Error).message;
    return new ClickHouseError(354, 'ZLIB_INFLATE_FAILED', `inflate failed: ${what}`);
  };
  if (enc === 'gzip' || enc === 'gz') return gunzip(body).catch((err) => Promise.reject(inflateFailed(err)));
  if (enc === 'deflate') return inflate(body).catch((err) => Promise.reject(inflateFailed(err)));
  if (enc === 'br' || enc === 'brotli') {
    return brotliDecompress(body).catch((err) => Promise.reject(new ClickHouseError(448, 'BROTLI_READ_FAILED', `brotli decode error: ${(err as Error).message}`)));
  }
  if (['xz', 'lzma', 'zstd', 'zst', 'lz4', 'bz2', 'snappy'].includes(enc)) {
    // ClickHouse reads these; Node 20's zlib has no decoder for them.
    throw new ClickHouseError(48, 'NOT_IMPLEMENTED', `Request bodies compressed with '${encoding.trim()}' are not supported by embedded ClickHouse; use gzip, deflate or br`);
  }
  throw new ClickHouseError(
    48,
    'NOT_IMPLEMENTED',
    `Unknown compression method '${encoding.trim()}'. Only 'auto', 'none', 'gzip', 'deflate', 'br', 'xz', 'zstd', 'lz4', 'bz2', 'snappy' are supported as compression methods`,
  );
}

/**
 * chooseHTTPCompressionMethod: the first of zstd, br, lz4, snappy, gzip, deflate, xz, bz2 that
 * occurs anywhere in Accept-Encoding. Those Node 20 cannot write (zstd, lz4, snappy, xz, bz2) are
 * passed over for the next one the client accepts.
 */
export function chooseResponseEncoding(accept: string): 'br' | 'gzip' | 'deflate' | undefined {
  for (const m of ['br', 'gzip', 'deflate'] as const) if (accept.includes(m)) return m;
  return undefined;
}

/** Fields of a multipart/form-data body (name → text); file parts are external tables, which chDB here does not take. */
function parseMultipart(body: Buffer, contentType: string): [string, string][] {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2]?.trim();
  if (!boundary) throw new ClickHouseError(36, 'BAD_ARGUMENTS', 'multipart/form-data request without a boundary');
  const text = body.toString('latin1');
  const delimiter = `--${boundary}`;
  const fields: [string, string][] = [];
  for (const part of text.split(delimiter).slice(1)) {
    if (part.startsWith('--')) break;
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd < 0) continue;
    const head = part.slice(0, headEnd);
    let value = part.slice(headEnd + 4);
    if (value.endsWith('\r\n')) value = value.slice(0, -2);
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) continue;
    if (/filename=/i.test(head)) {
      throw new ClickHouseError(48, 'NOT_IMPLEMENTED', `External data (file part '${name}' of multipart/form-data) is not supported by embedded ClickHouse`);
    }
    fields.push([name, Buffer.from(value, 'latin1').toString('utf8')]);
  }
  return fields;
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
