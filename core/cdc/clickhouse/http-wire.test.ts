/**
 * The HTTP interface on the wire, request by request, against what ClickHouse's server source
 * does (src/Server/HTTPHandler.cpp, HTTPHandlerFactory.cpp, HTTP/authenticateUserByHTTP.cpp,
 * HTTP/WriteBufferFromHTTP1ServerResponse.cpp, IO/CompressionMethod.cpp, Interpreters/Session.cpp).
 * Raw http.request is used where fetch would hide the wire (it decompresses and adds headers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import zlib from 'node:zlib';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@clickhouse/client';
import initSqlJs from 'sql.js';
import { memoryLogger } from '../../common/log.js';
import type { ServiceHandle } from '../../common/service.js';
import { startClickHouseService, type ClickHouseApi } from './service.js';

let dir: string;
let ch: ServiceHandle<ClickHouseApi>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-ch-wire-'));
  ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: dir, log: memoryLogger(), peers: {} });
});
afterAll(async () => {
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function raw(method: string, uri: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<Raw> {
  const { port } = new URL(ch.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: uri, headers: { ...headers, ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const q = (sql: string, extra = '') => `/?query=${encodeURIComponent(sql)}${extra}`;

describe('authentication (authenticateUserByHTTP.cpp)', () => {
  it('refuses mixed credentials with AUTHENTICATION_FAILED and 403, naming both methods', async () => {
    const basic = `Basic ${Buffer.from('default:').toString('base64')}`;
    const a = await raw('GET', q('SELECT 1'), { 'X-ClickHouse-User': 'default', Authorization: basic });
    expect([a.status, a.headers['x-clickhouse-exception-code']]).toEqual([403, '516']);
    expect(a.body.toString()).toMatch(
      /^Code: 516\. DB::Exception: Invalid authentication: it is not allowed to use X-ClickHouse HTTP headers and Authorization HTTP header simultaneously\. \(AUTHENTICATION_FAILED\) \(version [\d.]+\)\n$/,
    );
    const b = await raw('GET', q('SELECT 1', '&password='), { 'X-ClickHouse-User': 'default' });
    expect(b.body.toString()).toContain('it is not allowed to use X-ClickHouse HTTP headers and authentication via parameters simultaneously. (AUTHENTICATION_FAILED)');
    const c = await raw('GET', q('SELECT 1', '&user=default'), { Authorization: basic });
    expect([c.status, c.body.toString()]).toEqual([403, expect.stringContaining('it is not allowed to use Authorization HTTP header and authentication via parameters simultaneously')]);
  });

  it('names an empty user and an unsupported Authorization scheme', async () => {
    const empty = await raw('GET', q('SELECT 1', '&user='));
    expect([empty.status, empty.body.toString()]).toEqual([403, expect.stringContaining('DB::Exception: Got an empty user name from authentication via parameters. (AUTHENTICATION_FAILED)')]);
    const keyOnly = await raw('GET', q('SELECT 1'), { 'X-ClickHouse-Key': 'secret' });
    expect(keyOnly.body.toString()).toContain('Got an empty user name from X-ClickHouse HTTP headers');
    const bearer = await raw('GET', q('SELECT 1'), { Authorization: 'Bearer abc' });
    expect(bearer.body.toString()).toContain("Invalid authentication: 'Bearer' HTTP Authorization scheme is not supported. (AUTHENTICATION_FAILED)");
  });
});

describe('what a web page can make a browser send (Loupe refuses it; a server has no such guard)', () => {
  it('refuses a cross-site POST and a rebound Host with ACCESS_DENIED and 403, and runs nothing', async () => {
    await raw('POST', '/', {}, 'CREATE TABLE IF NOT EXISTS wire_guarded (a UInt8) ENGINE = MergeTree ORDER BY a');
    // text/plain needs no preflight: any page can send this
    const cross = await raw('POST', '/', { Origin: 'https://evil.example', 'Content-Type': 'text/plain' }, 'DROP TABLE wire_guarded');
    expect([cross.status, cross.headers['x-clickhouse-exception-code']]).toEqual([403, '497']);
    expect(cross.body.toString()).toMatch(/^Code: 497\. DB::Exception: Requests from origin https:\/\/evil\.example are refused: .*\. \(ACCESS_DENIED\) \(version [\d.]+\)\n$/);
    const { port } = new URL(ch.url);
    const rebound = await raw('POST', '/', { Host: `evil.example:${port}` }, 'DROP TABLE wire_guarded');
    expect([rebound.status, rebound.headers['x-clickhouse-exception-code']]).toEqual([403, '497']);
    expect(rebound.body.toString()).toMatch(/^Code: 497\. DB::Exception: Host header "evil\.example:\d+" does not name this machine's loopback interface/);
    expect((await raw('GET', q("EXISTS TABLE wire_guarded"))).body.toString()).toBe('1\n');
    // the server's own origin, and clients that send none, get in
    expect((await raw('GET', q('SELECT 1'), { Origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect((await raw('GET', q('SELECT 1'), { Host: `localhost:${port}` })).status).toBe(200);
  });
});

describe('local files (executeQuery allow_into_outfile, InterpreterInsertQuery, StorageFile user_files)', () => {
  it('keeps file() inside user_files and refuses INTO OUTFILE and FROM INFILE, where chDB alone would take any path', async () => {
    const w = await raw('POST', '/', {}, "INSERT INTO FUNCTION file('wire.tsv', 'TSV', 'a UInt8') VALUES (7)");
    expect(w.status).toBe(200);
    expect(readFileSync(path.join(dir, 'chdb', 'user_files', 'wire.tsv'), 'utf8')).toBe('7\n');
    expect((await raw('GET', q("SELECT a FROM file('wire.tsv', 'TSV', 'a UInt8')"))).body.toString()).toBe('7\n');

    const outside = path.join(dir, 'outside.txt');
    const escape = await raw('POST', '/', {}, `INSERT INTO FUNCTION file('../../outside.txt', 'LineAsString') VALUES ('x')`);
    expect([escape.status, escape.headers['x-clickhouse-exception-code']]).toEqual([500, '291']);
    expect(escape.body.toString()).toBe(`Code: 291. DB::Exception: File \`${outside}\` is not inside \`${path.join(dir, 'chdb', 'user_files')}/\`. (DATABASE_ACCESS_DENIED) (version ${ch.api.version})\n`);
    expect(existsSync(outside)).toBe(false);

    const out = await raw('POST', '/', {}, `SELECT 1 INTO OUTFILE '${outside}'`);
    expect(out.body.toString()).toMatch(/^Code: 358\. DB::Exception: INTO OUTFILE is not allowed\. \(INTO_OUTFILE_NOT_ALLOWED\)/);
    expect(existsSync(outside)).toBe(false);
    const inf = await raw('POST', '/', {}, "INSERT INTO wire_t FROM INFILE '/etc/hostname' FORMAT LineAsString");
    expect(inf.body.toString()).toMatch(/^Code: 78\. DB::Exception: Query has infile and was send directly to server\. \(UNKNOWN_TYPE_OF_QUERY\)/);

    // the File engine keeps its data in the table's directory, or in user_files when given a path
    for (const [table, engine] of [['wire_file_own', 'File(TSV)'], ['wire_file_path', "File(TSV, 'wire_engine.tsv')"]]) {
      expect((await raw('POST', '/', {}, `CREATE TABLE ${table} (a UInt8) ENGINE = ${engine}`)).status).toBe(200);
      expect((await raw('POST', '/', {}, `INSERT INTO ${table} VALUES (5)`)).status).toBe(200);
      expect((await raw('GET', q(`SELECT a FROM ${table}`))).body.toString()).toBe('5\n');
    }
    expect(readFileSync(path.join(dir, 'chdb', 'user_files', 'wire_engine.tsv'), 'utf8')).toBe('5\n');

    // sqlite() reads a database file in user_files, and nowhere else
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run("CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x')");
    writeFileSync(path.join(dir, 'chdb', 'user_files', 'wire.sqlite'), db.export());
    db.close();
    expect((await raw('GET', q("SELECT a, b FROM sqlite('wire.sqlite', 't')"))).body.toString()).toBe('1\tx\n');
    const away = await raw('GET', q("SELECT * FROM sqlite('/etc/wire.sqlite', 't')"));
    expect([away.status, away.body.toString()]).toEqual([500, `Code: 481. DB::Exception: SQLite database file path '/etc/wire.sqlite' must be inside 'user_files' directory. (PATH_ACCESS_DENIED) (version ${ch.api.version})\n`]);
  });
});

describe('a query that reads from this same server', () => {
  it("answers url() on the embedded server itself, as a server does (one chDB connection waited 5.5 minutes for itself)", async () => {
    const { port } = new URL(ch.url);
    const self = await raw('POST', '/', {}, `SELECT * FROM url('http://localhost:${port}/?query=SELECT%20123', 'LineAsString')`);
    expect([self.status, self.body.toString()]).toEqual([200, '123\n']);
  });
});

describe('routing (HTTPHandlerFactory.cpp, NotFoundHandler.cpp)', () => {
  it('serves queries on /query? and answers an empty query over GET as Empty query', async () => {
    const viaQuery = await raw('POST', '/query?query=SELECT%207');
    expect([viaQuery.status, viaQuery.body.toString()]).toEqual([200, '7\n']);
    const noQuery = await raw('GET', '/?database=default');
    expect([noQuery.status, noQuery.headers['x-clickhouse-exception-code']]).toEqual([400, '62']);
    expect(noQuery.body.toString()).toMatch(/^Code: 62\. DB::Exception: Empty query\. \(SYNTAX_ERROR\)/);
  });

  it('answers unknown handles with the full URI and methods without a handler with 501', async () => {
    const nf = await raw('GET', '/nope?x=1');
    expect(nf.status).toBe(404);
    expect(nf.body.toString()).toBe(
      'There is no handle /nope?x=1\n\nUse / or /ping for health checks.\nOr /replicas_status for more sophisticated health checks.\n\n' +
        "Send queries from your program with POST method or GET /?query=...\n\nUse clickhouse-client:\n\nFor interactive data analysis:\n    clickhouse-client\n\nFor batch query processing:\n    clickhouse-client --query='SELECT 1' > result\n    clickhouse-client < query > result\n",
    );
    // `/ping` is a strict path: with a query string it is no handler's
    expect((await raw('GET', '/ping?x=1')).status).toBe(404);
    const put = await raw('PUT', '/', {}, 'SELECT 1');
    expect([put.status, put.body.length, put.headers.connection]).toEqual([501, 0, 'close']);
    const head = await raw('HEAD', '/ping');
    expect([head.status, head.body.length]).toEqual([200, 0]);
  });
});

describe('response headers (HTTPHandler.cpp set_query_result, WriteBufferFromHTTP1ServerResponse.cpp)', () => {
  it('sends a 16-letter X-ClickHouse-Exception-Tag and X-ClickHouse-Summary on success and error, query id and format only with results', async () => {
    const ok = await raw('GET', q('SELECT 1'));
    expect(ok.headers['x-clickhouse-exception-tag']).toMatch(/^[a-z]{16}$/);
    const err = await raw('GET', q('SELECT * FROM no_such_table_wire'));
    expect(err.status).toBe(404);
    expect(err.headers['x-clickhouse-exception-tag']).toMatch(/^[a-z]{16}$/);
    expect(err.headers['x-clickhouse-exception-tag']).not.toBe(ok.headers['x-clickhouse-exception-tag']);
    expect(Object.keys(JSON.parse(String(err.headers['x-clickhouse-summary'])))).toEqual(['read_rows', 'read_bytes', 'written_rows', 'written_bytes', 'total_rows_to_read', 'result_rows', 'result_bytes', 'elapsed_ns']);
    // the query fails before executeQuery reports result details
    expect(err.headers['x-clickhouse-query-id']).toBeUndefined();
    expect(err.headers['x-clickhouse-format']).toBeUndefined();
    expect(err.headers['content-type']).toBe('text/plain; charset=UTF-8');

    await raw('POST', '/', {}, 'CREATE TABLE IF NOT EXISTS wire_t (a UInt8) ENGINE = MergeTree ORDER BY a');
    const ins = await raw('POST', q('INSERT INTO wire_t FORMAT JSONEachRow'), {}, '{"a":1}');
    expect(ins.status).toBe(200);
    expect(ins.headers['x-clickhouse-format']).toBeUndefined();
    expect(ins.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(ins.headers['x-clickhouse-query-id']).toBeTruthy();
  });

  it('sends an exception once, with its class, though chDB nests some in themselves', async () => {
    for (const uri of [q('SELECT 1 FORMAT Nope'), q('SELECT 1', '&default_format=Nope')]) {
      const r = await raw('GET', uri);
      expect([r.status, r.headers['x-clickhouse-exception-code']]).toEqual([404, '73']);
      expect(r.body.toString()).toMatch(/^Code: 73\. DB::Exception: Unknown format Nope\. Maybe you meant: \[[^\]]*\]\. \(UNKNOWN_FORMAT\) \(version [\d.]+\)\n$/);
    }
    // and an exception of another class keeps its name, as a server's displayText() gives it
    const file = await raw('GET', q("SELECT * FROM file('loupe_no_such_file.csv')"));
    expect([file.status, file.headers['x-clickhouse-exception-code']]).toEqual([500, '400']);
    expect(file.body.toString()).toMatch(/^Code: 400\. DB::ErrnoException: Cannot stat file \S*loupe_no_such_file\.csv: [^\n]*\. \(CANNOT_STAT\) \(version [\d.]+\)\n$/);
  });

  it('takes the query id, database and format from X-ClickHouse-* request headers', async () => {
    await raw('POST', '/', {}, 'CREATE DATABASE IF NOT EXISTS wire_db');
    const r = await raw('POST', '/', { 'X-ClickHouse-Query-Id': 'hdr-id-1', 'X-ClickHouse-Database': 'wire_db', 'X-ClickHouse-Format': 'JSONEachRow' }, 'SELECT currentDatabase() AS d');
    expect(r.headers['x-clickhouse-query-id']).toBe('hdr-id-1');
    expect(r.headers['x-clickhouse-format']).toBe('JSONEachRow');
    expect(r.body.toString()).toBe('{"d":"wire_db"}\n');
  });

  it('leaves zero values out of X-ClickHouse-Progress (Progress::DisplayMode::Minimal)', async () => {
    const r = await raw('GET', q('SELECT number FROM numbers(10)', '&send_progress_in_http_headers=1'));
    const progress = JSON.parse(String(r.headers['x-clickhouse-progress'])) as Record<string, string>;
    expect(progress.read_rows).toBe('10');
    expect(progress).not.toHaveProperty('written_rows');
  });
});

describe('compression (IO/CompressionMethod.cpp, enable_http_compression defaults to 1)', () => {
  it('compresses whenever Accept-Encoding allows, preferring br over gzip, unless enable_http_compression=0', async () => {
    const br = await raw('GET', q('SELECT 1'), { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe('1\n');
    const gz = await raw('GET', q('SELECT 2'), { 'Accept-Encoding': 'gzip' });
    expect(zlib.gunzipSync(gz.body).toString()).toBe('2\n');
    const off = await raw('GET', q('SELECT 3', '&enable_http_compression=0'), { 'Accept-Encoding': 'gzip' });
    expect([off.headers['content-encoding'], off.body.toString()]).toEqual([undefined, '3\n']);
  });

  it('reports bodies it cannot decode as ClickHouse does', async () => {
    const bad = await raw('POST', '/', { 'Content-Encoding': 'gzip' }, Buffer.from('not gzip at all'));
    expect(bad.headers['x-clickhouse-exception-code']).toBe('354');
    expect(bad.body.toString()).toMatch(/^Code: 354\. DB::Exception: inflate failed: .*\(ZLIB_INFLATE_FAILED\)/);
    const unknown = await raw('POST', '/', { 'Content-Encoding': 'identity' }, 'SELECT 1');
    expect([unknown.status, unknown.headers['x-clickhouse-exception-code']]).toEqual([501, '48']);
    expect(unknown.body.toString()).toContain("Unknown compression method 'identity'. Only 'auto', 'none', 'gzip', 'deflate', 'br', 'xz', 'zstd', 'lz4', 'bz2', 'snappy' are supported as compression methods. (NOT_IMPLEMENTED)");
  });
});

describe('sessions (HTTPHandler.cpp parseSessionTimeout, Session.cpp)', () => {
  it('validates session_id and session_timeout', async () => {
    const empty = await raw('GET', q('SELECT 1', '&session_id='));
    expect(empty.body.toString()).toMatch(/^Code: 744\. DB::Exception: Session id query parameter was provided, but it was empty\. \(SESSION_ID_EMPTY\)/);
    const bad = await raw('GET', q('SELECT 1', '&session_id=s1&session_timeout=abc'));
    expect(bad.body.toString()).toMatch(/^Code: 374\. DB::Exception: Invalid session timeout: 'abc'\. \(INVALID_SESSION_TIMEOUT\)/);
    const big = await raw('GET', q('SELECT 1', '&session_id=s1&session_timeout=3601'));
    expect(big.body.toString()).toContain("Session timeout '3601' is larger than max_session_timeout: 3600. Maximum session timeout could be modified in configuration file. (INVALID_SESSION_TIMEOUT)");
  });

  it('finds sessions with session_check=1, closes them with close_session=1 and locks them while in use', async () => {
    const missing = await raw('GET', q('SELECT 1', '&session_id=wire-missing&session_check=1'));
    expect(missing.body.toString()).toMatch(/^Code: 372\. DB::Exception: Session wire-missing not found\. \(SESSION_NOT_FOUND\)/);
    expect((await raw('GET', q('SELECT 1', '&session_id=wire-s'))).status).toBe(200);
    expect((await raw('GET', q('SELECT 1', '&session_id=wire-s&session_check=1'))).body.toString()).toBe('1\n');
    expect((await raw('GET', q('SELECT 1', '&session_id=wire-s&close_session=1'))).status).toBe(200);
    expect((await raw('GET', q('SELECT 1', '&session_id=wire-s&session_check=1'))).headers['x-clickhouse-exception-code']).toBe('372');

    const slow = raw('GET', q('SELECT sleep(0.5)', '&session_id=wire-lock'));
    await new Promise((r) => setTimeout(r, 100));
    const locked = await raw('GET', q('SELECT 1', '&session_id=wire-lock'));
    expect(locked.body.toString()).toMatch(/^Code: 373\. DB::Exception: Session wire-lock is locked by a concurrent client\. \(SESSION_IS_LOCKED\)/);
    expect((await slow).status).toBe(200);
  });

  it('runs requests side by side, as a server does, and keeps what a session did to itself', async () => {
    // a long query does not hold the others (one chDB connection did: SELECT 1 waited for it)
    const slow = raw('GET', q('SELECT sleep(2)')).then((r) => ({ which: 'slow', r }));
    await new Promise((r) => setTimeout(r, 100));
    const fast = raw('GET', q('SELECT 1')).then((r) => ({ which: 'fast', r }));
    const first = await Promise.race([slow, fast]);
    expect([first.which, first.r.body.toString()]).toEqual(['fast', '1\n']);
    expect((await slow).r.status).toBe(200);
    // USE, SET and a temporary table in a session last for its requests ...
    const s = '&session_id=wire-side';
    await raw('POST', q('USE system', s));
    await raw('POST', q('SET max_threads = 3', s));
    await raw('POST', q('CREATE TEMPORARY TABLE wire_tmp (a UInt8)', s));
    await raw('POST', q('INSERT INTO wire_tmp VALUES (1)', s));
    expect((await raw('GET', q("SELECT currentDatabase(), getSetting('max_threads'), (SELECT count() FROM wire_tmp)", s))).body.toString()).toBe('system\t3\t1\n');
    // ... and nothing of them reaches a request without the session, nor did a session-less USE
    // (it used to leave the one connection in that database for whatever request came next)
    await raw('POST', '/', {}, 'USE system');
    expect((await raw('GET', q("SELECT currentDatabase(), getSetting('max_threads') = 3"))).body.toString()).toBe('default\t0\n');
  });

  it('drops a temporary table made without a session when its request ends, as a server’s request context does', async () => {
    for (let i = 0; i < 3; i++) {
      // created again each time (it would exist from the last request if it lived on in its lane) ...
      const made = await raw('POST', '/', {}, 'CREATE TEMPORARY TABLE wire_gone (a UInt8)');
      expect([made.status, made.body.toString()]).toEqual([200, '']);
      // ... and no later request finds it
      const read = await raw('GET', q('SELECT count() FROM wire_gone'));
      expect(read.body.toString()).toMatch(/^Code: 60\. DB::Exception: .*wire_gone.* \(UNKNOWN_TABLE\)/s);
    }
    // a session's temporary table of the same name stays, IF NOT EXISTS without a session or not
    const s = '&session_id=wire-tmp-keep';
    await raw('POST', q('CREATE TEMPORARY TABLE wire_gone (a UInt8)', s));
    await raw('POST', q('INSERT INTO wire_gone VALUES (7)', s));
    await raw('POST', '/', {}, 'CREATE TEMPORARY TABLE IF NOT EXISTS wire_gone (a UInt8)');
    expect((await raw('GET', q('SELECT sum(a) FROM wire_gone', s))).body.toString()).toBe('7\n');
  });
});

describe('@clickhouse/client against the interface', () => {
  it('runs queries whose parameters it sends as multipart/form-data (more than 4096 characters)', async () => {
    const client = createClient({ url: ch.url });
    try {
      const values = Array.from({ length: 600 }, (_, i) => `value-${i}`);
      const rs = await client.query({ query: 'SELECT length({v:Array(String)}) AS n, {v:Array(String)}[600] AS last', format: 'JSONEachRow', query_params: { v: values } });
      expect(await rs.json()).toEqual([{ n: 600, last: 'value-599' }]);
    } finally {
      await client.close();
    }
  });
});
