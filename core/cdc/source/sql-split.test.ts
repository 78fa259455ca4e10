import { describe, expect, it } from 'vitest';
import { splitScript, splitStatements } from './sql-split.js';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

describe('splitting a script as the mysql client and server read it', () => {
  it('splits at top-level semicolons, skipping comments and keeping quoted semicolons', () => {
    expect(splitStatements("SELECT 'a;b'; -- x;\n# y;\nSELECT `c;d` /* ; */ FROM t;;")).toEqual(["SELECT 'a;b'", 'SELECT `c;d`   FROM t']);
  });

  it('reads executable comments for this server version (8.0.36) and drops those for later ones and hints', () => {
    expect(splitStatements('/*!40014 SET FOREIGN_KEY_CHECKS=0 */;\n/*!80036 SET a=1 */; /*!80037 SET b=2 */; /*! SET c=3 */;')).toEqual(['SET FOREIGN_KEY_CHECKS=0', 'SET a=1', 'SET c=3']);
    expect(splitStatements("CREATE TABLE g (p POINT NOT NULL /*!80003 SRID 4326 */, s VARCHAR(9) DEFAULT '/*!1 x*/') /*!50100 ENGINE=InnoDB */; SELECT /*+ MAX_EXECUTION_TIME(1) */ 1")).toEqual([
      "CREATE TABLE g (p POINT NOT NULL   SRID 4326  , s VARCHAR(9) DEFAULT '/*!1 x*/')   ENGINE=InnoDB",
      'SELECT   1',
    ]);
  });
});

describe('each statement as written, beside what the server reads', () => {
  it('keeps comments and executable comments as typed, trimmed, one text per statement read', () => {
    expect(splitScript("CREATE TABLE t (n INT, CHECK (n > 0) /*!80016 NOT ENFORCED */) /* mine */;\n  INSERT INTO t VALUES (1) -- one\n; /*!99999 SKIPPED */;")).toEqual([
      { sql: 'CREATE TABLE t (n INT, CHECK (n > 0)   NOT ENFORCED  )', text: 'CREATE TABLE t (n INT, CHECK (n > 0) /*!80016 NOT ENFORCED */) /* mine */' },
      { sql: 'INSERT INTO t VALUES (1)', text: 'INSERT INTO t VALUES (1) -- one' },
    ]);
  });
});

describe('the change log keeps a statement as it was written, as MySQL’s binary log does', () => {
  const fresh = freshSourceForEachTest({ database: 'w', setup: 'CREATE DATABASE w' });

  it('a DDL statement and the query of a write keep their comments', () => {
    const before = fresh.src.position();
    fresh.run("CREATE TABLE t (id INT PRIMARY KEY, n INT, CHECK (n > 0) /*!80016 NOT ENFORCED */) /* made by me */; INSERT /* tagged */ INTO t VALUES (1, 2)");
    const [ddl, write] = fresh.src.readTransactions(before, 10);
    expect(ddl!.ddl!.mysql).toBe('CREATE TABLE t (id INT PRIMARY KEY, n INT, CHECK (n > 0) /*!80016 NOT ENFORCED */) /* made by me */');
    expect(write!.query).toBe('INSERT /* tagged */ INTO t VALUES (1, 2)');
  });
});
