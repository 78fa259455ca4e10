/**
 * Dates that are not on the calendar (February 30th, April 31st, month 13, February 29th of 2023,
 * text that is no date) given to the date functions, beside MariaDB (skipped without mariadbd,
 * failing under CI=true): NULL and warning 1292 in a SELECT, the statement's error in a strict-mode
 * write, a warning and NULL stored under IGNORE. SQLite alone moves such a date into the next month.
 *
 * Where MySQL 8.0 answers otherwise than MariaDB 10.11, the case holds MySQL's answer and says
 * where it comes from. Two differences recur:
 * - MariaDB names the column a value came from ("… for column `d`.`t`.`s` at row 1"); MySQL 8.0
 *   reads a column's text with Field::get_date → str_to_datetime_with_warn (sql/field.cc,
 *   sql/sql_time.cc), whose make_truncated_value_warning is given no field name, so the message is
 *   the value alone, as for a literal.
 * - MariaDB's DELETE does not make these warnings errors; MySQL 8.0's Sql_cmd_dml::execute pushes
 *   the Strict_error_handler for every data-change statement without IGNORE, and that handler
 *   lists SQLCOM_DELETE and raises ER_TRUNCATED_WRONG_VALUE to an error (sql/sql_select.cc,
 *   sql/error_handler.cc).
 */
import { describe, expect, it } from 'vitest';
import { compareBinlogWithMariaDb } from './testing/binlog-vs-mariadb.test-util.js';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';
import type { QuerySource } from './types.js';

const SETUP =
  "CREATE DATABASE d; USE d; CREATE TABLE t (id INT PRIMARY KEY, d DATE, dt DATETIME, s VARCHAR(20)); INSERT INTO t VALUES (1, '2024-01-31', '2024-01-31 10:00:00', '2024-02-30'), (2, '2024-02-29', '2024-02-29 23:59:59', 'garbage'), (3, '2023-03-31', NULL, '2024-04-31')";

const incorrect = (v: string) => ['Warning', 1292, `Incorrect datetime value: '${v}'`];

