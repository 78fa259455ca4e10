/**
 * Multi-table and aliased UPDATE/DELETE: the embedded source's change log beside the binary log
 * of a private MariaDB (binlog_format=ROW, decoded by mariadb-binlog) for the same statements,
 * and the affected rows beside the server's. Skipped without mariadbd (failing under CI=true).
 *
 * MySQL's rules (sql_update.cc multi_update, sql_delete.cc multi_delete): a row the join matches
 * several times is changed once; the rows of each table are changed table by table; a
 * multi-table UPDATE's affected rows are the rows changed in all its tables, a multi-table
 * DELETE's the rows deleted from all of them.
 */
import { compareBinlogWithMariaDb } from './testing/binlog-vs-mariadb.test-util.js';

const SCRIPT: { what: string; sql: string }[] = [
  { what: 'two tables', sql: "CREATE TABLE c (id INT PRIMARY KEY, name VARCHAR(10), n INT); CREATE TABLE o (oid INT PRIMARY KEY, cid INT, x VARCHAR(5) DEFAULT 'dd'); INSERT INTO c VALUES (1, 'a', 0), (2, 'b', 0), (3, 'c', 0); INSERT INTO o VALUES (10, 1, 'p'), (11, 1, 'q'), (12, 2, 'r'), (13, 9, 's')" },
  { what: 'an UPDATE with an alias', sql: "UPDATE c AS k SET k.name = 'aa' WHERE k.id = 1" },
  { what: 'an UPDATE with an alias, ORDER BY and LIMIT', sql: 'UPDATE c k SET k.n = k.n + 1 ORDER BY k.id LIMIT 2' },
  { what: 'a join updating one table: a row matched twice is changed once', sql: 'UPDATE c JOIN o ON o.cid = c.id SET c.n = c.n + 10' },
  { what: 'a join updating both tables', sql: "UPDATE c k JOIN o ON o.cid = k.id SET k.name = CONCAT(k.name, '!'), o.x = UPPER(o.x) WHERE k.id <= 2" },
  { what: 'the old comma join, a column of the other table as the value', sql: 'UPDATE o, c SET o.x = c.name WHERE o.cid = c.id AND c.id = 2' },
  { what: 'rows left as they were are not counted', sql: 'UPDATE c JOIN o ON o.cid = c.id SET c.n = c.n, o.x = o.x' },
  { what: 'SET … = DEFAULT in a join', sql: 'UPDATE c JOIN o ON o.cid = c.id SET o.x = DEFAULT WHERE c.id = 1' },
  { what: 'a LEFT JOIN update of the rows without a match', sql: 'UPDATE c LEFT JOIN o ON o.cid = c.id SET c.n = 99 WHERE o.oid IS NULL' },
  { what: 'DELETE t FROM t AS alias', sql: 'DELETE k FROM c AS k WHERE k.id = 3' },
  { what: 'the single-table DELETE with the multi-table syntax', sql: "INSERT INTO c VALUES (4, 'd', 0), (5, 'e', 0); DELETE c FROM c WHERE c.id = 5" },
  { what: 'DELETE of two tables', sql: 'DELETE k, o FROM c AS k JOIN o ON o.cid = k.id WHERE k.id = 1' },
  { what: 'DELETE … USING', sql: 'DELETE FROM o USING o LEFT JOIN c ON c.id = o.cid WHERE c.id IS NULL' },
  // (which table MySQL changes first is its optimizer's join order; these name one table each)
  { what: 'in a transaction', sql: "BEGIN; UPDATE c JOIN o ON o.cid = c.id SET c.name = 'tx' WHERE c.id = 2; DELETE o.* FROM c, o WHERE o.cid = c.id AND c.id = 2; COMMIT" },
];

compareBinlogWithMariaDb({
  title: 'multi-table UPDATE and DELETE write the row events MariaDB writes',
  file: 'multi-table-dml-vs-mariadb.test.ts',
  database: 'mt',
  script: SCRIPT,
  dump: 'SELECT * FROM c ORDER BY id; SELECT * FROM o ORDER BY oid',
});
