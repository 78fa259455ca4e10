/**
 * Common table expressions in writes: INSERT … WITH … SELECT stores every row its query gives
 * (the row counts are MariaDB 10.11's for the same statements, see
 * insert-select-cte-vs-mariadb.test.ts), and a WITH clause before a write is MySQL's syntax
 * error (INSERT, REPLACE) or refused with 1235 (UPDATE, DELETE, which MySQL 8.0 runs) — never
 * run another way.
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({ database: 'cte', setup: 'CREATE DATABASE cte; USE cte; CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20)); INSERT INTO t VALUES (1, \'one\')' });

describe('INSERT … WITH … SELECT', () => {
  it('a recursive CTE whose column is not named like the table’s inserts all its rows, with a change event each', () => {
    const from = fresh.src.position();
    const [r] = fresh.run("INSERT INTO t (id, name) WITH RECURSIVE seq(k) AS (SELECT 2 UNION ALL SELECT k + 1 FROM seq WHERE k < 6) SELECT k, CONCAT('n', k) FROM seq");
    expect(r!.affectedRows).toBe(5);
    expect(r!.info).toBe('Records: 5  Duplicates: 0  Warnings: 0');
    expect(fresh.rows('SELECT id, name FROM t ORDER BY id')).toEqual([[1, 'one'], [2, 'n2'], [3, 'n3'], [4, 'n4'], [5, 'n5'], [6, 'n6']]);
    const events = fresh.src.readTransactions(from, 10).flatMap((tx) => tx.events);
    expect(events.map((e) => [e.op, e.after?.id])).toEqual([2, 3, 4, 5, 6].map((id) => ['c', id]));
  });

  it('arithmetic inside a derived table or a subquery compares as a number, and the stored value is rounded as MySQL rounds', () => {
    fresh.run("INSERT INTO t (id, name) SELECT k * 1.5, 'q' FROM (WITH RECURSIVE a(k) AS (SELECT 61 UNION ALL SELECT k + 1 FROM a WHERE k + 1 < 63) SELECT k FROM a) d");
    // 61 * 1.5 = 91.5 and 62 * 1.5 = 93.0, stored in an INT: 92 and 93 (MariaDB 10.11 stores the same)
    expect(fresh.rows("SELECT id FROM t WHERE name = 'q' ORDER BY id")).toEqual([[92], [93]]);
  });
});

describe('INSERT … (WITH … SELECT …)', () => {
  it('takes the query in parentheses, as MySQL 8.0 does (MariaDB 10.11 answers 1064 here)', () => {
    const [r] = fresh.run("INSERT INTO t (id, name) (WITH RECURSIVE s(k) AS (SELECT 40 UNION ALL SELECT k + 1 FROM s WHERE k < 42) SELECT k, CONCAT('p', k) FROM s);");
    expect(r!.affectedRows).toBe(3);
    expect(fresh.rows('SELECT id, name FROM t WHERE id >= 40 ORDER BY id')).toEqual([[40, 'p40'], [41, 'p41'], [42, 'p42']]);
  });
});

describe('a WITH clause before a write', () => {
  it('before INSERT or REPLACE is MySQL’s syntax error, and nothing is written', () => {
    const at = fresh.src.position();
    expect(fresh.errorOf("WITH a AS (SELECT 50 AS k) INSERT INTO t SELECT k, 'w' FROM a")).toBe(
      "ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'INSERT INTO t SELECT k, 'w' FROM a' at line 1",
    );
    expect(fresh.errorOf("WITH a AS (SELECT 51 AS k)\nREPLACE INTO t SELECT k, 'w' FROM a")).toMatch(/^ERROR 1064 \(42000\): .* near 'REPLACE INTO t SELECT k, 'w' FROM a' at line 2$/);
    expect(fresh.rows('SELECT COUNT(*) FROM t')).toEqual([[1]]);
    expect(fresh.src.readTransactions(at, 10)).toEqual([]);
  });

  it('before UPDATE or DELETE is refused with 1235 instead of being run without MySQL’s rules for those statements', () => {
    const at = fresh.src.position();
    expect(fresh.errorOf("WITH a AS (SELECT 1 AS k) UPDATE t SET name = 'w' WHERE id IN (SELECT k FROM a)")).toBe("ERROR 1235 (42000): This version of MySQL doesn't yet support 'WITH before UPDATE in the embedded source'");
    expect(fresh.errorOf('WITH RECURSIVE a(k) AS (SELECT 1) DELETE FROM t WHERE id IN (SELECT k FROM a)')).toBe("ERROR 1235 (42000): This version of MySQL doesn't yet support 'WITH before DELETE in the embedded source'");
    expect(fresh.rows('SELECT id, name FROM t')).toEqual([[1, 'one']]);
    expect(fresh.src.readTransactions(at, 10)).toEqual([]);
  });

  it('before SELECT still reads', () => {
    expect(fresh.rows('WITH RECURSIVE seq(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM seq WHERE k < 3) SELECT k FROM seq')).toEqual([[1], [2], [3]]);
  });
});
