import { describe, expect, it } from 'vitest';
import { boundVariables, hoistConstantAssignments, rewriteVariableAssignments, selectInto, setItems } from './user-variables.js';
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

  it('writes := as loupe_assign up to the end of its expression, and the reads of a statement that assigns as loupe_var', () => {
    expect(rewriteVariableAssignments('SELECT @a := @a + 1 AS n, @B, x FROM t')).toBe("SELECT loupe_assign('a', loupe_var('a') + 1) AS n, loupe_var('b'), x FROM t");
    expect(rewriteVariableAssignments("SELECT @x := CASE WHEN a THEN 1 ELSE 2 END, (@y := f(1, 2)), @`q r` := 'a:=b' FROM t")).toBe(
      "SELECT loupe_assign('x', CASE WHEN a THEN 1 ELSE 2 END), (loupe_assign('y', f(1, 2))), loupe_assign('q r', 'a:=b') FROM t",
    );
    expect(rewriteVariableAssignments('SELECT @a := @b := 1')).toBe("SELECT loupe_assign('a', loupe_assign('b', 1))");
    expect(rewriteVariableAssignments("SELECT ':=' , @a")).toBeUndefined();
  });

  it('finds SELECT … INTO @variables after the select list or at the end, not in a subquery', () => {
    expect(selectInto('SELECT a, b INTO @x, @Y FROM t WHERE id = 1')).toEqual({ select: 'SELECT a, b  FROM t WHERE id = 1', targets: ['x', 'y'] });
    expect(selectInto('SELECT a FROM t LIMIT 1 INTO @x')).toEqual({ select: 'SELECT a FROM t LIMIT 1 ', targets: ['x'] });
    expect(selectInto('SELECT (SELECT 1 INTO @x) FROM t')).toBeUndefined();
    expect(selectInto("SELECT 'into @x' FROM t")).toBeUndefined();
    expect(selectInto('INSERT INTO t SELECT 1')).toBeUndefined();
  });

  it('runs a derived table that only assigns before the statement, which then reads the variables', () => {
    expect(hoistConstantAssignments("SELECT loupe_assign('rn', loupe_var('rn') + 1) AS n FROM t, (SELECT loupe_assign('rn', 0)) r")).toEqual({
      first: ["SELECT loupe_assign('rn', 0)"],
      text: "SELECT loupe_assign('rn', loupe_var('rn') + 1) AS n FROM t, (SELECT loupe_var('rn')) r",
    });
    expect(hoistConstantAssignments("SELECT (SELECT loupe_assign('a', x) FROM u LIMIT 1)")).toBeUndefined();
  });
});
