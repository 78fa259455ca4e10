import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../common/log.js';
import type { ServiceHandle } from '../common/service.js';
import { startConnectService, type ConnectApi } from '../cdc/connect/service.js';
import { connectPort, runSqlCommand } from './sql.js';

let h: ServiceHandle<ConnectApi>;
let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sql-'));
  h = await startConnectService({ host: '127.0.0.1', port: 0, dataDir: dir, log: silentLogger, peers: {} });
  env = { LOUPE_CONNECT_PORT: new URL(h.url).port };
});
afterAll(async () => {
  await h.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function sql(args: string[], stdin?: string): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSqlCommand(args, env, { out: (s) => out.push(s), err: (s) => err.push(s), stdin: () => (stdin === undefined ? undefined : Promise.resolve(stdin)) });
  return { code, out, err };
}

/** An INSERT of `rows` rows of 100 characters each: over 128 KB, more than one command-line argument may hold, from 1,400 rows. */
const bigInsert = (table: string, rows: number) => `INSERT INTO ${table} (id, name) VALUES ${Array.from({ length: rows }, (_, i) => `(${i + 1}, '${String(i).padStart(96, 'x')}')`).join(',\n')}`;

describe('loupe sql', () => {
  it('finds the connect service where loupe serve put it: LOUPE_CONNECT_PORT, else --port-base N + 4, else 8083', () => {
    // The same precedence as the host's (core/host/ports.ts): a variable wins over the base.
    expect(connectPort(9000, { LOUPE_CONNECT_PORT: '1234' })).toBe(1234);
    expect(connectPort(9000, {})).toBe(9004);
    expect(connectPort(undefined, { LOUPE_CONNECT_PORT: '1234' })).toBe(1234);
    expect(connectPort(undefined, {})).toBe(8083);
  });

  it('runs several statements and prints the last one as the mysql client does', async () => {
    const r = await sql(["INSERT INTO customers (id, name) VALUES (100, 'Linus'); SELECT id, name FROM customers WHERE id = 100"]);
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['+-----+-------+', '| id  | name  |', '+-----+-------+', '| 100 | Linus |', '+-----+-------+', '1 row in set']);
  });

  it('counts the warnings as the mysql client does, and SHOW WARNINGS lists them', async () => {
    expect((await sql(["INSERT IGNORE INTO customers (id, name) VALUES ('x1', 'a'), (101, REPEAT('n', 300))"])).out).toEqual(['Query OK, 2 rows affected, 2 warnings', 'Records: 2  Duplicates: 0  Warnings: 2']);
    expect((await sql(["SELECT 1 / 0, 'a' + 1"])).out.at(-1)).toBe('1 row in set, 2 warnings');
    // an UPDATE's info line: the rows it left as they were send no change event
    expect((await sql(["UPDATE customers SET name = 'a' WHERE id IN (0, 101)"])).out).toEqual(['Query OK, 1 row affected', 'Rows matched: 2  Changed: 1  Warnings: 0']);
    expect((await sql(['SELECT 1 / 0; SHOW WARNINGS'])).out).toEqual([
      '+---------+------+---------------+',
      '| Level   | Code | Message       |',
      '+---------+------+---------------+',
      '| Warning | 1365 | Division by 0 |',
      '+---------+------+---------------+',
      '1 row in set',
    ]);
  });

  it('--json prints an array of objects', async () => {
    const r = await sql(['--json', '--database', 'demo', 'SELECT id, name FROM customers WHERE id = 100']);
    expect(JSON.parse(r.out.join('\n'))).toEqual([{ id: 100, name: 'Linus' }]);
  });

  it('prints MySQL errors on stderr and exits 1', async () => {
    const r = await sql(['SELECT * FROM nope']);
    expect(r).toEqual({ code: 1, out: [], err: ["ERROR 1146 (42S02): Table 'demo.nope' doesn't exist"] });
    const dup = await sql(["INSERT INTO customers (id, name) VALUES (100, 'again')"]);
    expect(dup.err).toEqual(["ERROR 1062 (23000): Duplicate entry '100' for key 'customers.PRIMARY'"]);
  });

  it('says clearly when nothing listens', async () => {
    const r = await runSqlCommand(['SELECT 1'], { LOUPE_CONNECT_PORT: '1' }, { out: () => {}, err: (s) => expect(s).toMatch(/^ERROR 2003 \(HY000\): Can't connect/) });
    expect(r).toBe(1);
  });
});

describe('loupe sql with statements from a file or standard input', () => {
  it('--file runs a script larger than a command line holds', async () => {
    const script = `CREATE TABLE f (id INT PRIMARY KEY, name VARCHAR(100));\n${bigInsert('f', 2000)};\nSELECT COUNT(*) AS n FROM f;`;
    expect(Buffer.byteLength(script)).toBeGreaterThan(128 * 1024);
    const file = path.join(dir, 'script.sql');
    fs.writeFileSync(file, script);
    expect(await sql(['--file', file])).toEqual({ code: 0, out: ['+------+', '| n    |', '+------+', '| 2000 |', '+------+', '1 row in set'], err: [] });
  });

  it('reads standard input when no SQL is given, or with --file -', async () => {
    expect((await sql([], `CREATE TABLE s (id INT PRIMARY KEY, name VARCHAR(100)); ${bigInsert('s', 1500)}`)).out).toEqual(['Query OK, 1500 rows affected', 'Records: 1500  Duplicates: 0  Warnings: 0']);
    expect((await sql(['--json', '--file', '-'], 'SELECT COUNT(*) AS n FROM s')).out).toEqual(['[{"n":1500}]']);
  });

  it('the loupe command reads a 300 KB script piped to it', async () => {
    const script = `CREATE TABLE p (id INT PRIMARY KEY, name VARCHAR(100)); ${bigInsert('p', 3000)}; SELECT COUNT(*) FROM p`;
    expect(Buffer.byteLength(script)).toBeGreaterThan(300 * 1024);
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
    const child = spawn(process.execPath, [path.join(root, 'bin', 'loupe.mjs'), 'sql', '--json'], { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(script);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '[{"COUNT(*)":3000}]\n', stderr: '' });
  }, 60_000);

  it('says what is wrong with the file, and refuses SQL given twice', async () => {
    expect(await sql(['--file', path.join(dir, 'nope.sql')])).toMatchObject({ code: 2, err: [expect.stringMatching(/^loupe sql: cannot read .*nope\.sql: no such file$/)] });
    expect(await sql(['--file', '-'], '  \n')).toMatchObject({ code: 2, err: [expect.stringMatching(/^loupe sql: no SQL given \(standard input is empty\)/)] });
    expect(await sql(['--file', 'x.sql', 'SELECT 1'])).toMatchObject({ code: 2, err: [expect.stringMatching(/either as an argument or with --file, not both/)] });
  });
});

describe('loupe sql and BIGINT values beyond 2^53', () => {
  // through the connect service's POST /loupe/sql, whose answer used to fail on a bigint (500)
  beforeAll(async () => {
    const made = await sql(['CREATE TABLE big (id INT PRIMARY KEY, v BIGINT); INSERT INTO big VALUES (1, 4611686018427387907), (2, -9223372036854775808), (3, 9223372036854775807), (4, 42)']);
    expect(made.err).toEqual([]);
  });
  const run = async (args: string[]) => {
    const r = await sql(args);
    return [...r.out, ...r.err];
  };

  it('--json prints their exact digits, and small integers as they are', async () => {
    expect(await run(['--json', 'SELECT id, v FROM big ORDER BY id'])).toEqual(['[{"id":1,"v":4611686018427387907},{"id":2,"v":-9223372036854775808},{"id":3,"v":9223372036854775807},{"id":4,"v":42}]']);
  });

  it('the table prints their exact digits, right-aligned as numbers', async () => {
    expect(await run(['SELECT v FROM big ORDER BY id'])).toEqual(['+----------------------+', '| v                    |', '+----------------------+', '|  4611686018427387907 |', '| -9223372036854775808 |', '|  9223372036854775807 |', '|                   42 |', '+----------------------+', '4 rows in set']);
  });
});
