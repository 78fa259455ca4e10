/**
 * SAVEPOINT, ROLLBACK TO SAVEPOINT and RELEASE SAVEPOINT (savepoints.ts) beside MariaDB: the rows
 * a transaction keeps and the row events its commit logs, the AUTO_INCREMENT values undone rows
 * used up, and the errors for savepoints that do not exist (skipped without mariadbd, failing
 * under CI=true). MySQL 8.0 words ER_SP_DOES_NOT_EXIST as MariaDB does ("%s %s does not exist").
 */
import { describe, expect, it } from 'vitest';
import { compareBinlogWithMariaDb } from './testing/binlog-vs-mariadb.test-util.js';
import { mariadbTests } from './testing/mariadb-server.js';
import { sideBySide } from './testing/side-by-side.test-util.js';

compareBinlogWithMariaDb({
  title: 'a transaction rolled back to a savepoint logs only the rows it keeps, as in MariaDB',
  file: 'savepoints-vs-mariadb.test.ts',
  database: 'sps',
  script: [
    { what: 'a table with generated keys', sql: "CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10)); INSERT INTO a (v) VALUES ('one'), ('two')" },
    {
      what: 'an insert and an update undone, one kept',
      sql: "BEGIN; INSERT INTO a (v) VALUES ('three'); SAVEPOINT s1; INSERT INTO a (v) VALUES ('four'); UPDATE a SET v = 'ONE' WHERE id = 1; ROLLBACK TO SAVEPOINT s1; UPDATE a SET v = 'TWO' WHERE id = 2; COMMIT",
    },
    { what: 'the undone row’s AUTO_INCREMENT value stays used', sql: "INSERT INTO a (v) VALUES ('five')" },
    {
      what: 'nested savepoints: back to the outer one drops the inner one; the name is case-insensitive',
      sql: "START TRANSACTION; SAVEPOINT outer_sp; DELETE FROM a WHERE id = 1; SAVEPOINT inner_sp; DELETE FROM a WHERE id = 2; ROLLBACK WORK TO OUTER_SP; INSERT INTO a (v) VALUES ('six'); COMMIT",
    },
    {
      what: 'RELEASE keeps the work; setting a name again moves it',
      sql: "BEGIN; SAVEPOINT x; UPDATE a SET v = 'r1' WHERE id = 1; RELEASE SAVEPOINT x; SAVEPOINT y; UPDATE a SET v = 'r2' WHERE id = 2; SAVEPOINT y; UPDATE a SET v = 'r3' WHERE id = 3; ROLLBACK TO y; COMMIT",
    },
    { what: 'rolled back to a savepoint set before any write, then committed: nothing logged', sql: "BEGIN; SAVEPOINT first; DELETE FROM a; ROLLBACK TO first; COMMIT" },
    { what: 'a savepoint, then a whole ROLLBACK', sql: "BEGIN; INSERT INTO a (v) VALUES ('gone'); SAVEPOINT s; INSERT INTO a (v) VALUES ('gone too'); ROLLBACK" },
    { what: 'with autocommit off a savepoint opens the transaction', sql: "SET autocommit = 0; SAVEPOINT s; INSERT INTO a (v) VALUES ('seven'); ROLLBACK TO SAVEPOINT s; INSERT INTO a (v) VALUES ('eight'); COMMIT" },
  ],
  dump: 'SELECT * FROM a ORDER BY id',
});

const mariadb = mariadbTests();
if (mariadb.skip) console.warn(`savepoints-vs-mariadb.test.ts: ${mariadb.reason}`);

describe.skipIf(mariadb.skip)('savepoints that do not exist are errors, as in MariaDB', () => {
  const pair = sideBySide('savepoint-errors', 'CREATE DATABASE spe; CREATE TABLE spe.t (id INT PRIMARY KEY)');
  const outcome = async (src: typeof pair.real | typeof pair.embedded, sql: string) => {
    try {
      const results = await src.execute('spe', sql);
      return `OK ${JSON.stringify((await src.execute('spe', 'SELECT id FROM t ORDER BY id'))[0]!.rows)} ${results.length}`;
    } catch (err) {
      return String(err);
    }
  };

  it.each([
    ['ROLLBACK TO a name never set', 'BEGIN; INSERT INTO t VALUES (1); ROLLBACK TO SAVEPOINT nope'],
    ['ROLLBACK TO outside a transaction', 'SAVEPOINT a; ROLLBACK TO a'],
    ['RELEASE outside a transaction', 'RELEASE SAVEPOINT a'],
    ['a savepoint released, then rolled back to', 'BEGIN; SAVEPOINT a; INSERT INTO t VALUES (2); RELEASE SAVEPOINT a; ROLLBACK TO a'],
    ['an inner savepoint after ROLLBACK TO the outer one', 'BEGIN; SAVEPOINT a; SAVEPOINT b; ROLLBACK TO a; RELEASE SAVEPOINT b'],
    ['a savepoint ended by COMMIT', 'BEGIN; SAVEPOINT a; INSERT INTO t VALUES (3); COMMIT; ROLLBACK TO a'],
    ['a savepoint ended by DDL’s implicit commit', 'BEGIN; SAVEPOINT a; INSERT INTO t VALUES (4); CREATE TABLE u (id INT); ROLLBACK TO a'],
    ['a quoted name', 'BEGIN; SAVEPOINT `my sp`; INSERT INTO t VALUES (5); ROLLBACK TO `my sp`; COMMIT'],
  ])('%s: %s', async (_what, sql) => {
    const real = await outcome(pair.real, sql);
    expect(await outcome(pair.embedded, sql)).toBe(real);
  });
});
