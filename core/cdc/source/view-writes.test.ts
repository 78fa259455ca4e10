import { describe, expect, it } from 'vitest';
import { mergedView, writeTarget, writeThroughView } from './view-writes.js';
import type { ViewDef } from './views.js';

const view = (name: string, select: string, columns: string[]): ViewDef => ({ name, select, columns, algorithm: 'UNDEFINED', definer: '`root`@`%`', security: 'DEFINER', checkOption: 'NONE' });
const TABLE = ['id', 'name', 'price', 'active'];
const through = (sql: string, v: ViewDef, database?: string) => writeThroughView(sql, writeTarget(sql)!, v, mergedView(v, (t) => (t === 'c' ? TABLE : undefined)), database);

describe('writes through a view over one table', () => {
  const live = view('live', 'SELECT id, name AS who, price * 2 doubled FROM c AS x WHERE x.active = 1 ORDER BY id', ['id', 'who', 'doubled']);

  it('reads the view: each column the base column or expression it is, its WHERE without qualifiers', () => {
    expect(mergedView(live, () => TABLE)).toEqual({
      table: 'c',
      columns: new Map([
        ['id', { column: 'id', expr: '`id`' }],
        ['who', { column: 'name', expr: '`name`' }],
        ['doubled', { expr: '(price * 2)' }],
      ]),
      where: 'active = 1',
    });
    expect(mergedView(view('j', 'SELECT a.id FROM c a JOIN d b ON a.id = b.id', ['id']), () => TABLE)).toBeUndefined();
    expect(mergedView(view('s', 'SELECT id FROM (SELECT id FROM c) t', ['id']), () => TABLE)).toBeUndefined();
  });

  it('UPDATE and DELETE: the base table, the view’s names as its columns, the view’s WHERE and the statement’s both', () => {
    expect(through("UPDATE live SET who = 'z', live.id = id + 1 WHERE doubled > 4 ORDER BY who LIMIT 2", live)).toBe("UPDATE `c` SET `name` = 'z', `id` = `id` + 1 WHERE (active = 1) AND ((price * 2) > 4) ORDER BY `name` LIMIT 2");
    expect(through('DELETE FROM live', live)).toBe('DELETE FROM `c` WHERE (active = 1)');
    expect(through('DELETE LOW_PRIORITY FROM shop.live LIMIT 1', live, 'shop')).toBe('DELETE LOW_PRIORITY FROM `shop`.`c` WHERE (active = 1) LIMIT 1');
    // a name inside a string, or a function of the same name, is no column
    expect(through("UPDATE live SET who = 'who' WHERE who = CONCAT('who', id)", live)).toBe("UPDATE `c` SET `name` = 'who' WHERE (active = 1) AND (`name` = CONCAT('who', `id`))");
  });

  it('an expression column takes no value; a view with one takes no INSERT', () => {
    expect(() => through('UPDATE live SET doubled = 1', live)).toThrow("Column 'doubled' is not updatable");
    expect(() => through('INSERT INTO live (id) VALUES (1)', live)).toThrow('The target table live of the INSERT is not insertable-into');
    expect(() => through('UPDATE live SET nope = 1', live)).toThrow("Unknown column 'nope' in 'field list'");
  });

  it('INSERT and REPLACE: the column list, SET and ON DUPLICATE KEY UPDATE in base columns; no list is the view’s columns', () => {
    const plain = view('p', 'SELECT id, name AS who FROM c', ['id', 'who']);
    expect(through("INSERT INTO p VALUES (1, 'a')", plain)).toBe("INSERT INTO `c` (`id`, `name`) VALUES (1, 'a')");
    expect(through("INSERT IGNORE INTO p (who, id) SELECT 'x', 2", plain)).toBe("INSERT IGNORE INTO `c` (`name`, `id`) SELECT 'x', 2");
    expect(through("REPLACE p SET id = 3, who = 'b'", plain)).toBe("REPLACE `c` SET `id` = 3, `name` = 'b'");
    expect(through("INSERT INTO p (id, who) VALUES (1, 'a') ON DUPLICATE KEY UPDATE who = VALUES(who)", plain)).toBe("INSERT INTO `c` (`id`, `name`) VALUES (1, 'a') ON DUPLICATE KEY UPDATE `name` = VALUES(`name`)");
  });

  it('a view MySQL cannot write answers 1288 or 1471', () => {
    const totals = view('totals', 'SELECT active, COUNT(*) AS n FROM c GROUP BY active', ['active', 'n']);
    expect(() => through('DELETE FROM totals', totals)).toThrow('The target table totals of the DELETE is not updatable');
    expect(() => through('INSERT INTO totals VALUES (1, 1)', totals)).toThrow('The target table totals of the INSERT is not insertable-into');
  });
});
