/**
 * PREPARE, EXECUTE … USING and DEALLOCATE PREPARE (prepared-statements.ts) beside MariaDB
 * (skipped without mariadbd, failing under CI=true): the rows and writes of executed statements,
 * the values bound from user variables (strings with quotes and backslashes, NULL), and the errors
 * for unknown handlers and wrong argument counts.
 */
import { describe, expect, it } from 'vitest';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';
import type { QuerySource } from './types.js';

const CASES: CaseBeside[] = [
  { what: 'a SELECT with a placeholder', sql: "PREPARE s FROM 'SELECT id, name FROM t WHERE id > ? ORDER BY id'; SET @a = 1; EXECUTE s USING @a" },
  { what: 'the text from a variable, names case-insensitive', sql: "SET @q = 'SELECT COUNT(*) FROM t'; PREPARE Cnt FROM @q; EXECUTE cnt" },
  { what: 'an INSERT bound with a string holding a quote and a backslash', sql: "PREPARE ins FROM 'INSERT INTO t VALUES (?, ?)'; SET @i = 10, @n = 'it''s a\\\\b'; EXECUTE ins USING @i, @n; SELECT * FROM t WHERE id = 10" },
  { what: 'NULL and numbers bound', sql: "SET @z = NULL, @d = 2, @e = 0.5; PREPARE s FROM 'SELECT ? IS NULL, ? * 2, ? + 1 = 1.5, ''?'''; EXECUTE s USING @z, @d, @e" },
  { what: 'executed again with other values', sql: "PREPARE up FROM 'UPDATE t SET name = ? WHERE id = ?'; SET @n = 'x', @i = 1; EXECUTE up USING @n, @i; SET @i = 2; EXECUTE up USING @n, @i; SELECT * FROM t ORDER BY id" },
  { what: 'a statement prepared in double quotes', sql: 'PREPARE s FROM "SELECT \'a\', ?"; SET @v = 3; EXECUTE s USING @v' },
];

const mariadb = mariadbTests();
if (mariadb.skip) console.warn(`prepared-statements-vs-mariadb.test.ts: MariaDB tests ${mariadb.reason}`);

describe.skipIf(mariadb.skip)(`prepared statements are the real server's${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('prep', "CREATE DATABASE ps; USE ps; CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20)); INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  casesBeside(pair, 'ps', CASES);

  const outcome = async (src: QuerySource, sql: string) =>
    src.execute('ps', sql).then(
      (r) => r.map((x) => `${x.kind} ${x.affectedRows}`).join(', '),
      // the syntax error names the server's product
      (err: unknown) => String(err).replace('MariaDB server version', 'MySQL server version'),
    );
  it.each([
    ['EXECUTE after DEALLOCATE', "PREPARE s FROM 'SELECT 1'; DEALLOCATE PREPARE s; EXECUTE s"],
    ['DROP PREPARE of a statement never prepared', 'DROP PREPARE nope'],
    ['EXECUTE with fewer values than placeholders', "PREPARE s FROM 'SELECT ?, ?'; SET @a = 1; EXECUTE s USING @a"],
    ['EXECUTE without USING for a placeholder', "PREPARE s FROM 'SELECT ?'; EXECUTE s"],
    ['PREPARE of two statements', "PREPARE s FROM 'SELECT 1; SELECT 2'"],
    ['PREPARE of a PREPARE', "PREPARE s FROM 'PREPARE t FROM ''SELECT 1'''"],
    ['PREPARE, EXECUTE and DEALLOCATE are OK packets', "PREPARE s FROM 'DELETE FROM t WHERE id = 99'; EXECUTE s; DEALLOCATE PREPARE s"],
  ])('%s: %s', async (_what, sql) => {
    expect(await outcome(pair.embedded, sql)).toBe(await outcome(pair.real, sql));
  });
});
