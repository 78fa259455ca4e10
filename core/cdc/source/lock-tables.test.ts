/**
 * LOCK TABLES / UNLOCK TABLES as one session sees them. Error texts: MySQL 8.0's error message
 * reference (ER_TABLE_NOT_LOCKED 1100, ER_TABLE_NOT_LOCKED_FOR_WRITE 1099), the same words
 * MariaDB 10.11 answered (remote-source-vs-embedded.test.ts). MySQL 8.0 manual, "LOCK TABLES and
 * UNLOCK TABLES Statements": LOCK TABLES commits an active transaction; the locks end with the
 * session.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { EmbeddedSource } from './embedded-source.js';

let dir: string;
let src: EmbeddedSource;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-lock-'));
  src = await EmbeddedSource.open({ dir });
  src.executeSync('demo', 'CREATE TABLE other (id INT PRIMARY KEY)');
});
afterEach(async () => {
  await src.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
const errorOf = (sql: string) => {
  try {
    src.executeSync('demo', sql);
  } catch (err) {
    return String(err);
  }
  return 'no error';
};

it('a READ lock allows reading and refuses writing', () => {
  expect(src.executeSync('demo', 'LOCK TABLES customers READ; SELECT count(*) FROM customers').at(-1)!.rows).toEqual([[3]]);
  expect(errorOf("LOCK TABLES customers AS c READ; UPDATE customers SET name = 'x'")).toBe("ERROR 1099 (HY000): Table 'customers' was locked with a READ lock and can't be updated");
});

it('a table not locked is refused, in a subquery too', () => {
  expect(errorOf('LOCK TABLES customers WRITE; SELECT * FROM other')).toBe("ERROR 1100 (HY000): Table 'other' was not locked with LOCK TABLES");
  expect(errorOf('LOCK TABLES customers WRITE; DELETE FROM customers WHERE id IN (SELECT id FROM other o)')).toBe("ERROR 1100 (HY000): Table 'o' was not locked with LOCK TABLES");
  expect(errorOf('LOCK TABLES customers READ, other LOW_PRIORITY WRITE; INSERT INTO other SELECT id FROM customers')).toBe('no error');
});

it('UNLOCK TABLES frees every table; the next session has no locks', () => {
  expect(errorOf('LOCK TABLES customers READ; UNLOCK TABLES; INSERT INTO other VALUES (7)')).toBe('no error');
  expect(errorOf('LOCK TABLES customers READ')).toBe('no error');
  expect(errorOf('INSERT INTO other VALUES (8)')).toBe('no error');
});

it('LOCK TABLES commits an open transaction, and names an unknown table (1146)', () => {
  const from = src.position();
  src.executeSync('demo', 'BEGIN; INSERT INTO other VALUES (9); LOCK TABLES other READ');
  expect(src.readTransactions(from, 10)).toHaveLength(1);
  expect(errorOf('LOCK TABLES nope READ')).toBe("ERROR 1146 (42S02): Table 'demo.nope' doesn't exist");
});
