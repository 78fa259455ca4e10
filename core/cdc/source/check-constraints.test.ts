import { describe, expect, it } from 'vitest';
import { namedChecks, printed, showChecks } from './check-constraints.js';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

describe('CHECK constraints as MySQL 8.0 keeps them', () => {
  it('names the unnamed ones <table>_chk_<n> in the order written, and SHOW CREATE TABLE lists them by name (the manual’s example)', () => {
    const checks = namedChecks('t1', [
      { expr: 'c1 > 10', enforced: true },
      { name: 'c2_positive', expr: 'c2 > 0', enforced: true },
      { expr: 'c3 < 100', enforced: true },
      { name: 'c1_nonzero', expr: 'c1 <> 0', enforced: true },
      { expr: 'c1 > c3', enforced: true },
    ]);
    expect(showChecks(checks)).toEqual([
      'CONSTRAINT `c1_nonzero` CHECK ((`c1` <> 0))',
      'CONSTRAINT `c2_positive` CHECK ((`c2` > 0))',
      'CONSTRAINT `t1_chk_1` CHECK ((`c1` > 10))',
      'CONSTRAINT `t1_chk_2` CHECK ((`c3` < 100))',
      'CONSTRAINT `t1_chk_3` CHECK ((`c1` > `c3`))',
    ]);
  });

  it('a name added later counts on from the highest taken; NOT ENFORCED is printed in a versioned comment', () => {
    const taken = namedChecks('t', [{ expr: 'a > 0', enforced: true }, { expr: 'b > 0', enforced: true }]);
    expect(namedChecks('t', [{ expr: 'c > 0', enforced: false }], taken.slice(1))).toEqual([{ name: 't_chk_3', expr: 'c > 0', enforced: false }]);
    expect(showChecks([{ name: 'x', expr: 'a > 0', enforced: false }])).toEqual(['CONSTRAINT `x` CHECK ((`a` > 0)) /*!80016 NOT ENFORCED */']);
  });

  it('prints expressions as MySQL’s item printer does', () => {
    expect(printed("price >= 0 AND name <> '' OR NOT active")).toBe("(((`price` >= 0) and (`name` <> _utf8mb4'')) or (not(`active`)))");
    expect(printed("status IN ('a', 'b') AND qty BETWEEN 1 AND 10")).toBe("((`status` in (_utf8mb4'a',_utf8mb4'b')) and (`qty` between 1 and 10))");
    expect(printed('CHAR_LENGTH(name) > 2 AND end_at IS NOT NULL')).toBe('((char_length(`name`) > 2) and (`end_at` is not null))');
    expect(printed("a * 2 + b != -c AND code NOT LIKE 'x%'")).toBe("((((`a` * 2) + `b`) <> -(`c`)) and (`code` not like _utf8mb4'x%'))");
    // what it does not know is kept as written
    expect(printed("CASE WHEN a > 0 THEN 1 END = 1")).toBe('CASE WHEN a > 0 THEN 1 END = 1');
  });
});

describe('CHECK constraints in the embedded source', () => {
  const fresh = freshSourceForEachTest({ database: 'shop', setup: "CREATE DATABASE shop; USE shop; CREATE TABLE items (id INT PRIMARY KEY, price DECIMAL(8,2) CHECK (price > 0), CONSTRAINT short_name CHECK (CHAR_LENGTH(name) < 4), name VARCHAR(10)); INSERT INTO items VALUES (1, 2.50, 'ab')" });

  it('are enforced after a restart, from a snapshot and from the change log alone, and the change log holds no refused row', async () => {
    const before = fresh.src.position();
    expect(fresh.errorOf('INSERT INTO items VALUES (2, 0, NULL)')).toBe("ERROR 3819 (HY000): Check constraint 'items_chk_1' is violated.");
    expect(fresh.src.readTransactions(before, 10)).toEqual([]);
    for (const fromLogAlone of [false, true]) {
      await fresh.restart(fromLogAlone);
      expect(fresh.errorOf("INSERT INTO items VALUES (3, 1, 'long')")).toBe("ERROR 3819 (HY000): Check constraint 'short_name' is violated.");
      expect(fresh.errorOf("UPDATE items SET price = -1")).toBe("ERROR 3819 (HY000): Check constraint 'items_chk_1' is violated.");
    }
    expect(fresh.rows('SELECT * FROM items')).toEqual([[1, '2.50', 'ab']]);
  });
});
