/**
 * UPDATE/DELETE … ORDER BY: MySQL changes the rows one at a time in that order (sql_update.cc
 * reads them through a filesort first), so the manual's `UPDATE t SET id = id + 1 ORDER BY id DESC`
 * does not break the key that the same statement without ORDER BY breaks, and the row events come
 * in that order. The embedded source's change log beside MariaDB's binary log for the same
 * statements (skipped without mariadbd, failing under CI=true).
 */
import { compareBinlogWithMariaDb } from './testing/binlog-vs-mariadb.test-util.js';

const SCRIPT: { what: string; sql: string }[] = [
  { what: 'a table with a primary key and a unique key', sql: "CREATE TABLE s (id INT PRIMARY KEY, k INT, name VARCHAR(10), UNIQUE KEY uk (k)); INSERT INTO s VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c'), (4, 40, 'd')" },
  { what: 'the manual’s example: ids moved up, largest first', sql: 'UPDATE s SET id = id + 1 ORDER BY id DESC' },
  { what: 'a unique key moved down, smallest first, with WHERE', sql: 'UPDATE s SET k = k - 10 WHERE id >= 2 ORDER BY k' },
  { what: 'ORDER BY DESC with LIMIT', sql: "UPDATE s SET name = 'top' ORDER BY id DESC LIMIT 2" },
  { what: 'ORDER BY another column than the key', sql: "UPDATE s SET name = CONCAT(name, '!') ORDER BY name DESC" },
  { what: 'DELETE … ORDER BY DESC LIMIT', sql: 'DELETE FROM s ORDER BY id DESC LIMIT 2' },
  { what: 'UPDATE IGNORE … ORDER BY', sql: 'UPDATE IGNORE s SET k = 20 ORDER BY id' },
  { what: 'with an alias', sql: "INSERT INTO s VALUES (7, 70, 'g'), (8, 80, 'h'); UPDATE s AS x SET x.id = x.id + 100 WHERE x.id > 5 ORDER BY x.id DESC" },
];

compareBinlogWithMariaDb({
  title: 'UPDATE and DELETE with ORDER BY change their rows in that order, as MariaDB does',
  file: 'dml-order-vs-mariadb.test.ts',
  database: 'ord',
  script: SCRIPT,
  dump: 'SELECT * FROM s ORDER BY id',
});
