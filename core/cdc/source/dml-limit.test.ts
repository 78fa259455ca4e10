import { describe, expect, it } from 'vitest';
import { orderedDml, rewriteDmlLimit } from './dml-limit.js';

describe('UPDATE/DELETE … ORDER BY … LIMIT for SQLite', () => {
  it('moves WHERE and LIMIT into a rowid subquery', () => {
    expect(rewriteDmlLimit('DELETE FROM t LIMIT 1')).toBe('DELETE FROM t WHERE rowid IN (SELECT rowid FROM t LIMIT 1)');
    expect(rewriteDmlLimit("UPDATE `t` SET name = 'a' WHERE id > 2 LIMIT 3;")).toBe("UPDATE `t` SET name = 'a' WHERE rowid IN (SELECT rowid FROM `t` WHERE id > 2 LIMIT 3)");
    expect(rewriteDmlLimit('UPDATE t AS a SET a.n = 1 WHERE a.id > 2 LIMIT 3')).toBe('UPDATE t AS a SET a.n = 1 WHERE rowid IN (SELECT rowid FROM t AS a WHERE a.id > 2 LIMIT 3)');
  });

  it('turns a top-level ORDER BY into the ordered rowids and a statement for each row', () => {
    expect(rewriteDmlLimit('DELETE FROM t ORDER BY id DESC LIMIT 1')).toBeUndefined();
    expect(orderedDml('DELETE FROM t ORDER BY id DESC LIMIT 1')).toEqual({ rowids: 'SELECT rowid FROM t ORDER BY id DESC LIMIT 1', each: 'DELETE FROM t WHERE rowid = :loupe_rowid' });
    expect(orderedDml('UPDATE t SET id = id + 1 ORDER BY id DESC;')).toEqual({ rowids: 'SELECT rowid FROM t ORDER BY id DESC', each: 'UPDATE t SET id = id + 1 WHERE rowid = :loupe_rowid' });
    expect(orderedDml("UPDATE OR IGNORE t SET n = 'x' WHERE a IN (SELECT b FROM u ORDER BY b LIMIT 1) ORDER BY a")).toEqual({
      rowids: 'SELECT rowid FROM t WHERE a IN (SELECT b FROM u ORDER BY b LIMIT 1) ORDER BY a',
      each: "UPDATE OR IGNORE t SET n = 'x' WHERE rowid = :loupe_rowid",
    });
    expect(orderedDml('UPDATE t SET n = 1 LIMIT 2')).toBeUndefined();
  });

  it('leaves statements without a top-level ORDER BY or LIMIT, and words inside quotes, alone', () => {
    expect(rewriteDmlLimit("UPDATE t SET name = 'order by x limit 1' WHERE id = 1")).toBeUndefined();
    expect(orderedDml("UPDATE t SET name = 'order by x' WHERE id IN (SELECT id FROM u ORDER BY id)")).toBeUndefined();
    expect(rewriteDmlLimit('DELETE FROM t WHERE id IN (SELECT id FROM u LIMIT 2)')).toBeUndefined();
    expect(rewriteDmlLimit('SELECT * FROM t LIMIT 1')).toBeUndefined();
    expect(rewriteDmlLimit('UPDATE t SET limited = 1, `limit` = 2 WHERE orderly = 1')).toBeUndefined();
  });
});
