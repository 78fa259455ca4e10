/**
 * Zero dates beside a private MariaDB (skipped without mariadbd, failing under CI=true), where
 * the two agree: a table made and filled as a mysqldump file of an older schema does it (its
 * `SET SQL_MODE='NO_AUTO_VALUE_ON_ZERO'` leaves NO_ZERO_DATE and NO_ZERO_IN_DATE out), the values
 * stored, zero parts kept, and how comparisons, ORDER BY and date functions read them. The
 * warnings of IGNORE and non-strict writes are MySQL 8.0's in zero-dates.test.ts (MariaDB says
 * 1265 for some where MySQL says 1264), and so is a NOT NULL TIMESTAMP given NULL (MariaDB stores
 * the time of day, as with explicit_defaults_for_timestamp off).
 */
import { describe } from 'vitest';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';

const SETUP =
  "CREATE DATABASE zv; USE zv; SET sql_mode = 'NO_AUTO_VALUE_ON_ZERO'; " +
  "CREATE TABLE p (id INT PRIMARY KEY, d DATETIME NOT NULL DEFAULT '0000-00-00 00:00:00', e DATE DEFAULT '0000-00-00', t TIMESTAMP NOT NULL DEFAULT '0000-00-00 00:00:00', f DATETIME(3)); " +
  "INSERT INTO p (id) VALUES (1); " +
  "INSERT INTO p VALUES (2, '0000-00-00', 0, '0000-00-00 00:00:00', 0), (3, '2024-00-05', '2024-05-00', '2024-01-02 03:04:05', '0000-00-00 10:11:12.5'), " +
  "(4, '2024-01-02 03:04:05', '0000-01-01', '2024-01-02 03:04:05', '2024-01-02 03:04:05.125'), (5, 20240005, 20240500, 20240102030405, NULL); " +
  "INSERT IGNORE INTO p (id, d, e) VALUES (6, NULL, NULL)";

const CASES: CaseBeside[] = [
  { what: 'the values stored: zero dates, zero parts and year 0 kept as given', sql: 'SELECT id, d, e, t, f FROM p ORDER BY id' },
  { what: 'a zero date compared with text and with 0', sql: "SELECT id, d = '0000-00-00', d = '0000-00-00 00:00:00', d = 0, e = 0, t = 0 FROM p ORDER BY id" },
  { what: 'zero dates sort first', sql: 'SELECT id FROM p ORDER BY d, e, id' },
  { what: 'ranges over zero dates', sql: "SELECT id FROM p WHERE d < '2000-01-01' AND e <= '2024-05-00' ORDER BY id" },
  { what: 'YEAR, MONTH, DAYOFMONTH and DATE of zero dates and zero parts', sql: 'SELECT id, YEAR(d), MONTH(d), DAYOFMONTH(d), DATE(d), YEAR(e), MONTH(e), DAYOFMONTH(e) FROM p ORDER BY id' },
  { what: 'counted by zero date', sql: "SELECT d = '0000-00-00 00:00:00' AS zero, count(*) FROM p GROUP BY zero ORDER BY zero" },
];

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`zero dates are stored and read as MariaDB does${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('zero-dates', SETUP);
  casesBeside(pair, 'zv', CASES);
});
