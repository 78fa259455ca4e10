import { describe, expect, it } from 'vitest';
import { rewriteInsertSet } from './insert-set.js';

describe('INSERT … SET for SQLite', () => {
  it('becomes a column list and VALUES, keeping what follows ON DUPLICATE KEY UPDATE', () => {
    expect(rewriteInsertSet("INSERT INTO t SET a = 1, `b c` = CONCAT('x', ','), d = (1 + 2) ON DUPLICATE KEY UPDATE a = 2, b = 3")).toBe(
      "INSERT INTO t (a, `b c`, d) VALUES (1, CONCAT('x', ','), (1 + 2)) ON DUPLICATE KEY UPDATE a = 2, b = 3",
    );
    expect(rewriteInsertSet("REPLACE t SET name = 'on duplicate key update'")).toBe("REPLACE INTO t (name) VALUES ('on duplicate key update')");
    expect(rewriteInsertSet("INSERT OR IGNORE INTO t SET a = 'x'")).toBe("INSERT OR IGNORE INTO t (a) VALUES ('x')");
  });

  it('leaves other statements alone', () => {
    expect(rewriteInsertSet('INSERT INTO t (a) VALUES (1)')).toBeUndefined();
    expect(rewriteInsertSet('UPDATE t SET a = 1')).toBeUndefined();
  });
});
