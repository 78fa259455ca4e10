/**
 * What a binary string column stores, without a server to compare with (binary-columns-vs-mariadb
 * checks the same against MariaDB): BINARY(n) padded with 0x00 to n bytes, a number as its decimal
 * text, and the change log's row images the hex of those bytes.
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({ database: 'bn', setup: "CREATE DATABASE bn; CREATE TABLE bn.b (id INT PRIMARY KEY, f BINARY(3) DEFAULT 'z', g VARBINARY(4), h BLOB)" });

describe('a binary string column', () => {
  it('pads a BINARY(n) value with zero bytes and stores a number as its text, in the table and the change log', () => {
    const start = fresh.src.position();
    fresh.run("INSERT INTO b VALUES (1, 'a', 255, 12); INSERT INTO b (id, g) VALUES (2, 1.50); INSERT INTO b SELECT 3, 7, id * 2, -1 FROM b WHERE id = 1");
    const images = fresh.src.readTransactions(start, 10).flatMap((tx) => tx.events.map((e) => e.after));
    const hex = [
      { id: 1, f: '610000', g: '323535', h: '3132' },
      { id: 2, f: '7A0000', g: '312E3530', h: null },
      { id: 3, f: '370000', g: '32', h: '2D31' },
    ];
    expect(images).toEqual(hex);
    expect(fresh.src.scan('bn', 'b', 0, 10).map((r) => r.row)).toEqual(hex);
    expect(fresh.rows('SELECT id, HEX(f), LENGTH(f) FROM b ORDER BY id')).toEqual([
      [1, '610000', 3],
      [2, '7A0000', 3],
      [3, '370000', 3],
    ]);
  });

  it('compares the padded value, and refuses one longer than the column with 1406', () => {
    fresh.run("INSERT INTO b VALUES (1, 'a', 'x', 'y')");
    expect(fresh.rows("SELECT id FROM b WHERE f = 'a'")).toEqual([]);
    expect(fresh.rows("SELECT id FROM b WHERE f = 'a\\0\\0'")).toEqual([[1]]);
    expect(fresh.errorOf("INSERT INTO b VALUES (2, 'abcd', 'x', 'y')")).toMatch(/1406.*Data too long for column 'f' at row 1/);
    expect(fresh.errorOf('UPDATE b SET g = 12345')).toMatch(/1406.*Data too long for column 'g' at row 1/);
  });
});
