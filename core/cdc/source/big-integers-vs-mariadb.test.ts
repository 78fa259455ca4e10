/**
 * BIGINT values beyond 2^53 next to a private MariaDB (Debian's mariadbd; skipped without it,
 * failing under CI=true): the embedded source gives such an integer as an exact bigint, and
 * every other integer as a number, where the server's rows (mysql2, supportBigNumbers) have its
 * exact digits; WHERE finds exactly the row a value names, where a double could not tell it from
 * its neighbours.
 */
import { describe } from 'vitest';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';

const SETUP =
  'CREATE DATABASE bigs; USE bigs; CREATE TABLE t (id INT PRIMARY KEY, v BIGINT, u BIGINT UNSIGNED); INSERT INTO t VALUES (1, 4611686018427387906, 1), (2, 4611686018427387907, 9223372036854775807), (3, 4611686018427387908, 9007199254740993), (4, -9223372036854775808, 0), (5, 9223372036854775807, NULL), (6, 42, 42)';

const CASES: CaseBeside[] = [
  { what: 'the stored values, exact', sql: 'SELECT id, v, u FROM t ORDER BY id' },
  { what: 'WHERE on a big value finds its row alone', sql: 'SELECT id FROM t WHERE v = 4611686018427387907 OR u = 9007199254740993 ORDER BY id' },
  { what: 'ranges and IN over big values', sql: 'SELECT id FROM t WHERE v > 4611686018427387907 OR v IN (-9223372036854775808) ORDER BY id' },
  { what: 'arithmetic and MIN/MAX in 64 bits', sql: 'SELECT v + 1, v - 1, -v, MAX(v), MIN(v) FROM t WHERE id = 2' },
  { what: 'literals beyond 2^53', sql: 'SELECT 4611686018427387907, 9223372036854775807, 9007199254740993, 9007199254740991' },
  // SUM and AVG of a BIGINT are DECIMALs in MySQL 8.0 and MariaDB alike (mysql2 gives them as their digits)
  { what: 'SUM and AVG of big values are exact DECIMALs', sql: 'SELECT SUM(v), AVG(v), SUM(DISTINCT v) FROM t WHERE id IN (1, 2, 6)' },
  { what: 'a SUM past 2^63 is a DECIMAL, not an overflow', sql: 'SELECT SUM(v), AVG(v), SUM(u), AVG(u) FROM t WHERE id <= 3' },
  { what: 'SUM and AVG with GROUP BY, each group exact', sql: 'SELECT id, SUM(v), AVG(v), SUM(u) FROM t GROUP BY id ORDER BY id' },
  { what: 'SUM and AVG of an expression of big values', sql: 'SELECT SUM(v - 1), SUM(v + id), AVG(v + 0) FROM t WHERE id <= 3' },
  { what: 'DIV and MOD of big values are the exact BIGINT', sql: 'SELECT id, v DIV 1, v DIV 3, v MOD 10, u DIV 7 FROM t ORDER BY id' },
  { what: 'CONCAT, GREATEST and LEAST of big values', sql: "SELECT id, CONCAT(v, ''), CONCAT('u=', u), GREATEST(v, id, 3), LEAST(v, 0) FROM t ORDER BY id" },
  { what: 'a WHERE on a DIV of a big value finds its row', sql: 'SELECT id FROM t WHERE v DIV 1 = 4611686018427387907' },
  { what: 'an UPDATE by a big value changes that row only', sql: 'UPDATE t SET id = id + 10 WHERE v = 4611686018427387907; SELECT id, v FROM t ORDER BY id' },
];

const mariadb = mariadbTests();
if (mariadb.skip) console.warn(`big-integers-vs-mariadb.test.ts: MariaDB tests ${mariadb.reason}`);

describe.skipIf(mariadb.skip)(`BIGINT values beyond 2^53 are the real server's${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  // mysql2 gives a BIGINT beyond 2^53 as its digits: the bigint they are, where the embedded source has one
  casesBeside(sideBySide('bigs', SETUP), 'bigs', CASES, (server, embedded) => server.map((row, i) => row.map((v, j) => (typeof v === 'string' && typeof embedded[i]?.[j] === 'bigint' ? BigInt(v) : v))));
});
