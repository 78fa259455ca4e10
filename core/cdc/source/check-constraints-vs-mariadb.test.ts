/**
 * CHECK constraints (check-constraints.ts) beside a private MariaDB (skipped without mariadbd,
 * failing under CI=true): the same writes are refused or skipped and the same rows stay, through
 * INSERT, UPDATE, REPLACE, IGNORE and ALTER TABLE. The errors are MySQL 8.0's (3819 "Check
 * constraint 'x' is violated."; MariaDB says 4025 "CONSTRAINT `x` failed for `db`.`t`" and names
 * unnamed constraints otherwise), so the texts are checked on the embedded source, with MySQL's
 * names (`<table>_chk_<n>`).
 */
import { describe, expect, it } from 'vitest';
import { mariadbTests } from './testing/mariadb-server.js';
import { sideBySide } from './testing/side-by-side.test-util.js';

const SETUP =
  'CREATE DATABASE ck; USE ck; ' +
  "CREATE TABLE p (id INT PRIMARY KEY, price DECIMAL(8,2) CHECK (price >= 0), qty INT, name VARCHAR(10), CONSTRAINT named_qty CHECK (qty BETWEEN 1 AND 100), CHECK (name <> '' AND CHAR_LENGTH(name) <= 5)); " +
  "INSERT INTO p VALUES (1, 9.99, 1, 'a'), (2, 0, 100, 'bb')";

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`CHECK constraints refuse and keep the rows MariaDB does${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('checks', SETUP);
  /** Refused or not, the affected rows and warnings, and the rows after. */
  const outcome = async (src: typeof pair.real | typeof pair.embedded, sql: string) => {
    let answer: string;
    try {
      const results = await src.execute('ck', sql);
      // how many rows an ALTER TABLE reports is how the server altered the table (copied or in place)
      answer = `OK ${results.map((r, i) => (/^\s*alter\b/i.test(sql.split(';')[i] ?? '') ? '-' : `${r.affectedRows}`)).join(',')}`;
    } catch (err) {
      answer = /^ERROR (3819|4025)\b/.test(String(err)) ? 'violated' : String(err);
    }
    return `${answer} ${JSON.stringify((await src.execute('ck', 'SELECT * FROM p ORDER BY id'))[0]!.rows)}`;
  };

  it.each([
    ['a row that passes every constraint', "INSERT INTO p VALUES (3, 5.50, 10, 'ccc')"],
    ['a negative price', "INSERT INTO p VALUES (4, -0.01, 10, 'd')"],
    ['a DECIMAL compared as a number, not as text', "INSERT INTO p VALUES (5, 10.00, 10, 'e')"],
    ['BETWEEN and a named constraint', "INSERT INTO p VALUES (6, 1, 101, 'f')"],
    ['two conditions and a function', "INSERT INTO p VALUES (7, 1, 1, 'toolong')"],
    ['NULL makes a constraint unknown, which passes', 'INSERT INTO p VALUES (8, NULL, NULL, NULL)'],
    ['an UPDATE that breaks one', 'UPDATE p SET qty = qty - 1 WHERE id = 1'],
    ['an UPDATE that keeps them', 'UPDATE p SET qty = qty + 1 WHERE id <= 3'],
    ['several rows, one breaking: none is written', "INSERT INTO p VALUES (10, 1, 1, 'h'), (11, -1, 1, 'i')"],
    ['REPLACE of a row with one that breaks one', "REPLACE INTO p VALUES (1, 1, 0, 'a')"],
    ['INSERT IGNORE skips the row that breaks one', "INSERT IGNORE INTO p VALUES (12, 1, 1, 'j'), (13, -5, 1, 'k'), (14, 2, 2, 'l')"],
    ['UPDATE IGNORE skips the rows that would break one', 'UPDATE IGNORE p SET price = price - 6 WHERE id IN (1, 3, 12)'],
    ['INSERT … ON DUPLICATE KEY UPDATE that breaks one', "INSERT INTO p VALUES (2, 1, 1, 'x') ON DUPLICATE KEY UPDATE name = ''"],
    ['ALTER TABLE adding one the rows break', 'ALTER TABLE p ADD CONSTRAINT big CHECK (qty > 5)'],
    ['ALTER TABLE adding one the rows keep, then a row it refuses', "ALTER TABLE p ADD CONSTRAINT small CHECK (qty < 200); INSERT INTO p VALUES (20, 1, 300, 'z')"],
    ['ALTER TABLE adding a column and a constraint on it that its default breaks: nothing changes', 'ALTER TABLE p ADD COLUMN w INT DEFAULT 0, ADD CONSTRAINT w_pos CHECK (w > 0)'],
    ['ALTER TABLE adding a column and a constraint on it that its default keeps', 'ALTER TABLE p ADD COLUMN w INT DEFAULT 7, ADD CONSTRAINT w_pos CHECK (w > 0)'],
    ['ALTER TABLE … DROP CONSTRAINT, then a row it refused', "ALTER TABLE p DROP CONSTRAINT w_pos; INSERT INTO p VALUES (21, 1, 99, 'y', -1); ALTER TABLE p DROP COLUMN w"],
  ])('%s: %s', async (_what, sql) => {
    const real = await outcome(pair.real, sql);
    expect(await outcome(pair.embedded, sql)).toBe(real);
  });

  // NOT ENFORCED is MySQL's (MariaDB 10.11 has no such clause)
  it('the errors, warnings, NOT ENFORCED and SHOW CREATE TABLE are MySQL 8.0’s', async () => {
    const src = pair.embedded;
    await src.execute('ck', 'ALTER TABLE p ADD CHECK (price < 1000) NOT ENFORCED');
    await src.execute('ck', "INSERT INTO p VALUES (9, 5000, 1, 'g')");
    await expect(src.execute('ck', "INSERT INTO p VALUES (30, -1, 1, 'x')")).rejects.toThrow("Check constraint 'p_chk_1' is violated.");
    await expect(src.execute('ck', "INSERT INTO p VALUES (30, 1, 0, 'x')")).rejects.toThrow("Check constraint 'named_qty' is violated.");
    const [ignored] = await src.execute('ck', "INSERT IGNORE INTO p VALUES (31, 1, 1, '')");
    expect(ignored!.warnings).toEqual({ count: 1, conditions: [{ level: 'Warning', code: 3819, message: "Check constraint 'p_chk_2' is violated." }] });
    const [[, create]] = (await src.execute('ck', 'SHOW CREATE TABLE p'))[0]!.rows as [string, string][];
    expect(create).toContain(
      "  CONSTRAINT `named_qty` CHECK ((`qty` between 1 and 100)),\n  CONSTRAINT `p_chk_1` CHECK ((`price` >= 0)),\n  CONSTRAINT `p_chk_2` CHECK (((`name` <> _utf8mb4'') and (char_length(`name`) <= 5))),\n  CONSTRAINT `p_chk_3` CHECK ((`price` < 1000)) /*!80016 NOT ENFORCED */,\n  CONSTRAINT `small` CHECK ((`qty` < 200))\n)",
    );
    expect((await src.execute('ck', "SELECT CONSTRAINT_NAME, CHECK_CLAUSE FROM INFORMATION_SCHEMA.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = 'ck' ORDER BY CONSTRAINT_NAME"))[0]!.rows).toEqual([
      ['named_qty', '(`qty` between 1 and 100)'],
      ['p_chk_1', '(`price` >= 0)'],
      ['p_chk_2', "((`name` <> _utf8mb4'') and (char_length(`name`) <= 5))"],
      ['p_chk_3', '(`price` < 1000)'],
      ['small', '(`qty` < 200)'],
    ]);
    expect((await src.execute('ck', "SELECT CONSTRAINT_NAME, ENFORCED FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS WHERE TABLE_NAME = 'p' AND CONSTRAINT_TYPE = 'CHECK' ORDER BY CONSTRAINT_NAME"))[0]!.rows).toEqual([
      ['named_qty', 'YES'],
      ['p_chk_1', 'YES'],
      ['p_chk_2', 'YES'],
      ['p_chk_3', 'NO'],
      ['small', 'YES'],
    ]);
    await expect(src.execute('ck', 'ALTER TABLE p DROP COLUMN qty')).rejects.toThrow("Check constraint 'named_qty' uses column 'qty', hence column cannot be dropped or renamed.");
    await expect(src.execute('ck', 'ALTER TABLE p DROP CHECK nope')).rejects.toThrow("Constraint 'nope' does not exist.");
    await expect(src.execute('ck', 'CREATE TABLE q (id INT, CONSTRAINT small CHECK (id > 0))')).rejects.toThrow("Duplicate check constraint name 'small'.");
    // enforcing it checks the rows there
    await expect(src.execute('ck', 'ALTER TABLE p ALTER CHECK p_chk_3 ENFORCED')).rejects.toThrow("Check constraint 'p_chk_3' is violated.");
    await src.execute('ck', 'DELETE FROM p WHERE id = 9; ALTER TABLE p DROP CHECK small, ALTER CHECK p_chk_3 ENFORCED');
    await expect(src.execute('ck', "INSERT INTO p VALUES (32, 1000, 1, 'x')")).rejects.toThrow("Check constraint 'p_chk_3' is violated.");
  });

  it('CREATE TABLE … LIKE keeps the constraints under generated names (MySQL 8.0 manual, CREATE TABLE … LIKE), and enforces them', async () => {
    await pair.embedded.execute('ck', 'CREATE TABLE p2 LIKE p');
    const [[, create]] = (await pair.embedded.execute('ck', 'SHOW CREATE TABLE p2'))[0]!.rows as [string, string][];
    expect(create.match(/CONSTRAINT `[^`]+`/g)).toEqual(['CONSTRAINT `p2_chk_1`', 'CONSTRAINT `p2_chk_2`', 'CONSTRAINT `p2_chk_3`', 'CONSTRAINT `p2_chk_4`']);
    await expect(pair.embedded.execute('ck', "INSERT INTO p2 VALUES (1, -1, 1, 'a')")).rejects.toThrow(/^Check constraint 'p2_chk_\d' is violated\.$/);
  });
});
