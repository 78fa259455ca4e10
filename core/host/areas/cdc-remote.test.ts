/**
 * The console's remote source through the host contract (`cdc.remoteSql`), as the UI calls it,
 * against a private MariaDB server (Debian's mariadbd; skipped without it, failing under CI=true).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log.js';
import { mariadbTests, startMariaDb, type MariaDbServer } from '../../cdc/source/testing/mariadb-server.js';
import { createHost, type Host } from '../host.js';
import { echoRegistry } from '../testing/echo-service.js';
import { freePortBase } from '../../common/testing/free-port.js';

const mariadb = mariadbTests();
if (mariadb.skip) console.warn(`cdc-remote.test.ts: MariaDB tests ${mariadb.reason}`);

describe.skipIf(mariadb.skip)(`cdc.remoteSql against a real MariaDB server${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  let server: MariaDbServer;
  let host: Host;
  let dataDir: string;
  let connection: { host: string; port: number; user: string; password: string };

  beforeAll(async () => {
    server = await startMariaDb();
    connection = { host: server.host, port: server.port, user: server.user, password: server.password };
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'loupe-cdc-remote-'));
    // No embedded service is started: the remote console needs none.
    host = await createHost({ dataDir, portBase: await freePortBase(), env: {}, log: silentLogger, registry: echoRegistry() });
  }, 90_000);

  afterAll(async () => {
    await host?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs a script on the server and answers every statement, in JSON the UI can take as it is', async () => {
    const outcome = await host.call('cdc.remoteSql', {
      connection,
      sql: "CREATE DATABASE shop; USE shop; CREATE TABLE orders (id BIGINT UNSIGNED PRIMARY KEY, placed DATETIME, amount DECIMAL(10,2), code VARBINARY(4)); INSERT INTO orders VALUES (18446744073709551615, '2024-01-02 03:04:05', 12.5, 'ab'); SELECT * FROM orders",
    });
    expect(outcome.ok).toBe(true);
    // Over `loupe serve` the outcome travels as JSON: it must survive that unchanged.
    expect(JSON.parse(JSON.stringify(outcome))).toEqual(outcome);
    const { results } = (outcome as { ok: true; result: { results: { sql: string; kind: string; columns: string[]; rows: unknown[][]; affectedRows: number; database: string | null }[] } }).result;
    expect(results.map((r) => [r.kind, r.affectedRows, r.database])).toEqual([
      ['ok', 1, null],
      ['ok', 0, 'shop'],
      ['ok', 0, 'shop'],
      ['ok', 1, 'shop'],
      ['rows', 0, 'shop'],
    ]);
    expect(results[4]).toMatchObject({ sql: 'SELECT * FROM orders', columns: ['id', 'placed', 'amount', 'code'], rows: [['18446744073709551615', '2024-01-02 03:04:05', '12.50', '6162']] });
    // What the mysql client prints for the same row.
    expect((await server.cli('SELECT id, placed, amount, HEX(code) FROM orders', { database: 'shop' })).rows).toEqual([['18446744073709551615', '2024-01-02 03:04:05', '12.50', '6162']]);
  });

  it('starts in the database the call names', async () => {
    const outcome = await host.call('cdc.remoteSql', { connection, database: 'shop', sql: 'SELECT DATABASE(), COUNT(*) FROM orders' });
    expect(outcome).toMatchObject({ ok: true, result: { results: [{ database: 'shop', rows: [['shop', 1]] }] } });
  });

  it("a failing statement is a failed call whose detail is the server's error, errno and SQLSTATE kept", async () => {
    const outcome = await host.call('cdc.remoteSql', { connection, database: 'shop', sql: 'SELECT 1; SELECT * FROM nope' });
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: 'failed',
        message: "ERROR 1146 (42S02): Table 'shop.nope' doesn't exist",
        detail: { errno: 1146, sqlState: '42S02', message: "Table 'shop.nope' doesn't exist", text: "ERROR 1146 (42S02): Table 'shop.nope' doesn't exist" },
      },
    });
    const dup = await host.call('cdc.remoteSql', { connection, database: 'shop', sql: "INSERT INTO orders (id) VALUES (18446744073709551615)" });
    expect(dup).toMatchObject({ ok: false, error: { detail: { errno: 1062, sqlState: '23000', message: "Duplicate entry '18446744073709551615' for key 'PRIMARY'" } } });
  });

  it('a wrong password is ERROR 1045, and nothing listening is ERROR 2003', async () => {
    const denied = await host.call('cdc.remoteSql', { connection: { ...connection, password: 'wrong' }, sql: 'SELECT 1' });
    expect(denied).toMatchObject({ ok: false, error: { code: 'failed', message: "ERROR 1045 (28000): Access denied for user 'loupe'@'127.0.0.1' (using password: YES)", detail: { errno: 1045, sqlState: '28000' } } });
    const refused = await host.call('cdc.remoteSql', { connection: { host: '127.0.0.1', port: 1, user: 'loupe' }, sql: 'SELECT 1' });
    expect(refused).toMatchObject({ ok: false, error: { detail: { errno: 2003, sqlState: 'HY000', message: "Can't connect to MySQL server on '127.0.0.1:1' (ECONNREFUSED)" } } });
  });

  it('a connection without a user is refused before anything is sent', async () => {
    const outcome = await host.call('cdc.remoteSql', { connection: { host: server.host, port: server.port }, sql: 'SELECT 1' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'bad_params' } });
  });
});
