/**
 * A script as mysqldump 8.0 writes it loads into the embedded source as into MySQL: its
 * executable comments run (SET FOREIGN_KEY_CHECKS=0 lets a child table come before its parent,
 * the @OLD_… variables keep and restore the session's settings), and ALTER TABLE … DISABLE KEYS
 * passes as InnoDB lets it. The dump (testing/mysqldump-shop.sql) has mysqldump's header and
 * footer and tables in its alphabetical order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const DUMP = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'testing', 'mysqldump-shop.sql'), 'utf8');
const fresh = freshSourceForEachTest({ database: 'shop', setup: 'CREATE DATABASE shop' });

describe('a mysqldump script', () => {
  it('loads whole, a child table before its parent, and leaves the session as it found it', () => {
    const results = fresh.run(`${DUMP}\nSELECT @@foreign_key_checks, @@unique_checks, @OLD_FOREIGN_KEY_CHECKS`);
    expect(results.at(-1)!.rows).toEqual([[1, 1, 1]]);
    expect(fresh.rows('SELECT * FROM addresses')).toEqual([[1, 10]]);
    expect(fresh.rows('SELECT id, title, price FROM items ORDER BY id')).toEqual([[1, 'pen', '1.50'], [2, 'ink', '9.99'], [3, 'pad', null]]);
    // the constraint holds once the checks are back on
    expect(fresh.errorOf('INSERT INTO addresses VALUES (2, 99)')).toMatch(/^ERROR 1452 \(23000\): Cannot add or update a child row/);
  });

  it('stops at a child table before its parent when the checks stay on, as MySQL would', () => {
    expect(fresh.errorOf(DUMP.replace(/\/\*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 \*\/;/, ''))).toBe("ERROR 1824 (HY000): Failed to open the referenced table 'customers'");
  });
});
