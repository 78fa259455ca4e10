/**
 * The BINARY operator and CAST(… AS BINARY(n)) warn as MySQL 8.0 does (MariaDB has neither
 * warning; select-expressions-vs-mariadb.test.ts compares the values).
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({ database: 'bo', setup: 'CREATE DATABASE bo' });

describe('BINARY', () => {
  it('warns of BINARY expr as deprecated (MySQL 8.0.27), and of a value CAST AS BINARY(n) cuts', () => {
    const [r] = fresh.src.executeSync('bo', "SELECT BINARY 'a' = 'A', HEX(CAST('abcd' AS BINARY(2)))");
    expect(r!.rows).toEqual([[0, '6162']]);
    expect(r!.warnings?.conditions.map((c) => [c.code, c.message])).toEqual([
      [1287, "'BINARY expr' is deprecated and will be removed in a future release. Please use CAST instead"],
      [1292, "Truncated incorrect BINARY(2) value: 'abcd'"],
    ]);
  });
});
