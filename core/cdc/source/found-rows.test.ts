/**
 * SQL_CALC_FOUND_ROWS and FOUND_ROWS() (found-rows.ts): the counts are what MariaDB 10.11 answered
 * for the same statements; the 1287 deprecation warnings are MySQL 8.0.17's (MariaDB has none).
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({ database: 'fr', setup: 'CREATE DATABASE fr; USE fr; CREATE TABLE t (id INT PRIMARY KEY, v INT); INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (4, 40)' });
const last = (sql: string) => fresh.src.executeSync('fr', sql).at(-1)!;

describe('FOUND_ROWS()', () => {
  it('after SQL_CALC_FOUND_ROWS is the count without the LIMIT; after another SELECT, its rows', () => {
    expect(last('SELECT SQL_CALC_FOUND_ROWS id FROM t WHERE v > 10 ORDER BY id LIMIT 1; SELECT FOUND_ROWS()').rows).toEqual([[3]]);
    expect(last('SELECT SQL_CALC_FOUND_ROWS DISTINCT v FROM t LIMIT 2, 1; SELECT FOUND_ROWS()').rows).toEqual([[4]]);
    expect(last('SELECT SQL_CALC_FOUND_ROWS id, (SELECT COUNT(*) FROM t LIMIT 1) FROM t LIMIT 1; SELECT FOUND_ROWS() AS n').rows).toEqual([[4]]);
    expect(last('SELECT id FROM t WHERE v > 20; SELECT FOUND_ROWS()').rows).toEqual([[2]]);
  });

  it('warns of both as deprecated, as MySQL 8.0.17 does', () => {
    const [select, found] = fresh.src.executeSync('fr', 'SELECT SQL_CALC_FOUND_ROWS id FROM t LIMIT 1; SELECT FOUND_ROWS()');
    expect(select!.rows).toEqual([[1]]);
    expect(select!.warnings?.conditions).toEqual([{ level: 'Warning', code: 1287, message: 'SQL_CALC_FOUND_ROWS is deprecated and will be removed in a future release. Consider using two separate queries instead.' }]);
    expect(found!.warnings?.conditions).toEqual([{ level: 'Warning', code: 1287, message: 'FOUND_ROWS() is deprecated and will be removed in a future release. Consider using COUNT(*) instead.' }]);
  });
});
