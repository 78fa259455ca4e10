/**
 * Dotted names read as MySQL reads them when a database shares its name with a table: `a.b` is a
 * table of database a where a table goes, a column of table a in an expression, and `a.b.c` a
 * column of table b of database a (database-qualifiers.ts).
 */
import { describe, expect, it } from 'vitest';
import { databaseQualifiers } from './database-qualifiers.js';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const isDb = (name: string) => ['shop', 'demo'].includes(name);

describe('database qualifiers', () => {
  it('finds db. before a table and in three-part names, not before a column of a table the statement names', () => {
    const found = (sql: string) => databaseQualifiers(sql, isDb).map((q) => `${q.database}@${q.from}`);
    expect(found('SELECT shop.id FROM shop JOIN items ON items.shop_id = shop.id')).toEqual([]);
    expect(found('SELECT shop.shop.id FROM shop.shop')).toEqual(['shop@7', 'shop@25']);
    expect(found('SELECT c.id FROM demo.customers c, `shop` . items')).toEqual(['demo@17', 'shop@35']);
    expect(found('DELETE demo.customers FROM demo.customers JOIN shop.items USING (id)')).toEqual(['demo@7', 'demo@27', 'shop@47']);
    expect(found("SELECT 'shop.id', x.shop FROM t x")).toEqual([]);
  });

  const fresh = freshSourceForEachTest({
    database: 'shop',
    setup: "CREATE DATABASE shop; CREATE TABLE shop.shop (id INT PRIMARY KEY, name VARCHAR(10)); CREATE TABLE shop.items (id INT PRIMARY KEY, shop_id INT); INSERT INTO shop.shop VALUES (1, 'a'), (2, 'b'); INSERT INTO shop.items VALUES (10, 1), (11, 1), (12, 2)",
  });

  it('a table named as its database: its columns qualified by it join and correlate (the qualifier was taken for the database)', () => {
    // before: "ambiguous column name: id", and a correlated subquery that matched every row
    expect(fresh.rows('SELECT shop.id, items.id FROM shop JOIN items ON items.shop_id = shop.id ORDER BY items.id')).toEqual([[1, 10], [1, 11], [2, 12]]);
    expect(fresh.rows("SELECT id FROM shop WHERE EXISTS (SELECT 1 FROM shop s WHERE s.name = 'a' AND s.id = shop.id)")).toEqual([[1]]);
    expect(fresh.rows('SELECT shop.shop.name FROM shop.shop WHERE shop.shop.id = 2')).toEqual([['b']]);
    fresh.run("UPDATE shop SET name = 'z' WHERE shop.id = 2");
    expect(fresh.rows('SELECT name FROM shop ORDER BY id')).toEqual([['a'], ['z']]);
  });

  it('db.table still routes a statement from another database', () => {
    fresh.run('CREATE DATABASE other');
    const r = fresh.src.executeSync('other', "INSERT INTO shop.shop VALUES (3, 'c'); SELECT s.name FROM shop.shop s WHERE s.id = 3");
    expect(r.at(-1)!.rows).toEqual([['c']]);
  });
});
