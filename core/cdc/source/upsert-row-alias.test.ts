/**
 * The row alias of INSERT … ON DUPLICATE KEY UPDATE (MySQL 8.0.19): the manual's four statements
 * give the rows and change-log events that the same statements written with VALUES() give (that
 * form is compared with MariaDB's binary log in other tests; MariaDB has no row alias).
 */
import { describe, expect, it } from 'vitest';
import { rewriteRowAlias } from './upsert-row-alias.js';
import { parseCreateTable } from './mysql-ddl.js';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({
  database: 'ra',
  setup: 'CREATE DATABASE ra; USE ra; CREATE TABLE t1 (a INT PRIMARY KEY, b INT, c INT); CREATE TABLE t2 (a INT PRIMARY KEY, b INT, c INT); INSERT INTO t1 VALUES (1, 0, 0), (4, 0, 0); INSERT INTO t2 VALUES (1, 0, 0), (4, 0, 0)',
});

/** What a statement did to its table: the rows after it and its events, with the table's name left out. */
function effect(sql: string, table: string) {
  const from = fresh.src.position();
  const affected = fresh.run(sql).map((r) => r.affectedRows);
  const events = fresh.src.readTransactions(from, 10).flatMap((tx) => tx.events.map((e) => [e.op, e.before, e.after]));
  return { affected, events, rows: fresh.rows(`SELECT * FROM ${table} ORDER BY a`) };
}

const MANUAL: [string, string][] = [
  ['INSERT INTO t1 (a,b,c) VALUES (1,2,3),(4,5,6) AS new ON DUPLICATE KEY UPDATE c = new.a+new.b', 'INSERT INTO t2 (a,b,c) VALUES (1,2,3),(4,5,6) ON DUPLICATE KEY UPDATE c = VALUES(a)+VALUES(b)'],
  ['INSERT INTO t1 (a,b,c) VALUES (1,2,3),(4,5,6) AS new(m,n,p) ON DUPLICATE KEY UPDATE c = m+n', 'INSERT INTO t2 (a,b,c) VALUES (1,2,3),(4,5,6) ON DUPLICATE KEY UPDATE c = VALUES(a)+VALUES(b)'],
  ['INSERT INTO t1 SET a=1,b=2,c=3 AS new ON DUPLICATE KEY UPDATE c = new.a+new.b', 'INSERT INTO t2 SET a=1,b=2,c=3 ON DUPLICATE KEY UPDATE c = VALUES(a)+VALUES(b)'],
  ['INSERT INTO t1 SET a=1,b=2,c=3 AS new(m,n,p) ON DUPLICATE KEY UPDATE c = m+n', 'INSERT INTO t2 SET a=1,b=2,c=3 ON DUPLICATE KEY UPDATE c = VALUES(a)+VALUES(b)'],
];

describe('INSERT … AS alias ON DUPLICATE KEY UPDATE', () => {
  for (const [withAlias, withValues] of MANUAL) {
    it(withAlias, () => {
      expect(effect(withAlias, 't1')).toEqual(effect(withValues, 't2'));
    });
  }

  it('reads the row and the table apart, and a quoted alias or a value that looks like one is left alone', () => {
    expect(effect("INSERT INTO t1 VALUES (4, 7, 1) AS `n` ON DUPLICATE KEY UPDATE b = `n`.b + t1.b + 1, c = CHAR_LENGTH('n.c')", 't1').rows).toEqual([[1, 0, 0], [4, 8, 3]]);
  });

  it('writes the references as VALUES()', () => {
    const tables = new Map([['t', parseCreateTable('CREATE TABLE t (a INT PRIMARY KEY, b INT)').def]]);
    expect(rewriteRowAlias('INSERT INTO t VALUES (1, 2) AS r(x, y) ON DUPLICATE KEY UPDATE b = x + y + r.y', tables)).toBe('INSERT INTO t VALUES (1, 2) ON DUPLICATE KEY UPDATE b = VALUES(`a`) + VALUES(`b`) + VALUES(`b`)');
    expect(rewriteRowAlias('INSERT INTO t VALUES (1, 2) ON DUPLICATE KEY UPDATE b = 3', tables)).toBeUndefined();
    expect(rewriteRowAlias('INSERT INTO t SELECT * FROM u AS r ON DUPLICATE KEY UPDATE b = r.b', tables)).toBeUndefined();
  });
});