const SELECTS: CaseBeside[] = [
  { what: 'DATE() of dates not on the calendar', sql: "SELECT DATE('2024-02-30'), DATE('2024-04-31'), DATE('2024-13-01'), DATE('2023-02-29'), DATE('garbage'), DATE('2024-02-29'); SHOW WARNINGS" },
  { what: 'DATE() of datetimes, numbers and other spellings', sql: "SELECT DATE('2024-02-30 10:00:00'), DATE('2024-02-03 25:00:00'), DATE('2024-2-3'), DATE('2024/02/30'), DATE(20240203), DATE(20240230), DATE('24-02-03'); SHOW WARNINGS" },
  { what: 'DATE() cuts text after a date with a warning', sql: "SELECT DATE('2024-02-03x'); SHOW WARNINGS" },
  { what: 'DATE_ADD, DATE_SUB, ADDDATE and SUBDATE', sql: "SELECT DATE_ADD('2024-02-30', INTERVAL 1 DAY), DATE_SUB('2024-04-31', INTERVAL 1 MONTH), ADDDATE('2023-02-29', INTERVAL 1 YEAR), SUBDATE('2024-13-01', INTERVAL 1 DAY); SHOW WARNINGS" },
  { what: 'x + INTERVAL and x - INTERVAL', sql: "SELECT '2024-02-30' + INTERVAL 1 DAY, '2024-02-30' - INTERVAL 1 HOUR, '2024-02-28' + INTERVAL 1 DAY, '2024-01-31' + INTERVAL 1 MONTH, '2024-01-31' + INTERVAL 36 HOUR; SHOW WARNINGS" },
  { what: 'interval arithmetic past the years a date can have', sql: "SELECT DATE_ADD('9999-12-31', INTERVAL 1 DAY), DATE_SUB('0001-01-01', INTERVAL 1 YEAR); SHOW WARNINGS" },
  { what: 'DATEDIFF reads both dates, each with its warning', sql: "SELECT DATEDIFF('2024-02-30', '2024-01-01'), DATEDIFF('2024-03-01', 'garbage'), DATEDIFF('garbage', '2024-02-30'); SHOW WARNINGS" },
  { what: 'DAYOFWEEK, WEEKDAY, DAYNAME and MONTHNAME', sql: "SELECT DAYOFWEEK('2024-02-30'), WEEKDAY('2024-02-30'), DAYNAME('2024-02-30'), MONTHNAME('2024-13-01'); SHOW WARNINGS" },
  { what: 'YEAR, MONTH, DAY and DAYOFMONTH', sql: "SELECT YEAR('2024-02-30'), MONTH('2024-13-01'), DAY('2024-04-32'), DAYOFMONTH('2023-02-29'), YEAR('garbage'); SHOW WARNINGS" },
  { what: 'DAYOFYEAR, WEEK and QUARTER', sql: "SELECT DAYOFYEAR('2024-02-30'), WEEK('2024-02-30'), QUARTER('2024-13-01'); SHOW WARNINGS" },
  { what: 'LAST_DAY', sql: "SELECT LAST_DAY('2024-02-30'), LAST_DAY('2023-02-29'), LAST_DAY('2024-13-01'), LAST_DAY('2023-02-28'); SHOW WARNINGS" },
  { what: 'DATE_FORMAT', sql: "SELECT DATE_FORMAT('2024-02-30', '%Y-%m-%d'), DATE_FORMAT('garbage', '%Y'), DATE_FORMAT('2024-02-29', '%W'); SHOW WARNINGS" },
  { what: 'TO_DAYS and UNIX_TIMESTAMP', sql: "SELECT TO_DAYS('2024-02-30'), TO_DAYS('2024-02-29'), UNIX_TIMESTAMP('2024-02-30'), UNIX_TIMESTAMP('2024-02-30 10:00:00'); SHOW WARNINGS" },
  // MariaDB in its default sql_mode; a day of 0 is read by the functions that only take the date apart (MySQL's TIME_FUZZY_DATE)
  {
    what: 'a day or month of 0: taken apart, not computed with',
    sql: "SELECT DAY('2024-02-00'), YEAR('2024-02-00'), MONTH('2024-00-05'), DATE('2024-02-00'), LAST_DAY('2024-02-00'), DAYNAME('2024-02-00'), DATE_ADD('2024-02-00', INTERVAL 1 DAY), TO_DAYS('2024-02-00'), DATEDIFF('2024-02-00', '2024-01-01'); SHOW WARNINGS",
  },
  {
    what: 'a column of text that is no date: NULL for each row, beside DATE and DATETIME columns',
    sql: 'SELECT id, DATE(s), DAY(s), DATE_ADD(s, INTERVAL 1 DAY), DAYNAME(s), DATE_ADD(d, INTERVAL 1 MONTH), d + INTERVAL 1 DAY, dt - INTERVAL 1 HOUR, DATE(dt), DATE_ADD(dt, INTERVAL 1 DAY) FROM t ORDER BY id',
  },
  // MySQL 8.0 names no column (str_to_datetime_with_warn, see the header); MariaDB adds "for column `d`.`t`.`s` at row N"
  {
    what: 'a column of text that is no date: a warning for each value',
    sql: 'SELECT id, DATE(s) FROM t ORDER BY id; SHOW WARNINGS',
    mysql: [incorrect('2024-02-30'), incorrect('garbage'), incorrect('2024-04-31')],
  },
  { what: 'EXTRACT of the date\'s parts', sql: "SELECT EXTRACT(MONTH FROM '2024-02-30'), EXTRACT(YEAR FROM 'garbage'), EXTRACT(YEAR_MONTH FROM '2024-13-01'), EXTRACT(WEEK FROM '2024-02-30'), EXTRACT(QUARTER FROM '2024-02-00'), EXTRACT(HOUR FROM '10:00:00'); SHOW WARNINGS" },
  { what: 'TIMESTAMPDIFF stops at the first invalid date; TIMESTAMP()', sql: "SELECT TIMESTAMPDIFF(DAY, 'garbage', '2024-02-30'), TIMESTAMPDIFF(DAY, '2024-02-29', '2024-02-30'), TIMESTAMP('2024-02-30 10:00:00'), TIMESTAMP('2024-02-00'), TIMESTAMP('2024-2-9'); SHOW WARNINGS" },
  { what: 'STR_TO_DATE of text the format does not read: warning 1411', sql: "SELECT STR_TO_DATE('abc', '%Y-%m-%d'), STR_TO_DATE('2024-13-01', '%Y-%m-%d'), STR_TO_DATE('10:61', '%H:%i'), STR_TO_DATE('2024-02-29x', '%Y-%m-%d'), STR_TO_DATE(NULL, '%Y'); SHOW WARNINGS" },
  // MySQL 8.0's extract_date_time (sql/item_timefunc.cc) ends with check_date without TIME_INVALID_DATES, so February 30th
  // is its error, NULL and warning 1411 (date-functions.test.ts has the NULL); MariaDB 10.11 passes TIME_INVALID_DATES there and answers 2024-02-30
  { what: 'STR_TO_DATE of February 30th: NULL and its warning', sql: "SELECT STR_TO_DATE('2024-02-30', '%Y-%m-%d'); SHOW WARNINGS", mysql: [['Warning', 1411, "Incorrect datetime value: '2024-02-30' for function str_to_date"]] },
  { what: 'SET of a user variable warns and keeps NULL', sql: "SET @x = DATE('2024-02-30'); SHOW WARNINGS" },
  { what: 'NULL is no invalid date: NULL without a warning', sql: "SELECT DATE(NULL), DAYNAME(NULL), DATE_ADD(NULL, INTERVAL 1 DAY), DATE('2024-02-30'); SHOW WARNINGS" },
];

