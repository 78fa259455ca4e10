/**
 * Notes and warnings beside MariaDB (skipped without mariadbd, failing under CI=true): what SHOW
 * WARNINGS lists after each statement, SHOW COUNT(*) WARNINGS and @@warning_count, and the row an
 * error or warning names ("at row N") in UPDATE and INSERT … SELECT. Where MySQL 8.0 words a
 * condition otherwise than MariaDB 10.11, the case holds MySQL's text and says where it comes from.
 */
import { describe, expect, it } from 'vitest';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';
import type { QuerySource } from './types.js';

const SETUP =
  "CREATE DATABASE w; USE w; CREATE TABLE t (id INT PRIMARY KEY, price DECIMAL(10,2), v VARCHAR(3), n TINYINT); INSERT INTO t VALUES (1, 1.00, 'a', 1), (2, 2.00, 'bb', 2), (3, 3.00, 'ccc', 3); CREATE VIEW tv AS SELECT id FROM t; CREATE TABLE u (id INT PRIMARY KEY, v VARCHAR(5), UNIQUE KEY uv (v)); INSERT INTO u VALUES (1, 'a'), (2, 'b')";

const CASES: CaseBeside[] = [
  { what: 'a DECIMAL rounded to its scale is a note, strict or not', sql: "INSERT INTO t VALUES (4, 1.005, 'd', 4); SHOW WARNINGS" },
  { what: 'blanks cut from the end of a VARCHAR are a note', sql: "INSERT INTO t VALUES (5, 1, 'e    ', 5); SHOW WARNINGS" },
  // MySQL 8.0 names the column alone ('price'; MariaDB `w`.`t`.`price`), and in strict mode a string cut under IGNORE is
  // ER_DATA_TOO_LONG as a warning (Field_longstr::report_if_important_data asks is_strict_mode(), the sql_mode), where MariaDB says 1265
  {
    what: 'INSERT IGNORE: each refused value is a warning naming its row',
    sql: "INSERT IGNORE INTO t VALUES (6, 'x', 'abcdef', 300), (7, 1, 'a', 'z'); SHOW WARNINGS",
    mysql: [
      ['Warning', 1366, "Incorrect decimal value: 'x' for column 'price' at row 1"],
      ['Warning', 1406, "Data too long for column 'v' at row 1"],
      ['Warning', 1264, "Out of range value for column 'n' at row 1"],
      ['Warning', 1366, "Incorrect integer value: 'z' for column 'n' at row 2"],
    ],
  },
  { what: 'UPDATE IGNORE: a warning for each row, numbered as the UPDATE goes', sql: 'UPDATE IGNORE t SET n = 1000 WHERE id <= 3; SHOW WARNINGS' },
  // MOD(N, 0) is a division by zero too ("Server SQL Modes", ERROR_FOR_DIVISION_BY_ZERO: "which includes MOD(N,0)")
  // MySQL 8.0.19 and later name the key with its table (print_keydup_error); MariaDB names the key alone
  {
    what: 'INSERT IGNORE: a row a duplicate key skips is a warning naming the first key it duplicates',
    sql: "INSERT IGNORE INTO u VALUES (1, 'x'), (2, 'a'), (20, 'y'), (20, 'z'), (21, 'y'); SHOW WARNINGS",
    mysql: [
      ['Warning', 1062, "Duplicate entry '1' for key 'u.PRIMARY'"],
      ['Warning', 1062, "Duplicate entry '2' for key 'u.PRIMARY'"],
      ['Warning', 1062, "Duplicate entry '20' for key 'u.PRIMARY'"],
      ['Warning', 1062, "Duplicate entry 'y' for key 'u.uv'"],
    ],
  },
  // MySQL 5.7.5 made IGNORE turn every error it ignores into a warning (WL#6614), a duplicate in UPDATE IGNORE too; MariaDB 10.11 stays silent
  {
    what: 'UPDATE IGNORE: a row a duplicate key keeps as it was is a warning',
    sql: "UPDATE IGNORE u SET v = 'a' WHERE id IN (2, 3); SHOW WARNINGS",
    mysql: [['Warning', 1062, "Duplicate entry 'a' for key 'u.uv'"]],
  },
  { what: 'REPLACE and ON DUPLICATE KEY UPDATE resolve duplicates without a warning', sql: "REPLACE INTO u VALUES (1, 'r'); INSERT INTO u VALUES (2, 'q') ON DUPLICATE KEY UPDATE v = 'q'; SHOW WARNINGS" },
  { what: 'division by zero and text read as a number in a SELECT', sql: "SELECT 1 / 0, 'abc' + 1, 5 % 0, 7 DIV 0; SHOW WARNINGS" },
  { what: 'SHOW COUNT(*) WARNINGS', sql: "SELECT 1 / 0, 'abc' + 1; SHOW COUNT(*) WARNINGS" },
  { what: '@@warning_count', sql: 'SELECT 1 / 0; SELECT @@warning_count, @@error_count' },
  { what: 'SHOW WARNINGS LIMIT', sql: "SELECT 1 / 0, 'abc' + 1, 'd' + 1; SHOW WARNINGS LIMIT 1, 1" },
  { what: 'SHOW WARNINGS keeps them: it can be asked twice', sql: 'SELECT 1 / 0; SHOW WARNINGS; SHOW WARNINGS' },
  { what: 'a statement without conditions clears them', sql: 'SELECT 1 / 0; SELECT id FROM t WHERE id = 1; SHOW WARNINGS' },
  { what: 'SHOW ERRORS after a statement that did not fail', sql: 'SELECT 1 / 0; SHOW ERRORS' },
  // MySQL 8.0 manual, DROP TABLE: "generates a NOTE diagnostic for each nonexistent table" (MariaDB: one note naming all)
  {
    what: 'DROP TABLE IF EXISTS of missing tables: a note for each',
    sql: 'DROP TABLE IF EXISTS nope, w.nope2; SHOW WARNINGS',
    mysql: [
      ['Note', 1051, "Unknown table 'w.nope'"],
      ['Note', 1051, "Unknown table 'w.nope2'"],
    ],
  },
  // MySQL 8.0 reports a missing view as ER_BAD_TABLE_ERROR, as its DROP VIEW error (MariaDB has its own 4092 ER_UNKNOWN_VIEW)
  { what: 'DROP VIEW IF EXISTS of a missing view', sql: 'DROP VIEW IF EXISTS nov; SHOW WARNINGS', mysql: [['Note', 1051, "Unknown table 'w.nov'"]] },
  { what: 'CREATE TABLE IF NOT EXISTS of a table that exists', sql: 'CREATE TABLE IF NOT EXISTS t (id INT); SHOW WARNINGS' },
  { what: 'CREATE DATABASE IF NOT EXISTS of a database that exists', sql: 'CREATE DATABASE IF NOT EXISTS w; SHOW WARNINGS' },
  { what: 'DROP DATABASE IF EXISTS of a missing database', sql: 'DROP DATABASE IF EXISTS nodb; SHOW WARNINGS' },
];

