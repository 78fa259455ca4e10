import { describe, expect, it } from 'vitest';
import { unknownColumnClause } from './column-clause.js';

describe("the clause MySQL 8.0 names for an unknown column", () => {
  it.each([
    ['SELECT nope FROM t', 'nope', 'field list'],
    ['SELECT * FROM t WHERE nope = 1', 'nope', 'where clause'],
    ['SELECT * FROM t ORDER BY nope', 'nope', 'order clause'],
    ['SELECT id FROM t GROUP BY nope', 'nope', 'group statement'],
    ['SELECT id FROM t GROUP BY id HAVING nope > 1', 'nope', 'having clause'],
    ['SELECT * FROM t JOIN u ON t.nope = u.id', 't.nope', 'on clause'],
    ['UPDATE t SET nope = 1 WHERE id = 2', 'nope', 'field list'],
    ['UPDATE t SET name = 2 WHERE nope = 2', 'nope', 'where clause'],
    ['DELETE FROM t WHERE `nope` = 2', 'nope', 'where clause'],
    ['INSERT INTO t (nope) VALUES (1)', 'nope', 'field list'],
  ])('%s → %s in %s', (sql, column, clause) => {
    expect(unknownColumnClause(sql, column)).toBe(clause);
  });

  it('reports the earliest clause MySQL resolves, not the first in the text, and ignores strings', () => {
    expect(unknownColumnClause('SELECT id FROM t WHERE nope = 1 ORDER BY nope', 'nope')).toBe('where clause');
    expect(unknownColumnClause("SELECT 'where' FROM t WHERE x = 'nope' ORDER BY nope", 'nope')).toBe('order clause');
  });
});