const mariadb = mariadbTests();
if (mariadb.skip) console.warn(`invalid-dates-vs-mariadb.test.ts: MariaDB tests ${mariadb.reason}`);

describe.skipIf(mariadb.skip)(`invalid dates in SELECTs are NULL with the real server's warning${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('dates', SETUP);
  // MySQL's answers where MariaDB's differ; the rest compare every result, the values and then SHOW WARNINGS
  casesBeside(pair, 'd', SELECTS.filter((c) => c.mysql));
  const results = async (src: QuerySource, sql: string) => (await src.execute('d', sql)).map((r) => r.rows);
  for (const c of SELECTS.filter((x) => !x.mysql)) {
    it(`${c.what}: ${c.sql}`, async () => {
      expect(await results(pair.embedded, c.sql)).toEqual(await results(pair.real, c.sql));
    });
  }
});

describe.skipIf(mariadb.skip)(`invalid dates in writes are the real server's errors, or warnings under IGNORE${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('datew', SETUP);
  const outcome = async (src: QuerySource, sql: string) => src.execute('d', sql).then((r) => JSON.stringify(r.map((x) => x.rows)), (err: unknown) => String(err));
  const rows = async (src: QuerySource) => (await src.execute('d', 'SELECT * FROM t ORDER BY id'))[0]!.rows;

  it.each([
    ['UPDATE … SET d = DATE_ADD of a literal', "UPDATE t SET d = DATE_ADD('2024-02-30', INTERVAL 1 DAY) WHERE id = 1", '2024-02-30'],
    ['INSERT of LAST_DAY', "INSERT INTO t (id, d) VALUES (10, LAST_DAY('2023-02-29'))", '2023-02-29'],
    ['INSERT of DAYNAME into text', "INSERT INTO t (id, s) VALUES (11, DAYNAME('2024-13-01'))", '2024-13-01'],
    ['REPLACE of TO_DAYS', "REPLACE INTO t (id, d) VALUES (14, TO_DAYS('2024-04-31'))", '2024-04-31'],
    ['the update of an upsert', "INSERT INTO t (id, d) VALUES (1, '2024-01-01') ON DUPLICATE KEY UPDATE d = DATE('garbage')", 'garbage'],
    ['INSERT of DATE() of a date with text after it', "INSERT INTO t (id, d) VALUES (31, DATE('2024-02-03x'))", "ERROR 1292 (22007): Truncated incorrect date value: '2024-02-03x'"],
    ['INSERT of STR_TO_DATE', "INSERT INTO t (id, d) VALUES (30, STR_TO_DATE('abc', '%Y'))", 'ERROR 1411 (HY000): Incorrect datetime value: \'abc\' for function str_to_date'],
  ])('strict mode: %s is the error and changes nothing: %s', async (_what, sql, value) => {
    const before = await rows(pair.embedded);
    const error = value.startsWith('ERROR') ? value : `ERROR 1292 (22007): Incorrect datetime value: '${value}'`;
    expect(await outcome(pair.real, sql)).toBe(error);
    expect(await outcome(pair.embedded, sql)).toBe(error);
    expect(await rows(pair.embedded)).toEqual(before);
    expect(await rows(pair.embedded)).toEqual(await rows(pair.real));
  });

  // MySQL 8.0 names no column (see the header)
  it.each([
    ['UPDATE … SET from a column', 'UPDATE t SET d = DATE_ADD(s, INTERVAL 1 DAY) WHERE id = 1', '2024-02-30'],
    ['UPDATE … WHERE on a column', 'UPDATE t SET d = DATE_ADD(d, INTERVAL 1 DAY) WHERE id = 3 AND DAY(s) = 31', '2024-04-31'],
    ['INSERT … SELECT', "INSERT INTO t (id, s) SELECT 12, DATE_FORMAT(s, '%Y') FROM t WHERE id = 1", '2024-02-30'],
  ])('strict mode: %s is ERROR 1292 naming the value, as MySQL 8.0 words it: %s', async (_what, sql, value) => {
    expect(await outcome(pair.real, sql)).toBe(`ERROR 1292 (22007): Incorrect datetime value: '${value}' for column \`d\`.\`t\`.\`s\` at row 1`);
    expect(await outcome(pair.embedded, sql)).toBe(`ERROR 1292 (22007): Incorrect datetime value: '${value}'`);
    expect(await rows(pair.embedded)).toEqual(await rows(pair.real));
  });

  it('strict mode: a DELETE whose WHERE reads an invalid date is the error MySQL 8.0 gives (MariaDB deletes)', async () => {
    const sql = 'DELETE FROM t WHERE id = 1 AND DATE_ADD(s, INTERVAL 1 DAY) IS NULL';
    expect(await outcome(pair.embedded, sql)).toBe("ERROR 1292 (22007): Incorrect datetime value: '2024-02-30'");
    expect((await rows(pair.embedded)).map((r) => r[0])).toEqual([1, 2, 3]);
  });

  it('UPDATE IGNORE stores NULL and warns for each row, as MySQL 8.0 words it', async () => {
    const sql = 'UPDATE IGNORE t SET d = DATE_ADD(s, INTERVAL 1 DAY) WHERE id <= 2; SHOW WARNINGS';
    const real = JSON.parse(await outcome(pair.real, sql)) as unknown[][][];
    expect(real[1]).toEqual([
      ['Warning', 1292, "Incorrect datetime value: '2024-02-30' for column `d`.`t`.`s` at row 1"],
      ['Warning', 1292, "Incorrect datetime value: 'garbage' for column `d`.`t`.`s` at row 2"],
    ]);
    expect(JSON.parse(await outcome(pair.embedded, sql))).toEqual([[], [incorrect('2024-02-30'), incorrect('garbage')]]);
    expect(await rows(pair.embedded)).toEqual(await rows(pair.real));
  });

  it('DELETE IGNORE warns and deletes what its WHERE then matches', async () => {
    const sql = 'DELETE IGNORE FROM t WHERE DATE(s) IS NULL AND id = 2; SHOW WARNINGS';
    expect(JSON.parse(await outcome(pair.real, sql))).toEqual([[], [['Warning', 1292, "Incorrect datetime value: 'garbage' for column `d`.`t`.`s` at row 1"]]]);
    expect(JSON.parse(await outcome(pair.embedded, sql))).toEqual([[], [incorrect('garbage')]]);
    expect(await rows(pair.embedded)).toEqual(await rows(pair.real));
  });
});

