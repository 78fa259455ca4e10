/**
 * ALTER TABLE's MySQL 8.0 answers on the embedded source, where MariaDB words them otherwise
 * (alter-table-vs-mariadb.test.ts compares the outcomes): the errors' texts, the rows a copy
 * reports, SHOW FULL COLUMNS, and a reordered table after a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedSource } from './embedded-source.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
async function open(dir?: string): Promise<{ src: EmbeddedSource; dir: string }> {
  const d = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-alter-'));
  if (!dir) dirs.push(d);
  return { src: await EmbeddedSource.open({ dir: d, seedDemo: false }), dir: d };
}
const SETUP = "CREATE DATABASE al; USE al; CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10) COMMENT 'the b', KEY ka (a)); INSERT INTO t VALUES (1, 10, 'x'), (2, 10, 'X'), (3, NULL, 'y')";

describe('ALTER TABLE, as MySQL 8.0 answers', () => {
  it('words the errors as MySQL 8.0 does', async () => {
    const { src } = await open();
    await src.execute(null, SETUP);
    const error = (sql: string) => src.execute('al', sql).then(() => 'no error', (e: unknown) => String(e));
    expect(await error('ALTER TABLE t ADD COLUMN c INT AFTER nope')).toBe("ERROR 1054 (42S22): Unknown column 'nope' in 't'");
    expect(await error('ALTER TABLE t ADD PRIMARY KEY (a)')).toBe('ERROR 1068 (42000): Multiple primary key defined');
    expect(await error("ALTER TABLE t ADD COLUMN u VARCHAR(5) DEFAULT 'z' UNIQUE")).toBe("ERROR 1062 (23000): Duplicate entry 'z' for key 't.u'");
    expect(await error('ALTER TABLE t RENAME INDEX nope TO kb')).toBe("ERROR 1176 (42000): Key 'nope' doesn't exist in table 't'");
    expect(await error('ALTER TABLE t RENAME INDEX ka TO PRIMARY')).toMatch(/^ERROR 1064 \(42000\): .* near 'PRIMARY' at line 1$/);
    const [dropped] = await src.execute('al', 'ALTER TABLE t DROP PRIMARY KEY');
    // InnoDB copies the table to drop its primary key without adding another
    expect(dropped!.affectedRows).toBe(3);
    expect(await error('ALTER TABLE t DROP PRIMARY KEY')).toBe("ERROR 1091 (42000): Can't DROP 'PRIMARY'; check that column/key exists");
    expect(await error('ALTER TABLE t ADD PRIMARY KEY (a)')).toBe('ERROR 1138 (22004): Invalid use of NULL value');
    expect(await error('ALTER TABLE t ADD PRIMARY KEY (b)')).toBe("ERROR 1062 (23000): Duplicate entry 'x' for key 't.PRIMARY'");
    const [added] = await src.execute('al', 'ALTER TABLE t ADD PRIMARY KEY (id), ALGORITHM=INPLACE, LOCK=NONE');
    expect(added!.affectedRows).toBe(0);
    // nothing was lost on the way
    expect((await src.execute('al', 'SELECT * FROM t ORDER BY id'))[0]!.rows).toEqual([[1, 10, 'x'], [2, 10, 'X'], [3, null, 'y']]);
  });

  it('a NOT NULL column added without a DEFAULT: the implicit default in the rows, none for a date (1292), and its NOT NULL kept', async () => {
    const { src } = await open();
    await src.execute(null, SETUP);
    await src.execute('al', "ALTER TABLE t ADD COLUMN n INT NOT NULL, ADD COLUMN e ENUM('p','q') NOT NULL");
    expect((await src.execute('al', 'SELECT id, n, e FROM t ORDER BY id'))[0]!.rows).toEqual([[1, 0, 'p'], [2, 0, 'p'], [3, 0, 'p']]);
    // Incorrect datetime value: '0000-00-00 00:00:00' for MySQL 8.0's DATETIME(6) as well
    await expect(src.execute('al', 'ALTER TABLE t ADD COLUMN d DATE NOT NULL')).rejects.toThrow("Incorrect date value: '0000-00-00' for column 'd' at row 1");
    await expect(src.execute('al', 'ALTER TABLE t ADD COLUMN d DATETIME(6) NOT NULL')).rejects.toThrow("Incorrect datetime value: '0000-00-00 00:00:00' for column 'd' at row 1");
    await expect(src.execute('al', "INSERT INTO t (id, b, n) VALUES (9, 'z', NULL)")).rejects.toThrow("Column 'n' cannot be null");
    await expect(src.execute('al', "INSERT INTO t (id, b) VALUES (9, 'z')")).rejects.toThrow("Field 'n' doesn't have a default value");
    // an empty table takes a date column so
    await src.execute('al', 'CREATE TABLE empty (id INT PRIMARY KEY); ALTER TABLE empty ADD COLUMN d DATE NOT NULL');
  });

  it('SHOW CREATE TABLE prints the table options kept (a quote escaped as append_unescaped does) and a column’s other collation with its character set, as MySQL 8.0 does', async () => {
    const { src } = await open();
    await src.execute(null, "CREATE DATABASE o; USE o; CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(5), b VARCHAR(5) COLLATE utf8mb4_general_ci) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin ROW_FORMAT=COMPRESSED COMMENT='it''s t'; CREATE TABLE l (id INT PRIMARY KEY) CHARSET latin1");
    const create = async (t: string) => String((await src.execute('o', `SHOW CREATE TABLE ${t}`))[0]!.rows[0]![1]);
    expect(await create('t')).toBe(
      "CREATE TABLE `t` (\n  `id` int NOT NULL,\n  `a` varchar(5) DEFAULT NULL,\n  `b` varchar(5) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin ROW_FORMAT=COMPRESSED COMMENT='it\\'s t'",
    );
    // a charset's own default collation is not printed, but utf8mb4's always is
    expect(await create('l')).toBe('CREATE TABLE `l` (\n  `id` int NOT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=latin1');
    await src.execute('o', "ALTER TABLE t COMMENT 'changed', COLLATE utf8mb4_0900_ai_ci");
    // the columns keep their collation; the table's default is for columns added later
    expect(await create('t')).toContain("`a` varchar(5) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL");
    expect(await create('t')).toMatch(/DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci ROW_FORMAT=COMPRESSED COMMENT='changed'$/);
    const status = (await src.execute('o', "SHOW TABLE STATUS LIKE 't'"))[0]!;
    expect([status.rows[0]![3], status.rows[0]![14], status.rows[0]![16], status.rows[0]![17]]).toEqual(['Compressed', 'utf8mb4_0900_ai_ci', 'row_format=COMPRESSED', 'changed']);
    // Laravel's migrations quote the names (default character set utf8mb4 collate 'utf8mb4_unicode_ci'); a column's too
    await src.execute('o', "create table `users` (`id` bigint unsigned not null auto_increment primary key, `email` varchar(255) not null, `token` varchar(10) character set 'binary') default character set 'utf8mb4' collate 'utf8mb4_unicode_ci'");
    expect(await create('users')).toMatch(/\) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci$/);
    expect((await src.execute('o', "SELECT COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_NAME = 'users' AND COLUMN_NAME = 'email'"))[0]!.rows).toEqual([['utf8mb4_unicode_ci']]);
  });

  it('keeps prefix lengths and DESC in SHOW CREATE TABLE, and refuses a TEXT key without a prefix (1170) and a prefix that does not fit (1089)', async () => {
    const { src } = await open();
    await src.execute(null, 'CREATE DATABASE k; USE k; CREATE TABLE w (id INT PRIMARY KEY, meta VARCHAR(255), bio TEXT, price INT, KEY mk (meta(191)), KEY b (bio(20), price DESC))');
    expect(String((await src.execute('k', 'SHOW CREATE TABLE w'))[0]!.rows[0]![1])).toContain('  KEY `mk` (`meta`(191)),\n  KEY `b` (`bio`(20),`price` DESC)\n)');
    await expect(src.execute('k', 'CREATE TABLE w2 (id INT PRIMARY KEY, bio TEXT, KEY (bio))')).rejects.toThrow("BLOB/TEXT column 'bio' used in key specification without a key length");
    await expect(src.execute('k', 'CREATE TABLE w3 (id INT PRIMARY KEY, n INT, KEY (n(2)))')).rejects.toThrow("Incorrect prefix key; the used key part isn't a string");
    await expect(src.execute('k', 'CREATE INDEX long ON w (meta(300))')).rejects.toThrow("Incorrect prefix key; the used key part isn't a string");
    await src.execute('k', "INSERT INTO w VALUES (1, 'same-prefix-1', 'x', 1); CREATE UNIQUE INDEX u ON w (meta(4))");
    await expect(src.execute('k', "INSERT INTO w VALUES (2, 'SAME-other', 'y', 2)")).rejects.toThrow("Duplicate entry 'SAME' for key 'w.u'");
    // rows already there that share a prefix but for case: the key is refused naming it
    await src.execute('k', "INSERT INTO w VALUES (3, 'm3', 'abc-1', 3), (4, 'm4', 'ABC-2', 4)");
    await expect(src.execute('k', 'CREATE UNIQUE INDEX u2 ON w (bio(3))')).rejects.toThrow(/^Duplicate entry 'abc' for key 'w\.u2'$/i);
  });

  it('refuses what it does not keep with 1235: invisible columns and functional key parts', async () => {
    const { src } = await open();
    await src.execute(null, 'CREATE DATABASE r');
    await expect(src.execute('r', 'CREATE TABLE t (id INT PRIMARY KEY, v INT INVISIBLE)')).rejects.toThrow("This version of MySQL doesn't yet support 'invisible columns in the embedded source'");
    await expect(src.execute('r', 'CREATE TABLE t (id INT PRIMARY KEY, v INT, KEY k ((v + 1)))')).rejects.toThrow("This version of MySQL doesn't yet support 'functional key parts in the embedded source'");
    await src.execute('r', 'CREATE TABLE t (id INT PRIMARY KEY, v INT VISIBLE)');
  });

  it('a foreign key keeps the keys it needs, on either side', async () => {
    const { src } = await open();
    await src.execute(null, 'CREATE DATABASE f; USE f; CREATE TABLE p (id INT PRIMARY KEY); CREATE TABLE c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p (id))');
    await expect(src.execute('f', 'ALTER TABLE p DROP PRIMARY KEY')).rejects.toThrow("Cannot drop index 'PRIMARY': needed in a foreign key constraint");
    await expect(src.execute('f', 'ALTER TABLE c DROP INDEX pid')).rejects.toThrow("Cannot drop index 'pid': needed in a foreign key constraint");
  });

  it('SHOW FULL COLUMNS adds the collation, privileges and comment; SHOW COLUMNS takes FROM db and LIKE', async () => {
    const { src } = await open();
    await src.execute(null, SETUP);
    const [full] = await src.execute('al', "SHOW FULL COLUMNS FROM t LIKE '_'");
    expect(full!.columns).toEqual(['Field', 'Type', 'Collation', 'Null', 'Key', 'Default', 'Extra', 'Privileges', 'Comment']);
    expect(full!.rows).toEqual([
      ['a', 'int', null, 'YES', 'MUL', null, '', 'select,insert,update,references', ''],
      ['b', 'varchar(10)', 'utf8mb4_0900_ai_ci', 'YES', '', null, '', 'select,insert,update,references', 'the b'],
    ]);
    expect((await src.execute(null, 'SHOW COLUMNS FROM t FROM al'))[0]!.rows.map((r) => r[0])).toEqual(['id', 'a', 'b']);
  });

  it('CONVERT TO CHARACTER SET decides how the text columns compare', async () => {
    const { src } = await open();
    await src.execute(null, SETUP);
    await src.execute('al', 'ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin');
    expect((await src.execute('al', "SELECT id FROM t WHERE b = 'X'"))[0]!.rows).toEqual([[2]]);
    expect((await src.execute('al', 'SHOW FULL COLUMNS FROM t'))[0]!.rows[2]![2]).toBe('utf8mb4_bin');
    await src.execute('al', 'ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4');
    expect((await src.execute('al', "SELECT id FROM t WHERE b = 'X' ORDER BY id"))[0]!.rows).toEqual([[1], [2]]);
  });

  it('a reordered table stays so after a restart', async () => {
    const first = await open();
    await first.src.execute(null, SETUP);
    await first.src.execute('al', "ALTER TABLE t ADD COLUMN s VARCHAR(3) DEFAULT 'new' FIRST, MODIFY a INT AFTER b, RENAME INDEX ka TO kb");
    await first.src.execute('al', "CREATE TABLE p (id INT PRIMARY KEY, code VARCHAR(20), UNIQUE KEY up (code(3))) COLLATE=utf8mb4_bin; INSERT INTO p VALUES (1, 'abc-1')");
    await first.src.close();
    const again = await open(first.dir);
    try {
      expect((await again.src.execute('al', 'SELECT * FROM t ORDER BY id'))[0]!).toMatchObject({ columns: ['s', 'id', 'b', 'a'], rows: [['new', 1, 'x', 10], ['new', 2, 'X', 10], ['new', 3, 'y', null]] });
      expect((await again.src.execute('al', 'SHOW INDEX FROM t'))[0]!.rows.map((r) => r[2])).toEqual(['PRIMARY', 'kb']);
      // a unique prefix key and a case-telling table collation hold after the restart too
      await expect(again.src.execute('al', "INSERT INTO p VALUES (2, 'abc-2')")).rejects.toThrow("Duplicate entry 'abc' for key 'p.up'");
      await again.src.execute('al', "INSERT INTO p VALUES (3, 'ABC-3')");
      expect(String((await again.src.execute('al', 'SHOW CREATE TABLE p'))[0]!.rows[0]![1])).toContain('UNIQUE KEY `up` (`code`(3))\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin');
    } finally {
      await again.src.close();
    }
  });
});
