/**
 * ALTER TABLE beside a private MariaDB (skipped without mariadbd, failing under CI=true): where
 * FIRST and AFTER put added and changed columns, ADD COLUMN of a list, RENAME INDEX, DROP and ADD
 * PRIMARY KEY, CONVERT TO CHARACTER SET and the table options a migration tool writes leave the
 * same columns, rows and keys, and are refused alike. Error numbers are compared; the texts that
 * MySQL 8.0 words differently (`t.PRIMARY`, 1138 for a NULL under a new key) are checked on the
 * embedded source in alter-table.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { mariadbTests } from './testing/mariadb-server.js';
import { sideBySide } from './testing/side-by-side.test-util.js';

const SETUP =
  'CREATE DATABASE al; USE al; ' +
  "CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10), KEY ka (a)); INSERT INTO t VALUES (1, 10, 'x'), (2, 20, 'X'), (3, NULL, 'y'); " +
  'CREATE TABLE n (id INT AUTO_INCREMENT PRIMARY KEY, v INT); INSERT INTO n (v) VALUES (1), (1)';

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`ALTER TABLE leaves the columns, rows and keys MariaDB does${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('alter', SETUP);
  /** The error number, or the columns in order, the rows and the keys (name, unique, columns) of `table` after `sql`. */
  const outcome = async (src: typeof pair.real | typeof pair.embedded, sql: string, table: string) => {
    try {
      await src.execute('al', sql);
    } catch (err) {
      // a NULL where the new key wants NOT NULL: MySQL's in-place ALTER says 1138, MariaDB's copy 1265
      if (/^ERROR (1138|1265)\b/.test(String(err))) return 'a NULL refused';
      return `error ${/^ERROR (\d+)/.exec(String(err))?.[1] ?? String(err)}`;
    }
    const columns = (await src.execute('al', `SHOW COLUMNS FROM ${table}`))[0]!.rows.map((r) => `${r[0]} ${r[2]} ${r[3]}`);
    const rows = (await src.execute('al', `SELECT * FROM ${table} ORDER BY 1, 2, 3`))[0]!.rows;
    const keys = (await src.execute('al', `SHOW INDEX FROM ${table}`))[0]!.rows.map((r) => `${r[2]} ${r[1]} ${r[4]}`).sort();
    return JSON.stringify({ columns, rows, keys });
  };

  it.each([
    ['ADD COLUMN … AFTER, with a default the rows take', "ALTER TABLE t ADD COLUMN c INT DEFAULT 5 AFTER a", 't'],
    ['ADD COLUMN … FIRST', 'ALTER TABLE t ADD COLUMN d INT FIRST', 't'],
    ['AFTER a column the table lacks', 'ALTER TABLE t ADD COLUMN e INT AFTER nope', 't'],
    ['MODIFY … FIRST keeps the values', 'ALTER TABLE t MODIFY b VARCHAR(20) FIRST', 't'],
    ['CHANGE … AFTER, then a column after the renamed one', 'ALTER TABLE t CHANGE c cc INT AFTER id, ADD f INT AFTER cc', 't'],
    ['ADD COLUMN of a list', 'ALTER TABLE t ADD COLUMN (g INT, h INT DEFAULT 1)', 't'],
    ['ADD COLUMN … UNIQUE: NULLs never repeat', 'ALTER TABLE t ADD COLUMN u VARCHAR(5) UNIQUE', 't'],
    ['ADD COLUMN … UNIQUE with a default every row repeats', "ALTER TABLE t ADD COLUMN u2 VARCHAR(5) DEFAULT 'z' UNIQUE", 't'],
    ['RENAME INDEX', 'ALTER TABLE t RENAME INDEX ka TO kb', 't'],
    ['RENAME KEY of a key the table lacks', 'ALTER TABLE t RENAME KEY nope TO kc', 't'],
    ['RENAME INDEX to a name taken', 'ALTER TABLE t RENAME INDEX kb TO u', 't'],
    ['DROP PRIMARY KEY', 'ALTER TABLE t DROP PRIMARY KEY', 't'],
    ['DROP PRIMARY KEY of a table without one', 'ALTER TABLE t DROP PRIMARY KEY', 't'],
    ['ADD PRIMARY KEY on a column holding NULL', 'ALTER TABLE t ADD PRIMARY KEY (a)', 't'],
    ['ADD PRIMARY KEY on a column holding a value twice', 'ALTER TABLE t ADD PRIMARY KEY (h)', 't'],
    ['ADD PRIMARY KEY', 'ALTER TABLE t ADD PRIMARY KEY (id)', 't'],
    ['a second primary key', 'ALTER TABLE t ADD PRIMARY KEY (b)', 't'],
    ['DROP PRIMARY KEY, ADD PRIMARY KEY in one statement', 'ALTER TABLE t DROP PRIMARY KEY, ADD CONSTRAINT PRIMARY KEY (id, b)', 't'],
    ['DROP PRIMARY KEY that holds the AUTO_INCREMENT column', 'ALTER TABLE n DROP PRIMARY KEY', 'n'],
    ['table options with an ADD COLUMN', 'ALTER TABLE n ADD COLUMN w INT AFTER id, ENGINE=InnoDB, ALGORITHM=COPY, LOCK=SHARED', 'n'],
    ['table options alone', "ALTER TABLE n COMMENT 'c', ROW_FORMAT=DYNAMIC, DEFAULT CHARSET=utf8mb4, FORCE", 'n'],
    ['NOT NULL columns added without a DEFAULT hold their implicit defaults', "ALTER TABLE n ADD COLUMN z INT NOT NULL, ADD COLUMN s VARCHAR(5) NOT NULL, ADD COLUMN e ENUM('p','q') NOT NULL, ADD COLUMN dc DECIMAL(5,2) NOT NULL FIRST", 'n'],
    ['… and refuse a NULL after', 'INSERT INTO n (v, z, s, e, dc) VALUES (2, NULL, NULL, NULL, NULL)', 'n'],
    ['CONVERT TO a case-sensitive collation', "ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin; DELETE FROM t WHERE b = 'X'", 't'],
  ])('%s: %s', async (_what, sql, table) => {
    const real = await outcome(pair.real, sql, table);
    expect(await outcome(pair.embedded, sql, table)).toBe(real);
  });

  it('a table’s DEFAULT COLLATE decides how its text columns compare, and the options show in information_schema', async () => {
    const sql = "CREATE TABLE tc (id INT PRIMARY KEY, email VARCHAR(20), note VARCHAR(10) COLLATE utf8mb4_general_ci, UNIQUE KEY (email)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='the ''tc'' table'; INSERT INTO tc VALUES (1, 'a@x', 'n'), (2, 'A@x', 'N'); ALTER TABLE tc ADD COLUMN extra VARCHAR(5)";
    const answer = async (src: typeof pair.real | typeof pair.embedded) => {
      await src.execute('al', sql);
      const q = async (text: string) => (await src.execute('al', text))[0]!.rows;
      return [
        await q("SELECT id FROM tc WHERE email = 'a@x' ORDER BY id"),
        await q("SELECT id FROM tc WHERE note = 'n' ORDER BY id"),
        await q("SELECT TABLE_COLLATION, TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'al' AND TABLE_NAME = 'tc'"),
        (await q('SHOW FULL COLUMNS FROM tc')).map((r) => [r[0], r[2]]),
      ];
    };
    const real = await answer(pair.real);
    expect(real[0]).toEqual([[1]]);
    expect(await answer(pair.embedded)).toEqual(real);
  });

  it('prefix keys: a unique prefix refuses a second row with the same prefix (ignoring case), and SHOW INDEX gives Sub_part and D for DESC', async () => {
    const sql = "CREATE TABLE pk (id INT PRIMARY KEY, meta VARCHAR(255), email VARCHAR(100), price INT, KEY mk (meta(191)), UNIQUE KEY ue (email(5)), KEY pd (price DESC)); INSERT INTO pk VALUES (1, 'k', 'abcde1', 1)";
    const answer = async (src: typeof pair.real | typeof pair.embedded) => {
      await src.execute('al', sql);
      const outcome = async (text: string) => src.execute('al', text).then((r) => `OK ${r.at(-1)!.affectedRows}`, (e: unknown) => /^ERROR (\d+)/.exec(String(e))?.[1]);
      return [
        await outcome("INSERT INTO pk VALUES (2, 'k', 'abcde2', 2)"),
        await outcome("INSERT INTO pk VALUES (3, 'k', 'ABCDE3', 3)"),
        await outcome("INSERT IGNORE INTO pk VALUES (4, 'k', 'abcdf', 4), (5, 'k', 'abcde9', 5)"),
        await outcome('ALTER TABLE pk ADD UNIQUE KEY m3 (meta(3))'),
        (await src.execute('al', 'SELECT id FROM pk ORDER BY id'))[0]!.rows,
        (await src.execute('al', 'SHOW INDEX FROM pk'))[0]!.rows.map((r) => [r[2], r[4], r[5], r[7]]),
      ];
    };
    const real = await answer(pair.real);
    expect(real.slice(0, 4)).toEqual(['1062', '1062', 'OK 1', '1062']);
    expect(await answer(pair.embedded)).toEqual(real);
  });

  it('keys are listed as MySQL sorts them: PRIMARY, unique keys of NOT NULL columns, other unique keys, the rest', async () => {
    const sql = 'CREATE TABLE ks (id INT PRIMARY KEY, a INT, b INT, c INT NOT NULL, KEY ka (a), UNIQUE KEY ub (b), UNIQUE KEY uc (c)); ALTER TABLE ks ADD UNIQUE KEY ua (a), ADD KEY kc (c)';
    const order = async (src: typeof pair.real | typeof pair.embedded) => {
      await src.execute('al', sql);
      const create = String((await src.execute('al', 'SHOW CREATE TABLE ks'))[0]!.rows[0]![1]);
      return { index: (await src.execute('al', 'SHOW INDEX FROM ks'))[0]!.rows.map((r) => r[2]), create: create.match(/^ {2}(?:PRIMARY|UNIQUE )?KEY.*$/gm)?.map((l) => l.replace(/ USING BTREE/, '')) };
    };
    const real = await order(pair.real);
    expect(real.index).toEqual(['PRIMARY', 'uc', 'ub', 'ua', 'ka', 'kc']);
    expect(await order(pair.embedded)).toEqual(real);
  });
});
