/**
 * COLLATE in expressions and ORDER BY with MySQL's collation names. Expected values: MySQL 8.0's
 * collation rules (manual, "Character Sets and Collations": `_bin` compares bytes, `_cs` is case
 * sensitive, `_ci` is not), the same rows as MariaDB 10.11 gives (remote-source-vs-embedded.test.ts);
 * 1273 from MySQL 8.0's error message reference (ER_UNKNOWN_COLLATION).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EmbeddedSource } from './embedded-source.js';

let dir: string;
let src: EmbeddedSource;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-collate-'));
  src = await EmbeddedSource.open({ dir });
});
afterAll(async () => {
  await src.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
const answer = (sql: string) => {
  const r = src.executeSync('demo', sql)[0]!;
  return { columns: r.columns, rows: r.rows };
};

it('a _bin or binary collation tells case apart, _ci ones do not', () => {
  // before: SQLite's "no such collation sequence: utf8mb4_bin"
  expect(answer("SELECT 'a' = 'A' COLLATE utf8mb4_bin, 'a' = 'A' COLLATE utf8mb4_0900_ai_ci, 'a' = 'A' COLLATE utf8mb4_general_ci, 'a' = 'A' COLLATE utf8mb4_unicode_ci, 'a' = 'A' COLLATE binary")).toEqual({
    columns: ["'a' = 'A' COLLATE utf8mb4_bin", "'a' = 'A' COLLATE utf8mb4_0900_ai_ci", "'a' = 'A' COLLATE utf8mb4_general_ci", "'a' = 'A' COLLATE utf8mb4_unicode_ci", "'a' = 'A' COLLATE binary"],
    rows: [[0, 1, 1, 1, 0]],
  });
});

it('COLLATE on a column in WHERE and ORDER BY', () => {
  expect(answer("SELECT id FROM customers WHERE name = 'ada lovelace' COLLATE utf8mb4_bin").rows).toEqual([]);
  expect(answer("SELECT id FROM customers WHERE name = 'ada lovelace' COLLATE utf8mb4_0900_ai_ci").rows).toEqual([[1]]);
  expect(answer("SELECT id FROM customers ORDER BY name COLLATE `utf8mb4_bin` DESC").rows).toEqual([[2], [3], [1]]);
});

it('an unknown collation is 1273, and COLLATE inside a string is text', () => {
  expect(() => src.executeSync('demo', 'SELECT 1 COLLATE nope_ci')).toThrow("Unknown collation: 'nope_ci'");
  const error = (() => {
    try {
      src.executeSync('demo', "SELECT name FROM customers ORDER BY name COLLATE 'utf8mb4_nope'");
    } catch (err) {
      return String(err);
    }
  })();
  expect(error).toBe("ERROR 1273 (HY000): Unknown collation: 'utf8mb4_nope'");
  expect(answer("SELECT 'x COLLATE y'").rows).toEqual([['x COLLATE y']]);
});
