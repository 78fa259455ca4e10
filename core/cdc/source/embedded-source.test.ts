import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedSource } from './embedded-source.js';
import { MySqlError } from './mysql-error.js';
import { splitStatements } from './sql-split.js';

const dirs: string[] = [];
const open: EmbeddedSource[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-src-'));
  dirs.push(d);
  return d;
}
async function start(dir: string, extra: Partial<Parameters<typeof EmbeddedSource.open>[0]> = {}): Promise<EmbeddedSource> {
  const s = await EmbeddedSource.open({ dir, ...extra });
  open.push(s);
  return s;
}
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(MySqlError);
    return String(err);
  }
  throw new Error('expected an error');
}

describe('embedded MySQL-like source', () => {
  it('starts with demo.customers as the spec describes, with a few rows', async () => {
    const s = await start(tmp());
    expect(await s.listDatabases()).toEqual(['demo']);
    const [d] = await s.execute('demo', 'DESCRIBE customers');
    expect(d!.columns).toEqual(['Field', 'Type', 'Null', 'Key', 'Default', 'Extra']);
    expect(d!.rows).toEqual([
      ['created_at', 'datetime', 'YES', '', 'CURRENT_TIMESTAMP', 'DEFAULT_GENERATED'],
      ['id', 'int', 'NO', 'PRI', null, ''],
      ['name', 'varchar(255)', 'YES', '', null, ''],
    ]);
    const [r] = await s.execute('demo', 'SELECT id, name FROM customers ORDER BY id');
    expect(r!.rows.length).toBeGreaterThanOrEqual(3);
    const [t] = await s.execute(null, 'SHOW TABLES FROM demo');
    expect(t).toMatchObject({ columns: ['Tables_in_demo'], rows: [['customers']] });
  });

  it('answers errors as MySQL does', async () => {
    const s = await start(tmp());
    expect(await errorOf(s.execute('demo', 'SELECT * FROM nope'))).toBe("ERROR 1146 (42S02): Table 'demo.nope' doesn't exist");
    expect(await errorOf(s.execute('demo', 'SELEC 1'))).toBe(
      "ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'SELEC 1' at line 1",
    );
    expect(await errorOf(s.execute('demo', "INSERT INTO customers (id, name) VALUES (1, 'again')"))).toBe("ERROR 1062 (23000): Duplicate entry '1' for key 'customers.PRIMARY'");
    expect(await errorOf(s.execute(null, 'SELECT * FROM customers'))).toBe('ERROR 1046 (3D000): No database selected');
    expect(await errorOf(s.execute(null, 'USE nope'))).toBe("ERROR 1049 (42000): Unknown database 'nope'");
    expect(await errorOf(s.execute('demo', 'SELECT nope FROM customers'))).toBe("ERROR 1054 (42S22): Unknown column 'nope' in 'field list'");
    expect(await errorOf(s.execute('demo', 'CREATE TABLE customers (id int)'))).toBe("ERROR 1050 (42S01): Table 'customers' already exists");
    expect(await errorOf(s.execute('demo', 'UPDATE customers SET id = 2 WHERE id = 1'))).toBe("ERROR 1062 (23000): Duplicate entry '2' for key 'customers.PRIMARY'");
  });

  it('INSERT IGNORE, REPLACE and ON DUPLICATE KEY UPDATE behave as in MySQL', async () => {
    const s = await start(tmp());
    await s.execute('demo', "INSERT IGNORE INTO customers (id, name) VALUES (1, 'x')");
    await s.execute('demo', "INSERT INTO customers (id, name) VALUES (2, 'y') ON DUPLICATE KEY UPDATE name = VALUES(name)");
    const [r] = await s.execute('demo', 'SELECT name FROM customers WHERE id IN (1, 2) ORDER BY id');
    expect(r!.rows).toEqual([['Ada Lovelace'], ['y']]);
  });

  it("REPLACE logs what MySQL logs (a conflict on the primary key, not the last key, a delete and an insert; one on the unique key, the last, an update in place), counts affected rows as MySQL does, and replays after a crash", async () => {
    const dir = tmp();
    const a = await start(dir, { snapshotEvery: 1_000_000 });
    await a.execute(null, "CREATE DATABASE shop; USE shop; CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, UNIQUE KEY uq_name (name)); INSERT INTO t VALUES (1, 'a'), (2, 'b')");
    const affected = async (sql: string) => (await a.execute('shop', sql))[0]!.affectedRows;
    const from = a.position();
    // mysql client: "Query OK, N rows affected" for each of these against MySQL 8.0 and MariaDB
    expect(await affected("REPLACE INTO t VALUES (1, 'a2')")).toBe(2); // the row with id 1 deleted, the new one inserted
    expect(await affected("REPLACE INTO t VALUES (3, 'b')")).toBe(2); // conflicts on uq_name: row 2 becomes the new row
    expect(await affected("REPLACE LOW_PRIORITY INTO t VALUES (4, 'd')")).toBe(1);
    expect(await affected("INSERT IGNORE INTO t VALUES (4, 'dup')")).toBe(0);
    expect(await affected("INSERT INTO t VALUES (4, 'd') ON DUPLICATE KEY UPDATE name = 'e'")).toBe(2);
    expect(await affected("INSERT INTO t VALUES (4, 'd') ON DUPLICATE KEY UPDATE name = 'e'")).toBe(0);
    expect(await affected("INSERT INTO t VALUES (5, 'f') ON DUPLICATE KEY UPDATE name = 'g'")).toBe(1);
    expect(await affected("UPDATE LOW_PRIORITY IGNORE t SET name = 'a2' WHERE id = 5")).toBe(0); // would duplicate uq_name
    expect(await affected('DELETE LOW_PRIORITY QUICK IGNORE FROM t WHERE id = 5')).toBe(1);
    const events = a.readTransactions(from, 100).flatMap((tx) => tx.events.map((e) => `${e.op} ${e.before ? `${e.before.id}:${e.before.name}` : '-'} ${e.after ? `${e.after.id}:${e.after.name}` : '-'}`));
    expect(events).toEqual(['d 1:a -', 'c - 1:a2', 'u 2:b 3:b', 'c - 4:d', 'u 4:d 4:e', 'c - 5:f', 'd 5:f -']);
    const rows = (await a.execute('shop', 'SELECT * FROM t ORDER BY id'))[0]!.rows;
    expect(rows).toEqual([[1, 'a2'], [3, 'b'], [4, 'e']]);
    // no snapshot since: the reopened source replays the change log onto the last snapshot
    const b = await EmbeddedSource.open({ dir });
    open.push(b);
    expect((await b.execute('shop', 'SELECT * FROM t ORDER BY id'))[0]!.rows).toEqual(rows);
  });

  // What MariaDB 10.11 writes to its binary log for these (binlog_format=ROW, decoded with
  // mariadb-binlog): replace-binlog-vs-mariadb.test.ts compares the two where mariadbd is installed.
  it('REPLACE over the primary key of a table with no other unique key is an update in place; the same row again logs nothing and counts 1', async () => {
    const dir = tmp();
    const a = await start(dir, { snapshotEvery: 1_000_000 });
    await a.execute(null, "CREATE DATABASE shop; USE shop; CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10)); INSERT INTO t VALUES (1, 'a'), (2, 'b')");
    const from = a.position();
    const affected = async (sql: string) => (await a.execute('shop', sql))[0]!.affectedRows;
    expect(await affected("REPLACE INTO t VALUES (1, 'x')")).toBe(2);
    expect(await affected("REPLACE INTO t VALUES (2, 'b')")).toBe(1);
    expect(await affected("REPLACE INTO t VALUES (1, 'p'), (1, 'q'), (5, 'n')")).toBe(5);
    await a.execute('shop', "UPDATE t SET v = 'z' WHERE id = 1");
    const events = a.readTransactions(from, 100).flatMap((tx) => tx.events.map((e) => `${e.op} ${e.before ? `${e.before.id}:${e.before.v}` : '-'} ${e.after ? `${e.after.id}:${e.after.v}` : '-'}`));
    expect(events).toEqual(['u 1:a 1:x', 'u 1:x 1:p', 'u 1:p 1:q', 'c - 5:n', 'u 1:q 1:z']);
    // every event of row 1 names the row id it had before the first REPLACE
    const rowids = new Set(a.readTransactions(from, 100).flatMap((tx) => tx.events.filter((e) => (e.after ?? e.before)!.id === 1).map((e) => e.rowid)));
    expect(rowids.size).toBe(1);
    const rows = (await a.execute('shop', 'SELECT * FROM t ORDER BY id'))[0]!.rows;
    expect(rows).toEqual([[1, 'z'], [2, 'b'], [5, 'n']]);
    const b = await EmbeddedSource.open({ dir });
    open.push(b);
    expect((await b.execute('shop', 'SELECT * FROM t ORDER BY id'))[0]!.rows).toEqual(rows);
  });

  it('REPLACE with several unique keys deletes the rows conflicting on the earlier keys in MySQL\'s key order and updates the last key\'s row, an AUTO_INCREMENT id taking the next value', async () => {
    const s = await start(tmp());
    await s.execute(null, [
      'CREATE DATABASE shop; USE shop',
      // MySQL orders the NOT NULL key ub before the nullable ua, which is the last
      'CREATE TABLE k (id INT PRIMARY KEY, a INT NULL, b INT NOT NULL, UNIQUE KEY ua (a), UNIQUE KEY ub (b)); INSERT INTO k VALUES (1, 1, 1), (2, 2, 2), (3, 3, 3)',
      "CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, u VARCHAR(5) NOT NULL, UNIQUE KEY uq (u)); INSERT INTO ai (u) VALUES ('a'), ('b')",
    ].join('; '));
    const from = s.position();
    const results = await s.execute('shop', "REPLACE INTO k VALUES (9, 1, 2); REPLACE INTO k VALUES (3, 9, 9); REPLACE INTO ai (u) VALUES ('a')");
    expect(results.map((r) => r.affectedRows)).toEqual([3, 2, 2]);
    expect(results[2]!.insertId).toBe(3);
    const events = s.readTransactions(from, 100).flatMap((tx) => tx.events.map((e) => [e.table, e.op, e.before, e.after]));
    expect(events).toEqual([
      ['k', 'd', { id: 2, a: 2, b: 2 }, null],
      ['k', 'u', { id: 1, a: 1, b: 1 }, { id: 9, a: 1, b: 2 }],
      ['k', 'd', { id: 3, a: 3, b: 3 }, null],
      ['k', 'c', null, { id: 3, a: 9, b: 9 }],
      ['ai', 'u', { id: 1, u: 'a' }, { id: 3, u: 'a' }],
    ]);
  });

  it('a snapshot written before the REPLACE triggers gets them when it is opened', async () => {
    const dir = tmp();
    const a = await EmbeddedSource.open({ dir, seedDemo: false });
    await a.execute(null, "CREATE DATABASE shop; USE shop; CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10)); INSERT INTO t VALUES (1, 'a')");
    await a.close();
    // the triggers as an earlier version wrote them: no REPLACE triggers, an unconditional insert capture
    const file = path.join(dir, 'databases', 'shop.sqlite');
    const SQL = await (await import('sql.js')).default();
    const db = new SQL.Database(fs.readFileSync(file));
    db.run('DROP TRIGGER "__loupe_rpb_t"; DROP TRIGGER "__loupe_rpa_t"; DROP TRIGGER "__loupe_ai_t"; DROP TABLE __loupe_replace');
    db.run(`CREATE TRIGGER "__loupe_ai_t" AFTER INSERT ON "t" BEGIN INSERT INTO __loupe_changes (tbl, op, rid, b, a) VALUES ('t', 'c', NEW.rowid, NULL, json_object('id', NEW."id", 'v', NEW."v")); END`);
    fs.writeFileSync(file, db.export());
    db.close();
    const b = await start(dir);
    const from = b.position();
    await b.execute('shop', "REPLACE INTO t VALUES (1, 'b')");
    expect(b.readTransactions(from, 10).flatMap((tx) => tx.events.map((e) => e.op))).toEqual(['u']);
  });

  it('a column changed by MODIFY or CHANGE keeps its rows and their row ids, and the change log replays it after a crash', async () => {
    const dir = tmp();
    const a = await start(dir, { snapshotEvery: 1_000_000 });
    await a.execute(null, "CREATE DATABASE shop; USE shop; CREATE TABLE p (id INT AUTO_INCREMENT PRIMARY KEY, code VARCHAR(10), qty VARCHAR(10), UNIQUE KEY uq (code)); INSERT INTO p (code, qty) VALUES ('a', '1'), ('b', '2')");
    const [mod] = await a.execute('shop', 'ALTER TABLE p MODIFY qty INT NOT NULL DEFAULT 0, CHANGE code sku VARCHAR(20) NOT NULL');
    expect(mod!.affectedRows).toBe(2);
    const from = a.position();
    await a.execute('shop', "UPDATE p SET qty = qty + 10 WHERE sku = 'B'; INSERT INTO p (sku) VALUES ('c')");
    // the update names the row id the insert gave it before the rebuild
    const events = a.readTransactions(from, 10).flatMap((tx) => tx.events);
    expect(events.map((e) => [e.op, e.rowid, e.after])).toEqual([
      ['u', 2, { id: 2, sku: 'b', qty: 12 }],
      ['c', 3, { id: 3, sku: 'c', qty: 0 }],
    ]);
    const rows = (await a.execute('shop', 'SELECT * FROM p ORDER BY id'))[0]!.rows;
    const b = await EmbeddedSource.open({ dir });
    open.push(b);
    expect((await b.execute('shop', 'SELECT * FROM p ORDER BY id'))[0]!.rows).toEqual(rows);
    expect((await b.execute('shop', 'DESCRIBE p'))[0]!.rows.map((r) => r.slice(0, 5))).toEqual([
      ['id', 'int', 'NO', 'PRI', null],
      ['sku', 'varchar(20)', 'NO', 'UNI', null],
      ['qty', 'int', 'NO', '', '0'],
    ]);
  });

  it('SHOW INDEX lists every key column with MySQL 8.0\'s columns', async () => {
    const s = await start(tmp());
    await s.execute('demo', "CREATE TABLE k (id INT PRIMARY KEY, v VARCHAR(10), w INT, KEY kv (v, w)); INSERT INTO k VALUES (1, 'x', 1), (2, 'y', 1), (3, 'x', 2)");
    const [r] = await s.execute('demo', 'SHOW INDEX FROM k');
    expect(r!.columns).toEqual(['Table', 'Non_unique', 'Key_name', 'Seq_in_index', 'Column_name', 'Collation', 'Cardinality', 'Sub_part', 'Packed', 'Null', 'Index_type', 'Comment', 'Index_comment', 'Visible', 'Expression']);
    expect(r!.rows).toEqual([
      ['k', 0, 'PRIMARY', 1, 'id', 'A', 3, null, null, '', 'BTREE', '', '', 'YES', null],
      ['k', 1, 'kv', 1, 'v', 'A', 2, null, null, 'YES', 'BTREE', '', '', 'YES', null],
      ['k', 1, 'kv', 2, 'w', 'A', 3, null, null, 'YES', 'BTREE', '', '', 'YES', null],
    ]);
  });

  it('a renamed table is captured under its new name and replays after a crash', async () => {
    const dir = tmp();
    const a = await start(dir, { snapshotEvery: 1_000_000 });
    await a.execute('demo', "CREATE TABLE r1 (id INT PRIMARY KEY, v VARCHAR(5)); INSERT INTO r1 VALUES (1, 'a'); RENAME TABLE r1 TO r2");
    const from = a.position();
    await a.execute('demo', "UPDATE r2 SET v = 'b' WHERE id = 1");
    expect(a.readTransactions(from, 10).flatMap((tx) => tx.events.map((e) => [e.table, e.op]))).toEqual([['r2', 'u']]);
    expect((await a.execute('demo', 'SHOW TABLES'))[0]!.rows.flat()).toEqual(['customers', 'r2']);
    const b = await EmbeddedSource.open({ dir });
    open.push(b);
    expect((await b.execute('demo', 'SELECT * FROM r2'))[0]!.rows).toEqual([[1, 'b']]);
    await expect(b.execute('demo', 'SELECT * FROM r1')).rejects.toThrow("Table 'demo.r1' doesn't exist");
  });

  it('TRUNCATE is logged as the statement, with no row events, as MySQL logs it, and resets AUTO_INCREMENT', async () => {
    const dir = tmp();
    const a = await start(dir, { snapshotEvery: 1_000_000 });
    await a.execute('demo', "CREATE TABLE tr (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5)); INSERT INTO tr (v) VALUES ('a'), ('b')");
    const from = a.position();
    const [t] = await a.execute('demo', 'TRUNCATE TABLE tr');
    expect(t!.affectedRows).toBe(0);
    const [tx] = a.readTransactions(from, 10);
    expect([tx!.events, tx!.ddl?.kind, tx!.ddl?.mysql]).toEqual([[], 'truncate-table', 'TRUNCATE TABLE tr']);
    const [ins] = await a.execute('demo', "INSERT INTO tr (v) VALUES ('c')");
    expect(ins!.insertId).toBe(1);
    const b = await EmbeddedSource.open({ dir });
    open.push(b);
    expect((await b.execute('demo', 'SELECT * FROM tr'))[0]!.rows).toEqual([[1, 'c']]);
  });

  it('records each committed change with position, GTID and before/after images; rollback records nothing', async () => {
    const s = await start(tmp());
    const start0 = s.position();
    await s.execute('demo', "INSERT INTO customers (id, name) VALUES (10, 'a'); UPDATE customers SET name = 'b' WHERE id = 10; DELETE FROM customers WHERE id = 10");
    await s.execute('demo', "BEGIN; INSERT INTO customers (id, name) VALUES (11, 'x'); INSERT INTO customers (id, name) VALUES (12, 'y'); COMMIT");
    await s.execute('demo', "BEGIN; INSERT INTO customers (id, name) VALUES (13, 'z'); ROLLBACK");
    await s.execute('demo', "START TRANSACTION; INSERT INTO customers (id, name) VALUES (14, 'never committed')");
    const txs = s.readTransactions(start0, 100);
    expect(txs.map((t) => t.events.map((e) => [e.op, e.before?.name ?? null, e.after?.name ?? null]))).toEqual([
      [['c', null, 'a']],
      [['u', 'a', 'b']],
      [['d', 'b', null]],
      [['c', null, 'x'], ['c', null, 'y']],
    ]);
    expect(txs[0]!.pos).toBe(start0.pos);
    expect(txs[1]!.pos).toBe(txs[0]!.nextPos);
    expect(txs.map((t) => t.seq)).toEqual([txs[0]!.seq, txs[0]!.seq + 1, txs[0]!.seq + 2, txs[0]!.seq + 3]);
    expect(txs[3]!.gtid).toBe(`${s.info().serverUuid}:${txs[3]!.seq}`);
    expect(txs[0]!.file).toBe('mysql-bin.000001');
    expect(typeof txs[0]!.events[0]!.after!.created_at).toBe('string');
  });

  it('an UPDATE that leaves a row as it was is no change: 0 affected rows, no event (MySQL logs no row event for it)', async () => {
    const s = await start(tmp());
    await s.execute('demo', "INSERT INTO customers (id, name) VALUES (20, 'same')");
    const from = s.position();
    const [r] = await s.execute('demo', "UPDATE customers SET name = 'same' WHERE id = 20");
    expect(r!.affectedRows).toBe(0);
    expect(s.readTransactions(from, 10)).toEqual([]);
    const [both] = await s.execute('demo', "UPDATE customers SET name = 'same' WHERE id IN (20, 1)");
    expect(both!.affectedRows).toBe(1);
    expect(s.readTransactions(from, 10).map((t) => t.events.map((e) => [e.op, e.after?.id]))).toEqual([[['u', 1]]]);
  });

  it('an INT primary key is never filled in by SQLite: NULL is 1048, leaving it out 1364, and no insert id without AUTO_INCREMENT', async () => {
    const s = await start(tmp());
    expect(await errorOf(s.execute('demo', "INSERT INTO customers (id, name) VALUES (NULL, 'n')"))).toBe("ERROR 1048 (23000): Column 'id' cannot be null");
    expect(await errorOf(s.execute('demo', "INSERT INTO customers (name) VALUES ('n')"))).toBe("ERROR 1364 (HY000): Field 'id' doesn't have a default value");
    const [plain] = await s.execute('demo', "INSERT INTO customers (id, name) VALUES (77, 'n')");
    expect(plain!.insertId).toBeUndefined();
    await s.execute('demo', 'CREATE TABLE auto_t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)');
    const [auto] = await s.execute('demo', 'INSERT INTO auto_t (v) VALUES (5)');
    expect(auto!.insertId).toBe(1);
  });

  it('loses nothing across a restart, with or without a snapshot since the last change', async () => {
    const dir = tmp();
    const a = await start(dir, { snapshotEvery: 3 });
    await a.execute(null, 'CREATE DATABASE shop; USE shop; CREATE TABLE orders (id int auto_increment primary key, total decimal(10,2) not null, note text)');
    for (let i = 0; i < 7; i++) await a.execute('shop', `INSERT INTO orders (total, note) VALUES (${i}.50, 'n${i}')`);
    await a.execute('shop', 'UPDATE orders SET note = NULL WHERE id = 2; DELETE FROM orders WHERE id = 3');
    const before = (await a.execute('shop', 'SELECT * FROM orders ORDER BY id'))[0]!.rows;
    const pos = a.position();
    // Simulate a crash: no close(), so no final snapshot; reopen from the files.
    const b = await EmbeddedSource.open({ dir });
    open.push(b);
    expect((await b.execute('shop', 'SELECT * FROM orders ORDER BY id'))[0]!.rows).toEqual(before);
    expect(b.position()).toEqual(pos);
    const [ins] = await b.execute('shop', "INSERT INTO orders (total) VALUES ('1.00')");
    expect(ins!.insertId).toBe(8);
  });

  it('replays after a crash what this session’s statements made: a prefix key, a table collation, JSON, a column placed AFTER', async () => {
    const dir = tmp();
    const a = await start(dir, { snapshotEvery: 1000 });
    await a.execute(null, "CREATE DATABASE r; USE r; CREATE TABLE p (id INT PRIMARY KEY, code VARCHAR(20), doc JSON, UNIQUE KEY up (code(3))) COLLATE=utf8mb4_bin; INSERT INTO p VALUES (1, 'abc-1', '{\"b\":1,\"a\":2}')");
    await a.execute('r', "ALTER TABLE p ADD COLUMN n INT NOT NULL AFTER id; SET sql_mode = ''; INSERT INTO p (id, code, doc) VALUES (2, 'ABC-2', NULL), (3, 'xyz', '[1]')");
    const before = (await a.execute('r', 'SELECT * FROM p ORDER BY id'))[0]!.rows;
    expect(before).toEqual([[1, 0, 'abc-1', '{"a": 2, "b": 1}'], [2, 0, 'ABC-2', null], [3, 0, 'xyz', '[1]']]);
    // no close(): the change log is replayed onto the snapshot taken before the table existed
    const b = await EmbeddedSource.open({ dir });
    open.push(b);
    expect((await b.execute('r', 'SELECT * FROM p ORDER BY id'))[0]!.rows).toEqual(before);
    await expect(b.execute('r', "INSERT INTO p (id, code) VALUES (4, 'abc-4')")).rejects.toThrow("Duplicate entry 'abc' for key 'p.up'");
    await expect(b.execute('r', "INSERT INTO p (id, code) VALUES (5, 'xy')")).rejects.toThrow("Field 'n' doesn't have a default value");
  });

  it('random statements made of SQL words fail only with MySQL errors, and the source stays usable', async () => {
    const s = await start(tmp());
    const words = ['SELECT', 'INSERT', 'INTO', 'UPDATE', 'DELETE', 'FROM', 'WHERE', 'SET', 'VALUES', 'customers', 'id', 'name', '=', ',', '(', ')', "'x'", '1', '2.5', 'NULL', 'AND', 'ORDER', 'BY', 'LIMIT', 'GROUP_CONCAT(', 'CAST(', 'AS', 'SIGNED', 'INTERVAL', 'DAY', '+', 'DIV', 'MOD', 'REPLACE', 'IGNORE', 'LOW_PRIORITY', 'ALTER', 'TABLE', 'ADD', 'MODIFY', 'CHANGE', 'INDEX', 'UNIQUE', 'KEY', 'DROP', 'RENAME', 'TO', 'CREATE', 'LIKE', 'SHOW', 'TABLES', 'CONVERT(', 'USING', '@@version', '@@nope', 'FOR', 'SHARE', 'REGEXP', "'['", 'DATE_FORMAT(', 'SEPARATOR', 'DISTINCT', '*', ';', 'ON', 'DUPLICATE', 'TRUNCATE', 'INT', 'VARCHAR(5)', 'NOT', 'DEFAULT', '`a b`', 'LEFT(', 'NOW()', 'BEGIN', 'COMMIT', 'ROLLBACK'];
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 3000; i++) {
      const sql = Array.from({ length: 1 + Math.floor(rand() * 12) }, () => words[Math.floor(rand() * words.length)]).join(' ');
      try {
        s.executeSync('demo', sql);
      } catch (err) {
        expect(err, sql).toBeInstanceOf(MySqlError);
      }
    }
    s.executeSync('demo', 'ROLLBACK');
    const [r] = await s.execute('demo', 'SELECT COUNT(*) FROM customers');
    expect(typeof r!.rows[0]![0]).toBe('number');
  });

  it('splits scripts at top-level semicolons only', () => {
    expect(splitStatements("INSERT INTO t VALUES ('a;b'); -- c;\nSELECT `x;y` FROM t; /* ; */ ;")).toEqual(["INSERT INTO t VALUES ('a;b')", 'SELECT `x;y` FROM t']);
  });
});