compareBinlogWithMariaDb({
  title: 'writes computing with invalid dates log the rows MariaDB logs',
  file: 'invalid-dates-vs-mariadb.test.ts',
  database: 'datesb',
  script: [
    { what: 'a table of dates and text', sql: "CREATE TABLE t (id INT PRIMARY KEY, d DATE, s VARCHAR(20)); INSERT INTO t VALUES (1, '2024-01-31', '2024-02-30'), (2, '2023-01-31', '2024-02-29'), (3, '2024-03-31', 'garbage')" },
    { what: 'UPDATE IGNORE: the text a day later where it is a date, else a month added (clamped to the month end)', sql: 'UPDATE IGNORE t SET d = COALESCE(DATE_ADD(s, INTERVAL 1 DAY), DATE_ADD(d, INTERVAL 1 MONTH))' },
    { what: 'UPDATE IGNORE stores NULL where the text is no date', sql: 'UPDATE IGNORE t SET d = DATE_ADD(s, INTERVAL 1 DAY) WHERE id <> 2' },
    { what: 'INSERT IGNORE … SELECT of DATE() of the text', sql: 'INSERT IGNORE INTO t (id, d, s) SELECT id + 10, DATE(s), s FROM t' },
    { what: 'UPDATE IGNORE of the text to its DAYNAME: NULL where it is no date', sql: 'UPDATE IGNORE t SET s = DAYNAME(s)' },
  ],
  dump: 'SELECT * FROM t ORDER BY id',
});
