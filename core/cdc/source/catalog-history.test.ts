/**
 * The table definitions at a binlog position, rebuilt from the DDL in the change log (what
 * Debezium's schema history holds), including after the source is closed and opened again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedSource } from './embedded-source.js';
import type { Catalog } from './types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const columns = (c: Catalog, db: string, table: string) => c.get(db)?.get(table)?.columns.map((col) => col.name);
const tables = (c: Catalog) => Object.fromEntries([...c].map(([db, t]) => [db, [...t.keys()].sort()]));

describe('table definitions at a binlog position', () => {
  it('follow CREATE, ALTER, RENAME and DROP of tables and databases in log order, also after a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-catalog-'));
    dirs.push(dir);
    let src = await EmbeddedSource.open({ dir, seedDemo: false });
    const marks: Record<string, ReturnType<EmbeddedSource['position']>> = {};
    const step = (name: string, sql: string) => {
      marks[name] = src.position();
      src.executeSync(null, sql);
    };
    step('create', 'CREATE DATABASE shop; CREATE TABLE shop.items (id int primary key, name varchar(20))');
    step('rows', "INSERT INTO shop.items VALUES (1, 'a')");
    step('alter', 'ALTER TABLE shop.items ADD COLUMN price decimal(10,2)');
    step('rename', 'RENAME TABLE shop.items TO shop.products');
    step('drop', 'DROP TABLE shop.products; CREATE DATABASE other; CREATE TABLE other.t (x int)');
    step('dropdb', 'DROP DATABASE other');
    const end = src.position();

    const check = (s: EmbeddedSource) => {
      expect(tables(s.tableDefsAt(marks.create!))).toEqual({});
      expect(columns(s.tableDefsAt(marks.rows!), 'shop', 'items')).toEqual(['id', 'name']);
      expect(columns(s.tableDefsAt(marks.alter!), 'shop', 'items')).toEqual(['id', 'name']);
      expect(columns(s.tableDefsAt(marks.rename!), 'shop', 'items')).toEqual(['id', 'name', 'price']);
      expect(tables(s.tableDefsAt(marks.drop!))).toEqual({ shop: ['products'] });
      expect(tables(s.tableDefsAt(marks.dropdb!))).toEqual({ shop: [], other: ['t'] });
      expect(tables(s.tableDefsAt(end))).toEqual({ shop: [] });
    };
    check(src);
    await src.close();
    src = await EmbeddedSource.open({ dir, seedDemo: false });
    try {
      check(src);
    } finally {
      await src.close();
    }
  });

  it('the seeded demo table is in the log from the first start', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-catalog-'));
    dirs.push(dir);
    const src = await EmbeddedSource.open({ dir });
    try {
      expect(tables(src.tableDefsAt({ file: '', pos: 0 }))).toEqual({});
      expect(columns(src.tableDefsAt(src.position()), 'demo', 'customers')).toEqual(['created_at', 'id', 'name']);
    } finally {
      await src.close();
    }
  });
});
