/**
 * Queries in parentheses beside a private MariaDB (skipped without mariadbd, failing under
 * CI=true): a parenthesized statement, and UNION members in parentheses with their own ORDER BY
 * and LIMIT, in a statement, a derived table, an IN list and INSERT … SELECT, and = ANY, = SOME
 * and <> ALL of a subquery (query-parentheses.ts). Each was a syntax error before.
 */
import { describe, expect, it } from 'vitest';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';

const SETUP = "CREATE DATABASE qp; USE qp; CREATE TABLE w (id INT PRIMARY KEY, name VARCHAR(10)); INSERT INTO w VALUES (1, 'a'), (2, 'b'), (3, 'c')";

const CASES: CaseBeside[] = [
  { what: 'a statement in parentheses', sql: '(SELECT id, name FROM w WHERE id = 2)' },
  { what: 'members in parentheses, each with its own ORDER BY and LIMIT', sql: '(SELECT id FROM w ORDER BY id DESC LIMIT 1) UNION ALL (SELECT id FROM w ORDER BY id LIMIT 1)' },
  { what: 'one member in parentheses, and an ORDER BY of the whole', sql: "SELECT name FROM w WHERE id = 1 UNION (SELECT 'z') ORDER BY name DESC" },
  { what: 'in a derived table and an IN list', sql: 'SELECT t.a FROM ((SELECT 1 AS a) UNION (SELECT 3)) t JOIN w ON w.id = t.a WHERE w.id IN ((SELECT 3) UNION (SELECT 2)) ORDER BY t.a' },
  { what: 'members in parentheses inside a member in parentheses', sql: '(SELECT id FROM w WHERE id IN ((SELECT 1) UNION (SELECT 3))) UNION (SELECT 9) ORDER BY 1' },
  { what: '= ANY and = SOME of a subquery', sql: 'SELECT id FROM w WHERE id = ANY (SELECT 1 UNION SELECT 3) OR id = SOME (SELECT 2) ORDER BY id' },
  { what: '<> ALL of a subquery, and of one with a NULL', sql: "SELECT id, name <> ALL (SELECT 'a'), name <> ALL (SELECT NULL) FROM w WHERE id < 4 ORDER BY id" },
  { what: 'INSERT … SELECT of members in parentheses', sql: "INSERT INTO w (id, name) (SELECT id + 10, name FROM w WHERE id = 1) UNION (SELECT 20, 'x'); SELECT id, name FROM w WHERE id > 3 ORDER BY id" },
];

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`queries in parentheses answer as MariaDB does${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('query-parentheses', SETUP);
  casesBeside(pair, 'qp', CASES);
  it('another comparison with ANY or ALL of a subquery is 1235, not a syntax error', async () => {
    await expect(pair.embedded.execute('qp', 'SELECT id FROM w WHERE id > ALL (SELECT 1)')).rejects.toThrow("This version of MySQL doesn't yet support '> ALL (subquery) in the embedded source'");
  });
});
