/**
 * A SET column in numeric context is the bits of the members it holds (Field_set::val_int), next
 * to a private MariaDB (skipped without mariadbd, failing under CI=true): in arithmetic, compared
 * with a number, in an IN list of numbers and text, and sorted; text comparisons stay text. The
 * rows SELECTs return and the rows writes change must be the server's.
 */
import { describe } from 'vitest';
import { compareBinlogWithMariaDb } from './testing/binlog-vs-mariadb.test-util.js';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';

const TABLE = "CREATE TABLE f (id INT PRIMARY KEY, s SET('a','b','c','d'), n INT DEFAULT 0); INSERT INTO f (id, s) VALUES (1, 'a'), (2, 'b,c'), (3, 'a,c'), (4, ''), (5, NULL), (6, 'a,b,c,d'), (7, 'd')";

const CASES: CaseBeside[] = [
  { what: 'a SET in arithmetic is its bits', sql: 'SELECT id, s + 0, s * 2, s - 1, s / 2, s + 0.5 FROM f ORDER BY id' },
  { what: 'a SET equal to a number, and between numbers', sql: 'SELECT id FROM f WHERE s = 5 OR 6 = s OR s BETWEEN 8 AND 9 ORDER BY id' },
  { what: 'a SET compared with numbers in the select list', sql: 'SELECT id, s > 4, s < 2, s <> 1, s = 0 FROM f ORDER BY id' },
  { what: 'a SET in a list of numbers, and of numbers and text', sql: "SELECT id, s IN (1, 15), s IN ('b,c', 8), s NOT IN (5, 'a') FROM f ORDER BY id" },
  { what: 'a SET against text compares the text', sql: "SELECT id FROM f WHERE s = 'a,c' OR s = 'c,a' OR s > 'c' ORDER BY id" },
  { what: 'ORDER BY a SET sorts by its bits', sql: 'SELECT id, s FROM f ORDER BY s, id' },
  { what: 'ORDER BY a SET descending, qualified', sql: 'SELECT f.id FROM f ORDER BY f.s DESC, f.id' },
];

compareBinlogWithMariaDb({
  title: 'writes that read a SET as a number change the rows MariaDB changes',
  file: 'set-columns-vs-mariadb.test.ts',
  database: 'sets',
  script: [
    { what: 'a table with a SET column', sql: TABLE },
    { what: 'UPDATE storing a SET’s bits', sql: 'UPDATE f SET n = s + 0 WHERE s > 2' },
    { what: 'DELETE of the rows whose SET is a number', sql: 'DELETE FROM f WHERE s = 8 OR s IN (0)' },
    { what: 'UPDATE … ORDER BY a SET with LIMIT', sql: 'UPDATE f SET n = 99 ORDER BY s DESC LIMIT 2' },
  ],
  dump: 'SELECT * FROM f ORDER BY id',
});

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`a SET column as a number is the real server's${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('sets', `CREATE DATABASE st; USE st; ${TABLE}`);
  casesBeside(pair, 'st', CASES);
});
