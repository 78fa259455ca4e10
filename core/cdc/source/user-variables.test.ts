import { describe, expect, it } from 'vitest';
import { boundVariables, setItems } from './user-variables.js';
import { selectItemNames } from './sql-text.js';

describe('user variables', () => {
  it('binds the @names a statement uses, case-insensitively, NULL when never set, none inside quotes or @@', () => {
    const vars = new Map<string, number | string | null>([['id', 7], ['note', 'x']]);
    expect(boundVariables("INSERT INTO t VALUES (@ID, @note, @never, '@id', @@version)", vars)).toEqual({ '@ID': 7, '@note': 'x', '@never': null });
    expect(boundVariables('SELECT 1', vars)).toBeUndefined();
  });

  it("reads SET's assignments: user variables with = or :=, system variables with their scope", () => {
    expect(setItems("SET @a := 'x,y', @`b c` = (SELECT 1, 2), SESSION autocommit = 0, @@global.max_connections = 5, sql_mode = ''")).toEqual([
      { user: 'a', expr: "'x,y'" },
      { user: 'b c', expr: '(SELECT 1, 2)' },
      { system: 'autocommit', value: '0', global: false },
      { system: 'max_connections', value: '5', global: true },
      { system: 'sql_mode', value: '', global: false },
    ]);
  });

  it('names a string literal in the select list after its text, as MySQL does', () => {
    expect(selectItemNames("SELECT '@m', 'it''s', \"q\", id FROM t", true)).toEqual(['@m', "it's", 'q', undefined]);
  });
});
