/**
 * REPLACE's row events: the embedded source's change log beside the binary log of a private
 * MariaDB (binlog_format=ROW, decoded by mariadb-binlog) for the same statements, and the
 * affected rows beside the server's. Skipped without mariadbd (failing under CI=true, which
 * installs mariadb-server and with it mariadb-client's mariadb-binlog).
 *
 * MySQL's rule (sql_insert.cc, write_record): a conflict on the table's last unique key updates
 * that row in place, a conflict on an earlier key deletes the row and tries again.
 */
import { compareBinlogWithMariaDb } from './testing/binlog-vs-mariadb.test-util.js';

const SCRIPT: { what: string; sql: string }[] = [
  { what: 'a table whose only unique key is the primary key', sql: "CREATE TABLE pk (id INT PRIMARY KEY, v VARCHAR(10)); INSERT INTO pk VALUES (1, 'a'), (2, 'b')" },
  { what: 'the id taken: the row is updated in place', sql: "REPLACE INTO pk VALUES (1, 'x')" },
  { what: 'a new id: an insert', sql: "REPLACE INTO pk VALUES (3, 'c')" },
  { what: 'the same row again: no row event, one row affected', sql: "REPLACE INTO pk VALUES (2, 'b')" },
  { what: 'several rows, two of them the same id', sql: "REPLACE INTO pk VALUES (1, 'p'), (1, 'q'), (5, 'n')" },
  { what: 'REPLACE … SELECT from the table itself', sql: "REPLACE INTO pk SELECT id, CONCAT(v, '!') FROM pk WHERE id IN (1, 2)" },
  { what: 'rows REPLACE updated in place are updated and deleted later by their ids', sql: "UPDATE pk SET v = CONCAT(v, '+'); DELETE FROM pk WHERE id = 2" },
  { what: 'a primary key and a unique key', sql: "CREATE TABLE pu (id INT PRIMARY KEY, u VARCHAR(10) NOT NULL, v INT, UNIQUE KEY uq (u)); INSERT INTO pu VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)" },
  { what: 'a conflict on the primary key (not the last key): delete and insert', sql: "REPLACE INTO pu VALUES (1, 'z', 11)" },
  { what: 'a conflict on the unique key (the last key): an update in place that changes the id', sql: "REPLACE INTO pu VALUES (9, 'b', 99)" },
  { what: 'a conflict on both keys with one row: delete and insert', sql: "REPLACE INTO pu VALUES (3, 'c', 33)" },
  { what: 'a conflict on both keys with two rows: the id’s row deleted, the unique key’s row updated', sql: "REPLACE INTO pu VALUES (1, 'c', 100)" },
  { what: 'the same row again, found by its primary key first: delete and insert', sql: "REPLACE INTO pu VALUES (9, 'b', 99)" },
  { what: 'a unique key that ignores case', sql: "REPLACE INTO pu VALUES (7, 'C', 1)" },
  { what: 'REPLACE … SET', sql: "REPLACE INTO pu SET id = 8, u = 'B', v = 2" },
  { what: 'rows moved by REPLACE are updated and deleted later', sql: "UPDATE pu SET v = v + 1; DELETE FROM pu WHERE u = 'b'" },
  { what: 'a nullable unique key declared before a NOT NULL one', sql: 'CREATE TABLE kn (id INT PRIMARY KEY, a INT NULL, b INT NOT NULL, UNIQUE KEY ua (a), UNIQUE KEY ub (b)); INSERT INTO kn VALUES (1, 1, 1), (2, 2, 2), (3, NULL, 3), (4, 4, 4)' },
  { what: 'MySQL orders the NOT NULL key before the nullable one: a conflict on it deletes', sql: 'REPLACE INTO kn VALUES (10, 9, 2)' },
  { what: 'the nullable key is the last: a conflict on it updates in place', sql: 'REPLACE INTO kn VALUES (11, 1, 8)' },
  { what: 'NULL conflicts with nothing', sql: 'REPLACE INTO kn VALUES (12, NULL, 3)' },
  { what: 'two rows, the NOT NULL key’s deleted, the nullable key’s updated', sql: 'REPLACE INTO kn VALUES (13, 4, 12)' },
  { what: 'three unique keys', sql: 'CREATE TABLE m3 (id INT PRIMARY KEY, a INT NOT NULL, b INT NOT NULL, UNIQUE KEY ua (a), UNIQUE KEY ub (b)); INSERT INTO m3 VALUES (1, 1, 1), (2, 2, 2), (3, 3, 3)' },
  { what: 'a conflict with three rows: two deleted in key order, the last key’s updated', sql: 'REPLACE INTO m3 VALUES (1, 2, 3)' },
  { what: 'an AUTO_INCREMENT id', sql: "CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, u VARCHAR(5) NOT NULL, v INT, UNIQUE KEY uq (u)); INSERT INTO ai (u, v) VALUES ('a', 1), ('b', 2)" },
  { what: 'the id left out: the unique key’s row is updated to the next id', sql: "REPLACE INTO ai (u, v) VALUES ('a', 10)" },
  { what: 'the id given, the same row: delete and insert', sql: "REPLACE INTO ai (id, u, v) VALUES (2, 'b', 2)" },
  { what: 'the id left out, several rows', sql: "REPLACE INTO ai (u, v) VALUES ('b', 5), ('c', 6), ('c', 7)" },
  { what: 'the AUTO_INCREMENT ids go on from there', sql: "INSERT INTO ai (u, v) VALUES ('d', 8); UPDATE ai SET v = v * 10" },
  { what: 'no primary key, one unique key', sql: 'CREATE TABLE nopk (u INT NOT NULL, v INT, UNIQUE KEY uu (u)); INSERT INTO nopk VALUES (1, 1), (2, 2)' },
  { what: 'a conflict on it: update in place', sql: 'REPLACE INTO nopk VALUES (1, 5)' },
  { what: 'no unique key at all: REPLACE inserts', sql: 'CREATE TABLE nokey (a INT, b INT); REPLACE INTO nokey VALUES (1, 1), (1, 1)' },
  { what: 'in a transaction', sql: "BEGIN; REPLACE INTO pk VALUES (1, 'tx'); REPLACE INTO pk VALUES (1, 'tx'); REPLACE INTO pu VALUES (20, 'z', 0); DELETE FROM pk WHERE id = 1; COMMIT" },
];

compareBinlogWithMariaDb({
  title: 'REPLACE writes the row events MariaDB writes',
  file: 'replace-binlog-vs-mariadb.test.ts',
  database: 'rp',
  script: SCRIPT,
  dump: 'SELECT * FROM pk ORDER BY id; SELECT * FROM pu ORDER BY id; SELECT * FROM kn ORDER BY id; SELECT * FROM m3 ORDER BY id; SELECT * FROM ai ORDER BY id; SELECT * FROM nopk ORDER BY u; SELECT * FROM nokey',
});
