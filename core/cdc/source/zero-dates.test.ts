/**
 * Zero dates ('0000-00-00') and dates with zero parts ('2024-00-05') as MySQL 8.0 stores and
 * refuses them under the session's sql_mode (Field_temporal::store, check_date,
 * prepare_default_value): what a mysqldump file of an older schema needs (its
 * `SET SQL_MODE='NO_AUTO_VALUE_ON_ZERO'` leaves NO_ZERO_DATE out), and the errors and warnings
 * of MySQL 8.0's default sql_mode. MariaDB 10.11 words some warnings otherwise (1265 where MySQL
 * 8.0 says 1264); zero-dates-vs-mariadb.test.ts has what both servers agree on.
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const DUMP_MODE = "SET sql_mode = 'NO_AUTO_VALUE_ON_ZERO'";
const TABLE = "CREATE TABLE p (id INT PRIMARY KEY, d DATETIME NOT NULL DEFAULT '0000-00-00 00:00:00', e DATE DEFAULT '0000-00-00', t TIMESTAMP NOT NULL DEFAULT '0000-00-00 00:00:00', n VARCHAR(10))";

describe('zero dates, as MySQL 8.0 stores and refuses them', () => {
  const fresh = freshSourceForEachTest({ database: 'zd', setup: 'CREATE DATABASE zd' });
  const { run, rows, errorOf } = {
    run: (sql: string) => fresh.run(sql),
    rows: (sql: string) => fresh.rows(sql),
    errorOf: (sql: string) => fresh.errorOf(sql),
  };
  const warnings = (sql: string) => (fresh.run(sql).at(-1)!.warnings?.conditions ?? []).map((c) => `${c.code} ${c.message}`);

  it('a mysqldump of an older schema loads: zero defaults and zero values outside NO_ZERO_DATE, shown as MySQL shows them', () => {
    run(`${DUMP_MODE}; ${TABLE}`);
    run(`${DUMP_MODE}; INSERT INTO p (id) VALUES (1); INSERT INTO p VALUES (2, '0000-00-00', 0, '0000-00-00 00:00:00', 'x')`);
    expect(rows('SELECT id, d, e, t FROM p ORDER BY id')).toEqual([
      [1, '0000-00-00 00:00:00', '0000-00-00', '0000-00-00 00:00:00'],
      [2, '0000-00-00 00:00:00', '0000-00-00', '0000-00-00 00:00:00'],
    ]);
    expect(rows('SHOW CREATE TABLE p')[0]![1]).toContain("`d` datetime NOT NULL DEFAULT '0000-00-00 00:00:00',\n  `e` date DEFAULT '0000-00-00',\n  `t` timestamp NOT NULL DEFAULT '0000-00-00 00:00:00'");
  });

  it('MySQL 8.0’s default sql_mode refuses a zero date (1292, "datetime" for a TIMESTAMP too, the value as given) and a zero default (1067)', () => {
    run(`${DUMP_MODE}; ${TABLE}`);
    expect(errorOf("INSERT INTO p (id, e) VALUES (3, '0000-00-00')")).toBe("ERROR 1292 (22007): Incorrect date value: '0000-00-00' for column 'e' at row 1");
    expect(errorOf('INSERT INTO p (id, d) VALUES (3, 0)')).toBe("ERROR 1292 (22007): Incorrect datetime value: '0' for column 'd' at row 1");
    expect(errorOf("INSERT INTO p (id, t) VALUES (3, '2024-00-05')")).toBe("ERROR 1292 (22007): Incorrect datetime value: '2024-00-05' for column 't' at row 1");
    expect(errorOf("CREATE TABLE q (d DATE NOT NULL DEFAULT '0000-00-00')")).toBe("ERROR 1067 (42000): Invalid default value for 'd'");
    expect(errorOf("CREATE TABLE q (d DATE DEFAULT '2024-05-00')")).toBe("ERROR 1067 (42000): Invalid default value for 'd'");
    // a default is not checked again when a row takes it
    run('INSERT INTO p (id, n) VALUES (4, "ok")');
    expect(rows('SELECT d, e, t FROM p WHERE id = 4')).toEqual([['0000-00-00 00:00:00', '0000-00-00', '0000-00-00 00:00:00']]);
  });

  it('under IGNORE the column gets its zero value with one warning: 1265 for no date, 1264 for the rest', () => {
    run(`${DUMP_MODE}; ${TABLE}`);
    expect(warnings("INSERT IGNORE INTO p (id, d, e, t) VALUES (5, 'abc', '2024-02-30', '1960-01-01')")).toEqual([
      "1265 Data truncated for column 'd' at row 1",
      "1264 Out of range value for column 'e' at row 1",
      "1264 Out of range value for column 't' at row 1",
    ]);
    // a number that is no date is cut (number_to_datetime), whatever check_date found
    expect(warnings("INSERT IGNORE INTO p (id, d, e, t) VALUES (6, 20240230, '0000-00-00', '2024-05-00')")).toEqual([
      "1265 Data truncated for column 'd' at row 1",
      "1264 Out of range value for column 'e' at row 1",
      "1264 Out of range value for column 't' at row 1",
    ]);
    expect(rows('SELECT id, d, e, t FROM p WHERE id IN (5, 6) ORDER BY id')).toEqual([
      [5, '0000-00-00 00:00:00', '0000-00-00', '0000-00-00 00:00:00'],
      [6, '0000-00-00 00:00:00', '0000-00-00', '0000-00-00 00:00:00'],
    ]);
    // a NULL for a NOT NULL date is its implicit default, the zero date (1048), as for any type
    expect(warnings('INSERT IGNORE INTO p (id, d, t) VALUES (7, NULL, NULL)')).toEqual(["1048 Column 'd' cannot be null", "1048 Column 't' cannot be null"]);
    expect(rows('SELECT d, t FROM p WHERE id = 7')).toEqual([['0000-00-00 00:00:00', '0000-00-00 00:00:00']]);
  });

  it('each mode alone: NO_ZERO_DATE outside strict mode warns (1264), NO_ZERO_IN_DATE left out keeps zero parts (never in a TIMESTAMP)', () => {
    run(`${DUMP_MODE}; ${TABLE}`);
    expect(warnings("SET sql_mode = 'NO_ZERO_DATE'; INSERT INTO p (id, d) VALUES (8, '0000-00-00')")).toEqual(["1264 Out of range value for column 'd' at row 1"]);
    expect(warnings("SET sql_mode = 'NO_ZERO_DATE'; INSERT INTO p (id, d, e) VALUES (9, '2024-00-05 10:11:12', '2024-05-00')")).toEqual([]);
    expect(warnings("SET sql_mode = 'NO_ZERO_IN_DATE'; INSERT INTO p (id, d) VALUES (10, '2024-00-05')")).toEqual(["1264 Out of range value for column 'd' at row 1"]);
    expect(warnings("SET sql_mode = 'STRICT_ALL_TABLES'; INSERT INTO p (id, d, e) VALUES (11, '0000-00-00 10:11:12', '0000-01-01')")).toEqual([]);
    expect(errorOf("SET sql_mode = 'STRICT_ALL_TABLES'; INSERT INTO p (id, t) VALUES (12, '0000-00-00 00:00:01')")).toBe("ERROR 1292 (22007): Incorrect datetime value: '0000-00-00 00:00:01' for column 't' at row 1");
    expect(rows('SELECT id, d, e FROM p WHERE id >= 8 ORDER BY id')).toEqual([
      [8, '0000-00-00 00:00:00', '0000-00-00'],
      [9, '2024-00-05 10:11:12', '2024-05-00'],
      [10, '0000-00-00 00:00:00', '0000-00-00'],
      [11, '0000-00-00 10:11:12', '0000-01-01'],
    ]);
  });

  it('a zero default outside strict mode is warning 1264; a default that is no date is 1067 in any sql_mode', () => {
    expect(warnings("SET sql_mode = 'NO_ZERO_DATE'; CREATE TABLE q (d DATE NOT NULL DEFAULT '0000-00-00')")).toEqual(["1264 Out of range value for column 'd' at row 1"]);
    expect(errorOf("SET sql_mode = ''; CREATE TABLE r (d DATE DEFAULT '2024-02-30')")).toBe("ERROR 1067 (42000): Invalid default value for 'd'");
    expect(errorOf("SET sql_mode = ''; CREATE TABLE r (t TIMESTAMP DEFAULT '2024-00-01 00:00:00')")).toBe("ERROR 1067 (42000): Invalid default value for 't'");
  });

  it('any ALTER TABLE checks the zero defaults again under its sql_mode (1067), but DISABLE KEYS alone does not', () => {
    run(`${DUMP_MODE}; ${TABLE}; INSERT INTO p (id) VALUES (1)`);
    expect(errorOf('ALTER TABLE p ADD COLUMN x INT')).toBe("ERROR 1067 (42000): Invalid default value for 'd'");
    expect(errorOf('ALTER TABLE p ADD INDEX (n)')).toBe("ERROR 1067 (42000): Invalid default value for 'd'");
    run('ALTER TABLE p DISABLE KEYS');
    run(`${DUMP_MODE}; ALTER TABLE p ADD COLUMN x INT`);
    // the way out in MySQL's own mode: change the defaults in the same statement
    run("ALTER TABLE p ALTER COLUMN d SET DEFAULT '1970-01-01 00:00:01', MODIFY e DATE DEFAULT NULL, ALTER COLUMN t SET DEFAULT CURRENT_TIMESTAMP, ADD COLUMN y INT");
    expect(rows('SELECT d, e, t, x, y FROM p')).toEqual([['0000-00-00 00:00:00', '0000-00-00', '0000-00-00 00:00:00', null, null]]);
  });

  it('a NOT NULL date added without a DEFAULT: the zero date in the rows outside NO_ZERO_DATE, 1292 in strict mode with it', () => {
    run('CREATE TABLE a (id INT PRIMARY KEY); INSERT INTO a VALUES (1)');
    expect(errorOf('ALTER TABLE a ADD COLUMN d DATE NOT NULL')).toBe("ERROR 1292 (22007): Incorrect date value: '0000-00-00' for column 'd' at row 1");
    run(`${DUMP_MODE}; ALTER TABLE a ADD COLUMN d DATE NOT NULL, ADD COLUMN dt DATETIME(3) NOT NULL`);
    expect(rows('SELECT id, d, dt FROM a')).toEqual([[1, '0000-00-00', '0000-00-00 00:00:00.000']]);
  });

  it('rows with zero dates stay writable in strict mode, compare as MySQL compares them, and survive a restart', async () => {
    run(`${DUMP_MODE}; ${TABLE}; INSERT INTO p (id) VALUES (1), (2); INSERT INTO p VALUES (3, '2024-01-02 03:04:05', '2024-00-05', '2024-01-02 03:04:05', 'z')`);
    run("UPDATE p SET n = 'renamed' WHERE id = 1");
    expect(rows("SELECT id FROM p WHERE d = '0000-00-00' ORDER BY id")).toEqual([[1], [2]]);
    expect(rows('SELECT id FROM p WHERE d = 0 AND t = 0 ORDER BY id')).toEqual([[1], [2]]);
    expect(rows("SELECT id FROM p WHERE d < '2000-01-01' ORDER BY d, id")).toEqual([[1], [2]]);
    expect(rows('SELECT YEAR(d), MONTH(e), DATE(d) FROM p ORDER BY id')).toEqual([[0, 0, '0000-00-00'], [0, 0, '0000-00-00'], [2024, 0, '2024-01-02']]);
    await fresh.restart();
    expect(rows('SELECT id, n, d, e FROM p ORDER BY id')).toEqual([
      [1, 'renamed', '0000-00-00 00:00:00', '0000-00-00'],
      [2, null, '0000-00-00 00:00:00', '0000-00-00'],
      [3, 'z', '2024-01-02 03:04:05', '2024-00-05'],
    ]);
    await fresh.restart(true);
    expect(rows('SELECT count(*) FROM p WHERE e = 0')).toEqual([[2]]);
  });
});
