/**
 * Column values stored and refused as MySQL 8.0 in strict mode does. Unless a comment says
 * otherwise, each expected value and error is what MariaDB 10.11.19 (Debian's mariadbd) answered
 * for the same statement in MySQL 8.0's sql_mode (STRICT_TRANS_TABLES, NO_ZERO_IN_DATE,
 * NO_ZERO_DATE, …), with 1366 in MySQL 8.0's wording (SQLSTATE HY000, "for column 'c'"), as
 * errmsg-utf8.txt has ER_TRUNCATED_WRONG_VALUE_FOR_FIELD.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({ database: 's', setup: 'CREATE DATABASE s' });

const { run, rows, errorOf } = fresh;
/** The after-images the change log holds for table `t`, in order. */
const logged = (t: string) =>
  fresh.src
    .readTransactions({ file: '', pos: 0 }, 10_000)
    .flatMap((tx) => tx.events)
    .filter((e) => e.table === t && e.after)
    .map((e) => e.after);

describe('DEFAULT in INSERT and UPDATE', () => {
  beforeEach(() => run("CREATE TABLE v (id INT AUTO_INCREMENT PRIMARY KEY, d DECIMAL(10,2) DEFAULT 1, n INT DEFAULT 7, s VARCHAR(5), dt DATETIME DEFAULT '2024-01-02')"));

  it('DEFAULT in a VALUES row is the column default, and the next AUTO_INCREMENT value for the id', () => {
    run("INSERT INTO v VALUES (DEFAULT, DEFAULT, 3, 'a', DEFAULT), (DEFAULT, 2, DEFAULT, DEFAULT, '2024-05-06 07:08:09')");
    expect(rows('SELECT * FROM v ORDER BY id')).toEqual([
      [1, '1.00', 3, 'a', '2024-01-02 00:00:00'],
      [2, '2.00', 7, null, '2024-05-06 07:08:09'],
    ]);
  });

  it('INSERT INTO t () VALUES (), INSERT … SET c = DEFAULT and INSERT (c) VALUES (DEFAULT)', () => {
    run('INSERT INTO v () VALUES (), ()');
    run('INSERT INTO v SET n = DEFAULT, s = 9');
    run('INSERT INTO v (d) VALUES (DEFAULT)');
    expect(rows('SELECT * FROM v ORDER BY id')).toEqual([
      [1, '1.00', 7, null, '2024-01-02 00:00:00'],
      [2, '1.00', 7, null, '2024-01-02 00:00:00'],
      [3, '1.00', 7, '9', '2024-01-02 00:00:00'],
      [4, '1.00', 7, null, '2024-01-02 00:00:00'],
    ]);
  });

  it('UPDATE … SET c = DEFAULT and the DEFAULT(col) function', () => {
    run("INSERT INTO v (d, n, s) VALUES (5, 1, 'x')");
    run('UPDATE v SET n = DEFAULT(n) + 1, d = DEFAULT, s = DEFAULT WHERE id = 1');
    expect(rows('SELECT d, n, s FROM v')).toEqual([['1.00', 8, null]]);
  });

  it('a column left out takes its default as stored, CURRENT_TIMESTAMP(3) with its milliseconds', () => {
    // MySQL 8.0 Reference Manual, "Automatic Initialization and Updating for TIMESTAMP and
    // DATETIME": the default has the column's fractional seconds
    run('CREATE TABLE lo (id INT PRIMARY KEY, at DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3), d DECIMAL(6,3) DEFAULT 2.5, y YEAR DEFAULT 24)');
    run('INSERT INTO lo (id) VALUES (1)');
    run('INSERT INTO lo (id) SELECT 2');
    const got = rows('SELECT at, d, y FROM lo ORDER BY id');
    for (const [at, d, y] of got) {
      expect(at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
      expect([d, y]).toEqual(['2.500', 2024]);
    }
  });

  it('DEFAULT for a NOT NULL column without a default is 1364', () => {
    run('CREATE TABLE nn (id INT PRIMARY KEY, x INT NOT NULL)');
    expect(errorOf('INSERT INTO nn VALUES (1, DEFAULT)')).toBe("ERROR 1364 (HY000): Field 'x' doesn't have a default value");
  });
});

describe('values are stored as the column keeps them', () => {
  it('DECIMAL to its scale, DATETIME with its time, TIME and YEAR in full, ENUM and SET as declared', () => {
    run("CREATE TABLE v (id INT PRIMARY KEY, d DECIMAL(10,2), d5 DECIMAL(5,2), dt DATETIME, dd DATE, t TIME, y YEAR, e ENUM('a','B'), st SET('x','y','z'), c CHAR(4), ti TINYINT)");
    run("INSERT INTO v VALUES (1, 1, 3.456, '2024-01-02', '2024/1/2', '1:2:3', 24, 'A', 'z,x,Z', 'ab  ', 2.5)");
    run("INSERT INTO v VALUES (2, '-0.005', '-1.235', '2024-1-2 3:4:5', 20240102, '1112', '24', 'b ', 3, 'abcd   ', '-2.5')");
    run("INSERT INTO v VALUES (3, 7.1e0, 0, '20240102030405', '2024-01-02 03:04:05', 1112, 0, 2, '', 1.50, '  7  ')");
    run("INSERT INTO v (id, dt, t, y) VALUES (4, '2024/01/02', '1 2:3:4', '0'), (5, '24-01-02 3:4', '-1:2:3', 69), (6, 20240102030405, '838:59:59', 70)");
    const expected = [
      [1, '1.00', '3.46', '2024-01-02 00:00:00', '2024-01-02', '01:02:03', 2024, 'a', 'x,z', 'ab', 3],
      [2, '-0.01', '-1.24', '2024-01-02 03:04:05', '2024-01-02', '00:11:12', 2024, 'B', 'x,y', 'abcd', -3],
      [3, '7.10', '0.00', '2024-01-02 03:04:05', '2024-01-02', '00:11:12', 0, 'B', '', '1.50', 7],
      [4, null, null, '2024-01-02 00:00:00', null, '26:03:04', 2000, null, null, null, null],
      [5, null, null, '2024-01-02 03:04:00', null, '-01:02:03', 2069, null, null, null, null],
      [6, null, null, '2024-01-02 03:04:05', null, '838:59:59', 1970, null, null, null, null],
    ];
    expect(rows('SELECT * FROM v ORDER BY id')).toEqual(expected);
    // the change log holds what the table holds
    expect(logged('v').map((a) => Object.values(a!))).toEqual(expected);
  });

  it('fractional seconds are rounded to the column, as MySQL 8.0 does', () => {
    // MySQL 8.0 Reference Manual, "Fractional Seconds in Time Values": a value with more digits
    // is rounded (MariaDB truncates, so it is no golden here)
    // (a shorter fraction is padded)
    run('CREATE TABLE f (id INT PRIMARY KEY, a DATETIME, b DATETIME(3), c TIME(3), d TIMESTAMP(2) NULL, e TIME, g TIME(1))');
    run("INSERT INTO f VALUES (1, '2024-01-02 03:04:05.6', '2024-01-02 03:04:05.1235', '1:2:3.4', '2024-12-31 23:59:59.999', '01:02:03.5', '01:02:03.45')");
    expect(rows('SELECT * FROM f')).toEqual([[1, '2024-01-02 03:04:06', '2024-01-02 03:04:05.124', '01:02:03.400', '2025-01-01 00:00:00.00', '01:02:04', '01:02:03.5']]);
  });

  it('an expression, an UPDATE, INSERT … SELECT and ON DUPLICATE KEY UPDATE store the same way', () => {
    run('CREATE TABLE x (id INT PRIMARY KEY, d DECIMAL(6,2), dt DATETIME)');
    run("INSERT INTO x VALUES (1, 1 + 1, CONCAT('2024-01-0', 2))");
    run("UPDATE x SET d = d / 3, dt = '2024-1-3' WHERE id = 1");
    run('INSERT INTO x (id, d, dt) SELECT id + 1, d * 2, DATE(dt) FROM x');
    run("INSERT INTO x (id, d) VALUES (2, 0) ON DUPLICATE KEY UPDATE d = '9.999', dt = '2024-02-03'");
    expect(rows('SELECT * FROM x ORDER BY id')).toEqual([
      [1, '0.67', '2024-01-03 00:00:00'],
      [2, '10.00', '2024-02-03 00:00:00'],
    ]);
    expect(logged('x').at(-1)).toEqual({ id: 2, d: '10.00', dt: '2024-02-03 00:00:00' });
  });
});

describe('values strict mode refuses', () => {
  beforeEach(() =>
    run(
      "CREATE TABLE r (id INT AUTO_INCREMENT PRIMARY KEY, e ENUM('a','b'), st SET('x','y'), s VARCHAR(3), tx TINYTEXT, ti TINYINT, u INT UNSIGNED, tu TINYINT UNSIGNED, d DECIMAL(5,2), y YEAR, dt DATETIME, dd DATE, ts TIMESTAMP NULL, t TIME, f FLOAT(5,2), b BIT(3))",
    ),
  );

  it.each([
    ["INSERT INTO r (e) VALUES ('c')", "ERROR 1265 (01000): Data truncated for column 'e' at row 1"],
    ["INSERT INTO r (e) VALUES ('')", "ERROR 1265 (01000): Data truncated for column 'e' at row 1"],
    ['INSERT INTO r (e) VALUES (0)', "ERROR 1265 (01000): Data truncated for column 'e' at row 1"],
    ["INSERT INTO r (st) VALUES ('x,w')", "ERROR 1265 (01000): Data truncated for column 'st' at row 1"],
    ['INSERT INTO r (st) VALUES (4)', "ERROR 1265 (01000): Data truncated for column 'st' at row 1"],
    ["INSERT INTO r (s) VALUES ('abcd')", "ERROR 1406 (22001): Data too long for column 's' at row 1"],
    ['INSERT INTO r (s) VALUES (1234)', "ERROR 1406 (22001): Data too long for column 's' at row 1"],
    ["INSERT INTO r (tx) VALUES (REPEAT('a', 256))", "ERROR 1406 (22001): Data too long for column 'tx' at row 1"],
    ['INSERT INTO r (ti) VALUES (300)', "ERROR 1264 (22003): Out of range value for column 'ti' at row 1"],
    ['INSERT INTO r (ti) VALUES (-129)', "ERROR 1264 (22003): Out of range value for column 'ti' at row 1"],
    ['INSERT INTO r (u) VALUES (-1)', "ERROR 1264 (22003): Out of range value for column 'u' at row 1"],
    ['INSERT INTO r (tu) VALUES (256)', "ERROR 1264 (22003): Out of range value for column 'tu' at row 1"],
    ['INSERT INTO r (d) VALUES (12345)', "ERROR 1264 (22003): Out of range value for column 'd' at row 1"],
    ['INSERT INTO r (d) VALUES (999.995)', "ERROR 1264 (22003): Out of range value for column 'd' at row 1"],
    ["INSERT INTO r (ti) VALUES ('12abc')", "ERROR 1265 (01000): Data truncated for column 'ti' at row 1"],
    ["INSERT INTO r (ti) VALUES ('abc')", "ERROR 1366 (HY000): Incorrect integer value: 'abc' for column 'ti' at row 1"],
    ["INSERT INTO r (ti) VALUES ('')", "ERROR 1366 (HY000): Incorrect integer value: '' for column 'ti' at row 1"],
    ["INSERT INTO r (d) VALUES ('abc')", "ERROR 1366 (HY000): Incorrect decimal value: 'abc' for column 'd' at row 1"],
    ["INSERT INTO r (d) VALUES ('1.5x')", "ERROR 1265 (01000): Data truncated for column 'd' at row 1"],
    ['INSERT INTO r (y) VALUES (1900)', "ERROR 1264 (22003): Out of range value for column 'y' at row 1"],
    ["INSERT INTO r (y) VALUES ('abc')", "ERROR 1366 (HY000): Incorrect integer value: 'abc' for column 'y' at row 1"],
    ["INSERT INTO r (dt) VALUES ('2024-02-30')", "ERROR 1292 (22007): Incorrect datetime value: '2024-02-30' for column 'dt' at row 1"],
    ["INSERT INTO r (dt) VALUES ('0000-00-00')", "ERROR 1292 (22007): Incorrect datetime value: '0000-00-00' for column 'dt' at row 1"],
    ["INSERT INTO r (dt) VALUES ('2024-00-10')", "ERROR 1292 (22007): Incorrect datetime value: '2024-00-10' for column 'dt' at row 1"],
    ["INSERT INTO r (dt) VALUES ('2024-01-02 25:00:00')", "ERROR 1292 (22007): Incorrect datetime value: '2024-01-02 25:00:00' for column 'dt' at row 1"],
    ["INSERT INTO r (dt) VALUES ('2024-01-02x')", "ERROR 1292 (22007): Incorrect datetime value: '2024-01-02x' for column 'dt' at row 1"],
    ["INSERT INTO r (ts) VALUES ('1960-01-01')", "ERROR 1292 (22007): Incorrect datetime value: '1960-01-01' for column 'ts' at row 1"],
    ["INSERT INTO r (ts) VALUES ('2040-01-01')", "ERROR 1292 (22007): Incorrect datetime value: '2040-01-01' for column 'ts' at row 1"],
    ["INSERT INTO r (t) VALUES ('839:00:00')", "ERROR 1292 (22007): Incorrect time value: '839:00:00' for column 't' at row 1"],
    ["INSERT INTO r (t) VALUES ('12:60:00')", "ERROR 1292 (22007): Incorrect time value: '12:60:00' for column 't' at row 1"],
    ['INSERT INTO r (f) VALUES (1000)', "ERROR 1264 (22003): Out of range value for column 'f' at row 1"],
    ['INSERT INTO r (b) VALUES (8)', "ERROR 1406 (22001): Data too long for column 'b' at row 1"],
    ['INSERT INTO r (ti) VALUES (1), (2), (300)', "ERROR 1264 (22003): Out of range value for column 'ti' at row 3"],
    ['INSERT INTO r (ti) VALUES (1), (1 + 1), (299 + 1)', "ERROR 1264 (22003): Out of range value for column 'ti' at row 3"],
    ["INSERT INTO r SET e = 'c'", "ERROR 1265 (01000): Data truncated for column 'e' at row 1"],
  ])('%s → %s', (sql, error) => {
    expect(errorOf(sql)).toBe(error);
  });

  it('an UPDATE and an upsert are refused as an INSERT is', () => {
    run('INSERT INTO r (id, ti) VALUES (1, 100)');
    expect(errorOf('UPDATE r SET ti = ti + 100')).toBe("ERROR 1264 (22003): Out of range value for column 'ti' at row 1");
    expect(errorOf("INSERT INTO r (id, ti) VALUES (1, 5) ON DUPLICATE KEY UPDATE s = 'long'")).toBe("ERROR 1406 (22001): Data too long for column 's' at row 1");
    expect(errorOf('INSERT INTO r (ti) SELECT ti * 2 FROM r')).toBe("ERROR 1264 (22003): Out of range value for column 'ti' at row 1");
    expect(rows('SELECT id, ti, s FROM r')).toEqual([[1, 100, null]]);
  });

  it('a refused statement changes nothing and logs nothing', () => {
    run('INSERT INTO r (id, ti) VALUES (1, 1)');
    const before = fresh.src.position();
    expect(errorOf("INSERT INTO r (ti, s) VALUES (2, 'ok'), (3, 'too long')")).toBe("ERROR 1406 (22001): Data too long for column 's' at row 2");
    expect(errorOf("UPDATE r SET s = 'abcd' WHERE id = 1")).toBe("ERROR 1406 (22001): Data too long for column 's' at row 1");
    expect(rows('SELECT id, ti, s FROM r')).toEqual([[1, 1, null]]);
    expect(fresh.src.position()).toEqual(before);
  });

  it('INSERT IGNORE stores the nearest value instead', () => {
    // MariaDB 10.11 with warnings 1264, 1265 and 1406 turned into notes by IGNORE
    run("INSERT IGNORE INTO r (id, ti, tu, s, e, st, d) VALUES (1, 1000, -5, 'abcdef', 'zz', 'x,w', 12345)");
    expect(rows('SELECT ti, tu, s, e, st, d FROM r')).toEqual([[127, 0, 'abc', '', 'x', '999.99']]);
  });
});

describe('AUTO_INCREMENT values of a refused statement', () => {
  it('a value refused in the first row uses none; a later row uses the whole statement’s', () => {
    // MariaDB 10.11: fill_record refuses the row before write_row asks InnoDB for a value; the
    // first row written reserves the values of every row of a simple INSERT
    run('CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, ti TINYINT)');
    run('INSERT INTO a (ti) VALUES (1)');
    expect(errorOf('INSERT INTO a (ti) VALUES (300)')).toBe("ERROR 1264 (22003): Out of range value for column 'ti' at row 1");
    run('INSERT INTO a (ti) VALUES (2)');
    expect(errorOf('INSERT INTO a (ti) VALUES (3), (4), (300)')).toBe("ERROR 1264 (22003): Out of range value for column 'ti' at row 3");
    run('INSERT INTO a (ti) VALUES (5)');
    expect(rows('SELECT id, ti FROM a ORDER BY id')).toEqual([
      [1, 1],
      [2, 2],
      [6, 5],
    ]);
  });
});

describe('stored values after a restart', () => {
  it('the change log replays the stored values onto the snapshot', async () => {
    run('CREATE TABLE p (id INT PRIMARY KEY, d DECIMAL(8,3), dt DATETIME)');
    fresh.src.snapshot();
    run("INSERT INTO p VALUES (1, 2, '2024/3/4 5:6:7')");
    await fresh.restart();
    expect(rows('SELECT * FROM p')).toEqual([[1, '2.000', '2024-03-04 05:06:07']]);
  });
});