describe('embedded source type checks (MySQL strict mode)', () => {
  it('rejects values that do not fit the column type with MySQL errors', async () => {
    const s = await start(tmp());
    expect(await errorOf(s.execute('demo', "INSERT INTO customers (id, name) VALUES ('abc', 'x')"))).toBe("ERROR 1366 (HY000): Incorrect integer value: 'abc' for column 'id' at row 1");
    expect(await errorOf(s.execute('demo', "INSERT INTO customers (created_at, id, name) VALUES ('yesterday', 50, 'x')"))).toBe(
      "ERROR 1292 (22007): Incorrect datetime value: 'yesterday' for column 'created_at' at row 1",
    );
    expect(await errorOf(s.execute('demo', "UPDATE customers SET created_at = 'soon' WHERE id = 1"))).toBe("ERROR 1292 (22007): Incorrect datetime value: 'soon' for column 'created_at' at row 1");
    // Numbers given as strings are converted, as MySQL does.
    await s.execute('demo', "INSERT INTO customers (created_at, id, name) VALUES ('2024-05-06 07:08:09', '51', 'ok')");
    expect((await s.execute('demo', 'SELECT id, created_at FROM customers WHERE id = 51'))[0]!.rows).toEqual([[51, '2024-05-06 07:08:09']]);
  });
});
