/**
 * SUM and AVG of expressions, and running SUMs over a window, on the embedded source next to a
 * private MariaDB (skipped without mariadbd, failing under CI=true): exact operands give an exact
 * DECIMAL sum (exact-aggregates.ts) shown with its scale, a DOUBLE operand a DOUBLE; the sums are
 * compared in HAVING and sorted as numbers.
 */
import { describe } from 'vitest';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';

const SETUP =
  'CREATE DATABASE ag; USE ag; CREATE TABLE t (id INT PRIMARY KEY, price DECIMAL(10,2), qty INT, f DOUBLE, g INT); ' +
  'INSERT INTO t VALUES (1, 0.10, 3, 0.5, 1), (2, 0.20, 7, 0.25, 1), (3, 19.99, 1, 2, 2), (4, 0.07, 3, 1, 2), (5, NULL, 2, NULL, 3), (6, 1.10, 10, 0.5, 4), (7, 2.20, 10, 0.5, 4)';

const CASES: CaseBeside[] = [
  { what: 'SUM of a product of DECIMAL and INT columns is an exact DECIMAL', sql: 'SELECT SUM(price * qty), SUM(price * qty) AS total FROM t' },
  { what: 'AVG of one: the DECIMAL sum divided, four decimals more', sql: 'SELECT AVG(price * qty), AVG(price + 1) avg1 FROM t' },
  { what: 'per group, sorted by the sum; a group of NULLs sums to NULL', sql: 'SELECT g, SUM(price * qty) AS total, AVG(price * 3) FROM t GROUP BY g ORDER BY total DESC, g' },
  { what: 'sums compared in HAVING as numbers', sql: 'SELECT g FROM t GROUP BY g HAVING SUM(price * qty) = 1.7 OR SUM(price * qty) > 30 ORDER BY g' },
  { what: 'SUM(DISTINCT …) of an expression, and of literals added', sql: 'SELECT SUM(DISTINCT price * 10), SUM(price + 0.005), SUM(price - 0.1) FROM t' },
  { what: 'a quotient summed: its hidden digits add up, the sum shows its scale', sql: 'SELECT SUM(price / 3), AVG(qty / 7), SUM(1 / 3) FROM t' },
  { what: 'integer expressions sum to a DECIMAL, average with four decimals', sql: 'SELECT SUM(qty * 2), AVG(qty * 2), AVG(qty + id) FROM t' },
  { what: 'a DOUBLE operand makes the sum a DOUBLE', sql: 'SELECT SUM(f * 2), AVG(f * 4) FROM t' },
  { what: 'a sum of exact values in further arithmetic stays exact; of a DOUBLE, a DOUBLE', sql: 'SELECT SUM(price * qty) * 1.1, SUM(price * qty) / 3, AVG(qty * 2) + 0.5, MAX(price * 3) - 0.01, SUM(f * 2) / 4 FROM t' },
  { what: 'running sums and averages of a DECIMAL column over a window', sql: 'SELECT id, SUM(price) OVER (ORDER BY id) AS running, AVG(price) OVER (PARTITION BY g) FROM t ORDER BY id' },
];

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`SUM and AVG of expressions are the real server's${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('aggs', SETUP);
  casesBeside(pair, 'ag', CASES);
});
