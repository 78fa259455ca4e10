/**
 * A read consistent at one binlog position (the snapshot's START TRANSACTION WITH CONSISTENT
 * SNAPSHOT): whatever is committed while it runs, it returns the rows as they were at its
 * position, each once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedSource } from './embedded-source.js';
import { ConsistentRead } from './consistent-read.js';
import type { Row } from './types.js';

const open: { src: EmbeddedSource; dir: string }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.src.close();
    fs.rmSync(o.dir, { recursive: true, force: true });
  }
});

async function source(setup: string): Promise<EmbeddedSource> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-consistent-'));
  const src = await EmbeddedSource.open({ dir, seedDemo: false });
  open.push({ src, dir });
  src.executeSync(null, setup);
  return src;
}

function readAt(src: EmbeddedSource): ConsistentRead {
  const at = src.position();
  return new ConsistentRead(src, at, src.tableDefsAt(at));
}

/** The whole table through the read, `chunk` rows per scan, running `between` after each scan. */
function readAll(read: ConsistentRead, db: string, table: string, chunk: number, between: (scans: number) => void = () => {}): Row[] {
  const out: Row[] = [];
  let after = 0;
  for (let scans = 1; ; scans++) {
    const rows = read.scan(db, table, after, chunk);
    if (rows.length === 0) return out;
    expect(rows.length).toBeLessThanOrEqual(chunk);
    for (const r of rows) expect(r.rowid).toBeGreaterThan(after);
    out.push(...rows.map((r) => r.row));
    after = rows[rows.length - 1]!.rowid;
    between(scans);
  }
}

const table = (src: EmbeddedSource, sql: string) => src.executeSync('shop', sql).at(-1)!.rows;

describe('a read consistent at a binlog position', () => {
  it('returns the rows as they were at its position while inserts, updates, deletes and delete-then-reinsert are committed between its chunks', async () => {
    const src = await source('CREATE DATABASE shop; CREATE TABLE shop.items (id int NOT NULL PRIMARY KEY, name varchar(20), qty int)');
    const initial = Array.from({ length: 20 }, (_, i) => `(${i + 1}, 'item${i + 1}', ${i})`).join(', ');
    src.executeSync('shop', `INSERT INTO items VALUES ${initial}`);
    const atStart = table(src, 'SELECT id, name, qty FROM items ORDER BY id');
    const read = readAt(src);
    const rows = readAll(read, 'shop', 'items', 3, (scans) => {
      if (scans === 1) {
        // ahead of the read and behind it
        src.executeSync('shop', "UPDATE items SET qty = qty + 100 WHERE id IN (2, 10, 15); DELETE FROM items WHERE id IN (1, 12); INSERT INTO items VALUES (21, 'new', 0)");
      }
      if (scans === 2) {
        // a row updated twice, one deleted and inserted again with the same key, a whole new range
        src.executeSync('shop', "UPDATE items SET name = 'again' WHERE id = 10; DELETE FROM items WHERE id = 14; INSERT INTO items VALUES (14, 'reborn', 99)");
        src.executeSync('shop', `INSERT INTO items VALUES ${Array.from({ length: 10 }, (_, i) => `(${100 + i}, 'late', 0)`).join(', ')}`);
      }
    });
    expect(rows.map((r) => [r.id, r.name, r.qty])).toEqual(atStart);
    // the store itself has moved on
    expect(table(src, 'SELECT COUNT(*) FROM items')).toEqual([[29]]);
  });

  it('keeps a row whose primary key is its rowid in its place when the key is updated, and never returns it twice', async () => {
    const src = await source('CREATE DATABASE shop; CREATE TABLE shop.items (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, name varchar(20))');
    src.executeSync('shop', "INSERT INTO items (name) VALUES ('a'), ('b'), ('c'), ('d'), ('e')");
    const read = readAt(src);
    const rows = readAll(read, 'shop', 'items', 2, (scans) => {
      // 1 → 50 moves a row behind the read ahead of it; 5 → 3 after deleting 3 moves one back
      if (scans === 1) src.executeSync('shop', 'UPDATE items SET id = 50 WHERE id = 1; DELETE FROM items WHERE id = 3; UPDATE items SET id = 3 WHERE id = 5');
    });
    expect(rows.map((r) => [r.id, r.name])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
      [4, 'd'],
      [5, 'e'],
    ]);
    expect(table(src, 'SELECT id, name FROM items ORDER BY id')).toEqual([
      [2, 'b'],
      [3, 'e'],
      [4, 'd'],
      [50, 'a'],
    ]);
  });

  it('reads on past a whole chunk of rows inserted after its position, and ends only at the end of the table', async () => {
    const src = await source("CREATE DATABASE shop; CREATE TABLE shop.items (id int NOT NULL PRIMARY KEY, name varchar(20)); INSERT INTO shop.items VALUES (1, 'old')");
    const read = readAt(src);
    src.executeSync('shop', `INSERT INTO items VALUES ${Array.from({ length: 50 }, (_, i) => `(${i + 2}, 'new')`).join(', ')}; INSERT INTO items VALUES (1000, 'newest')`);
    src.executeSync('shop', 'DELETE FROM items WHERE id = 1');
    expect(readAll(read, 'shop', 'items', 4).map((r) => [r.id, r.name])).toEqual([[1, 'old']]);
  });

  it('has the rows a cascading foreign key action changed after its position as they were (they have no row events)', async () => {
    const src = await source("CREATE DATABASE shop; CREATE TABLE shop.parents (id int primary key); CREATE TABLE shop.kids (id int primary key, parent int, name varchar(9), FOREIGN KEY (parent) REFERENCES parents (id) ON DELETE CASCADE ON UPDATE SET NULL)");
    src.executeSync('shop', "INSERT INTO parents VALUES (1), (2); INSERT INTO kids VALUES (10, 1, 'a'), (11, 1, 'b'), (20, 2, 'c')");
    const read = readAt(src);
    src.executeSync('shop', 'DELETE FROM parents WHERE id = 1; UPDATE parents SET id = 3 WHERE id = 2');
    expect(table(src, 'SELECT id, parent FROM kids')).toEqual([[20, null]]);
    expect(readAll(read, 'shop', 'kids', 2).map((r) => [r.id, r.parent, r.name])).toEqual([
      [10, 1, 'a'],
      [11, 1, 'b'],
      [20, 2, 'c'],
    ]);
  });

  it('still has the rows of a table dropped after its position that it saw changing, and none of a table created after it', async () => {
    const src = await source("CREATE DATABASE shop; CREATE TABLE shop.items (id int NOT NULL PRIMARY KEY, name varchar(20)); INSERT INTO shop.items VALUES (1, 'a'), (2, 'b')");
    const read = readAt(src);
    src.executeSync('shop', "CREATE TABLE later (id int primary key); INSERT INTO later VALUES (1); DELETE FROM items; DROP TABLE items");
    expect(readAll(read, 'shop', 'items', 10).map((r) => r.id)).toEqual([1, 2]);
    expect(readAll(read, 'shop', 'later', 10)).toEqual([]);
  });
});