const mariadb = mariadbTests();
if (mariadb.skip) console.warn(`warnings-vs-mariadb.test.ts: MariaDB tests ${mariadb.reason}`);

describe.skipIf(mariadb.skip)(`notes and warnings are the real server's${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('warn', SETUP);
  const outcome = async (src: QuerySource, sql: string) => src.execute('w', sql).then(() => 'OK', (err: unknown) => String(err));
  casesBeside(pair, 'w', CASES);

  it('the statement’s result carries its conditions, as the OK packet counts them', async () => {
    const [r] = await pair.embedded.execute('w', 'UPDATE IGNORE t SET n = 999 WHERE id IN (1, 2)');
    expect(r!.warnings).toEqual({
      count: 2,
      conditions: [
        { level: 'Warning', code: 1264, message: "Out of range value for column 'n' at row 1" },
        { level: 'Warning', code: 1264, message: "Out of range value for column 'n' at row 2" },
      ],
    });
    const [plain] = await pair.embedded.execute('w', 'SELECT 1');
    expect(plain!.warnings).toBeUndefined();
    // a real server's through the remote source: its OK packet's count, and SHOW WARNINGS' list
    const note = "INSERT INTO t VALUES (30, 2.555, 'n', 1)";
    const [real] = await pair.real.execute('w', note);
    expect(real!.warnings).toEqual({ count: 1, conditions: [{ level: 'Note', code: 1265, message: "Data truncated for column 'price' at row 1" }] });
    expect((await pair.embedded.execute('w', note))[0]!.warnings).toEqual(real!.warnings);
  });

  it.each([
    ['an UPDATE names the row that fails', "UPDATE t SET v = CONCAT(v, 'x') WHERE id <= 3"],
    ['an UPDATE … ORDER BY names it in its order', 'UPDATE t SET n = n * 100 ORDER BY id DESC'],
    ['an INSERT … SELECT names the selected row', "INSERT INTO t (id, v) SELECT id + 100, CONCAT(v, 'yy') FROM t ORDER BY id"],
  ])('%s: %s', async (_what, sql) => {
    const real = await outcome(pair.real, sql);
    expect(real).toMatch(/^ERROR \d+ \(\w+\): .* at row [2-9]$/);
    expect(await outcome(pair.embedded, sql)).toBe(real);
  });

  it.each([
    ['rows matched and changed', "UPDATE t SET v = 'a' WHERE id <= 3"],
    ['rows matched, changed and warned for', 'UPDATE IGNORE t SET n = n * 100 WHERE id <= 3'],
    ['an UPDATE … ORDER BY … LIMIT', 'UPDATE t SET n = 1 ORDER BY id DESC LIMIT 2'],
    ['an UPDATE that matches nothing', 'UPDATE t SET n = 1 WHERE id = 999'],
  ])('an UPDATE’s info line, %s: %s', async (_what, sql) => {
    const info = async (src: QuerySource) => (await src.execute('w', sql))[0]!.info;
    const real = await info(pair.real);
    expect(real).toMatch(/^Rows matched: \d+ {2}Changed: \d+ {2}Warnings: \d+$/);
    expect(await info(pair.embedded)).toBe(real);
  });

  it.each([
    ['several rows', "INSERT INTO u VALUES (40, 'i40'), (41, 'i41')"],
    ['one row: no info', "INSERT INTO u VALUES (42, 'i42')"],
    ['IGNORE skipping a duplicate', "INSERT IGNORE INTO u VALUES (40, 'x40'), (43, 'i43')"],
    ['REPLACE of a row there and a new one', "REPLACE INTO u VALUES (40, 'p40'), (44, 'i44')"],
    ['REPLACE of the same row', "REPLACE INTO u VALUES (41, 'i41'), (46, 'i46')"],
    ['an upsert updating one row and leaving one as it was', "INSERT INTO u VALUES (41, 'i41'), (43, 'u43'), (47, 'i47') ON DUPLICATE KEY UPDATE v = VALUES(v)"],
    ['INSERT … SELECT', "INSERT INTO u (id, v) SELECT id + 100, CONCAT(v, 's') FROM u WHERE id >= 40"],
    ['INSERT IGNORE … SELECT of rows all there', 'INSERT IGNORE INTO u SELECT id, v FROM u WHERE id >= 140'],
  ])('an INSERT’s info line, %s: %s', async (what, sql) => {
    const info = async (src: QuerySource) => (await src.execute('w', sql))[0]!.info;
    const real = await info(pair.real);
    if (what.startsWith('one row')) expect(real).toBeUndefined();
    else expect(real).toMatch(/^Records: \d+ {2}Duplicates: \d+ {2}Warnings: \d+$/);
    expect(await info(pair.embedded)).toBe(real);
  });
});
