/**
 * String literals as MySQL reads them with its default sql_mode (mysql-strings.ts), beside MariaDB
 * (skipped without mariadbd, failing under CI=true): backslash escapes, double-quoted strings, and
 * LIKE's default escape character — in the rows writes store and log, and in what SELECTs match.
 */
import { describe } from 'vitest';
import { compareBinlogWithMariaDb } from './testing/binlog-vs-mariadb.test-util.js';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';

compareBinlogWithMariaDb({
  title: 'backslash escapes and double-quoted strings store and log the values MariaDB does',
  file: 'mysql-strings-vs-mariadb.test.ts',
  database: 'strs',
  script: [
    { what: 'a table of text', sql: "CREATE TABLE s (id INT PRIMARY KEY, v VARCHAR(40)); INSERT INTO s VALUES (1, 'plain')" },
    // what mysqldump and client libraries write: a quote escaped with a backslash
    { what: 'escaped quotes, backslashes, tabs and newlines', sql: "INSERT INTO s VALUES (2, 'it\\'s'), (3, 'a\\\\b'), (4, 'tab\\there'), (5, 'two\\nlines'), (6, 'ends with \\\\')" },
    { what: 'double quotes make a string', sql: 'INSERT INTO s VALUES (7, "double \\"quoted\\" and \'single\'")' },
    { what: 'LIKE keeps \\% and \\_, and escapes with a backslash', sql: "INSERT INTO s VALUES (8, 'a_b'), (9, 'axb'), (10, '100%'), (11, 'a\\_b')" },
    { what: 'an UPDATE whose WHERE compares with a double-quoted string', sql: 'UPDATE s SET v = "hit" WHERE v = "plain"' },
    { what: 'an UPDATE matching a literal underscore', sql: "UPDATE s SET v = CONCAT(v, '!') WHERE v LIKE 'a\\_b'" },
    { what: 'a DELETE matching a literal percent', sql: "DELETE FROM s WHERE v LIKE '%\\%'" },
    { what: 'defaults written with escapes and in double quotes', sql: "CREATE TABLE dft (id INT PRIMARY KEY, v VARCHAR(10) DEFAULT 'it\\'s', w VARCHAR(9) DEFAULT \"dq\", b VARCHAR(5) DEFAULT 'a\\\\b'); INSERT INTO dft (id) VALUES (1)" },
    { what: 'SET c = DEFAULT of such a column', sql: "INSERT INTO dft VALUES (2, 'x', 'y', 'z'); UPDATE dft SET v = DEFAULT, b = DEFAULT WHERE id = 2" },
  ],
  dump: 'SELECT * FROM s ORDER BY id; SELECT id, LENGTH(v) FROM s ORDER BY id; SELECT * FROM dft ORDER BY id',
});

const CASES: CaseBeside[] = [
  { what: 'escapes in a SELECT', sql: "SELECT 'it\\'s', 'a\\\\b', LENGTH('a\\\\b'), 'x\\ty', 'q\\\"q', '\\%\\_', LENGTH('\\%'), 'no\\escape'" },
  { what: 'double-quoted strings are strings, not names', sql: 'SELECT "id", "it""s", "a\'b" FROM s WHERE id = 1' },
  { what: 'LIKE with escaped wildcards, NOT LIKE and ESCAPE given', sql: "SELECT id FROM s WHERE v LIKE 'a\\_b%' OR v LIKE '1|%%' ESCAPE '|' OR v NOT LIKE '%' ORDER BY id" },
  { what: 'REGEXP reads the backslash the literal keeps', sql: "SELECT 'a1' REGEXP 'a\\\\d', 'ab' REGEXP 'a\\\\d'" },
];

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`string literals in SELECTs are the real server's${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('strs', "CREATE DATABASE st; USE st; CREATE TABLE s (id INT PRIMARY KEY, v VARCHAR(40)); INSERT INTO s VALUES (1, 'name'), (2, 'a_b'), (3, 'axb'), (4, '100%'), (5, 'a_bc')");
  casesBeside(pair, 'st', CASES);
});
