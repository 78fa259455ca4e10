/**
 * Expression defaults (DEFAULT (expr), MySQL 8.0.13) of columns an INSERT leaves out: the value is
 * stored as a value given would be. Beside a private MariaDB (skipped without mariadbd, failing
 * under CI=true) for values rounded to the column; and, on the embedded source alone, a value that
 * does not fit: clipped or cut with a warning under IGNORE, refused in strict mode (MariaDB refuses
 * such a constant default at CREATE TABLE already; MySQL 8.0 evaluates it when a row takes it).
 * Before, SQLite's own DEFAULT put the expression's value in as it came (a TINYINT held 1000).
 */
import { describe, expect, it } from 'vitest';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const SETUP = 'CREATE DATABASE ed; USE ed; CREATE TABLE t (id INT PRIMARY KEY, i INT DEFAULT (2.5 * 3), d DECIMAL(5,1) DEFAULT (1.25 * 2), x DECIMAL(4,2) DEFAULT (10 / 3), v VARCHAR(20) DEFAULT (CONCAT(\'a\', 1 + 1)))';

const CASES: CaseBeside[] = [
  { what: 'a column left out takes its default as stored', sql: 'INSERT INTO t (id) VALUES (1); SELECT id, i, d, x, v FROM t WHERE id = 1' },
  { what: 'INSERT … SELECT leaving them out', sql: 'INSERT INTO t (id, v) SELECT 2, \'b\'; SELECT id, i, d, x, v FROM t WHERE id = 2' },
];

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`expression defaults are stored as MariaDB stores them${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('expression-defaults', SETUP);
  casesBeside(pair, 'ed', CASES);
});

describe('an expression default that does not fit the column', () => {
  const fresh = freshSourceForEachTest({ database: 'eo', setup: "CREATE DATABASE eo; CREATE TABLE eo.t (id INT PRIMARY KEY, n TINYINT DEFAULT (1000), s VARCHAR(10) DEFAULT (UUID()))" });
  it('is clipped or cut with a warning under IGNORE, and refused in strict mode', () => {
    expect(fresh.errorOf('INSERT INTO t (id) VALUES (1)')).toBe("ERROR 1264 (22003): Out of range value for column 'n' at row 1");
    const r = fresh.run('INSERT IGNORE INTO t (id) VALUES (2)').at(-1)!;
    expect(r.warnings?.conditions.map((c) => `${c.code} ${c.message}`)).toEqual(["1264 Out of range value for column 'n' at row 1", "1406 Data too long for column 's' at row 1"]);
    expect(fresh.rows('SELECT id, n, LENGTH(s) FROM t')).toEqual([[2, 127, 10]]);
  });
});
