/**
 * Views as a MySQL 8.0 client meets them. Sources of the expectations: MySQL 8.0 manual (CREATE
 * VIEW, DROP VIEW, SHOW CREATE VIEW, SHOW FULL TABLES, The INFORMATION_SCHEMA VIEWS and TABLES
 * Tables) and MySQL 8.0's error message reference (ER_TABLE_EXISTS_ERROR 1050, ER_BAD_TABLE_ERROR
 * 1051, ER_NO_SUCH_TABLE 1146, ER_WRONG_OBJECT 1347, ER_VIEW_WRONG_LIST 1353, ER_VIEW_INVALID 1356); RENAME TABLE and SHOW TABLE STATUS as the
 * manual describes them for views. SHOW CREATE VIEW's canonical SELECT is MySQL's for the plain views written here.
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({
  database: 'shop',
  setup: `CREATE DATABASE shop;
    CREATE TABLE shop.customers (id INT NOT NULL PRIMARY KEY, name VARCHAR(40), city VARCHAR(20));
    CREATE TABLE shop.orders (id INT NOT NULL PRIMARY KEY, customer_id INT, total DECIMAL(8,2));
    INSERT INTO shop.customers VALUES (1, 'Ada', 'London'), (2, 'Grace', 'Arlington');
    INSERT INTO shop.orders VALUES (10, 1, 5.50), (11, 1, 2.25), (12, 2, 9.00)`,
});
const { run, rows, errorOf } = fresh;

describe('CREATE VIEW', () => {
  it('a view reads like its SELECT, joins included', () => {
    run('CREATE VIEW v AS SELECT id, name FROM customers WHERE id > 1');
    expect(rows('SELECT * FROM v')).toEqual([[2, 'Grace']]);
    run('CREATE VIEW spend (who, spent) AS SELECT c.name, SUM(o.total) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name');
    expect(rows('SELECT who, spent FROM spend ORDER BY who')).toEqual([['Ada', 7.75], ['Grace', 9]]);
    expect(rows('SELECT v.name, s.spent FROM v JOIN spend s ON s.who = v.name')).toEqual([['Grace', 9]]);
  });

  it('takes ALGORITHM, DEFINER, SQL SECURITY and WITH CHECK OPTION, and SHOW CREATE VIEW prints them', () => {
    run("CREATE ALGORITHM=MERGE DEFINER='root'@'localhost' SQL SECURITY INVOKER VIEW v AS SELECT id FROM customers WITH LOCAL CHECK OPTION");
    expect(rows('SHOW CREATE VIEW v')).toEqual([['v', 'CREATE ALGORITHM=MERGE DEFINER=`root`@`localhost` SQL SECURITY INVOKER VIEW `v` AS select `customers`.`id` AS `id` from `customers` WITH LOCAL CHECK OPTION', 'utf8mb4', 'utf8mb4_0900_ai_ci']]);
  });

  it("SHOW CREATE VIEW prints MySQL's defaults and canonical SELECT (the manual's example form)", () => {
    run('CREATE VIEW v AS SELECT id FROM customers');
    const shown = run('SHOW CREATE VIEW v')[0]!;
    expect(shown.columns).toEqual(['View', 'Create View', 'character_set_client', 'collation_connection']);
    expect(shown.rows[0]![1]).toBe('CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `v` AS select `customers`.`id` AS `id` from `customers`');
    // `*` is expanded, an alias kept, a column list printed after the name
    run('CREATE VIEW w (a, b, c) AS SELECT * FROM customers AS k');
    expect(rows('SHOW CREATE VIEW w')[0]![1]).toBe('CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `w` (`a`,`b`,`c`) AS select `k`.`id` AS `id`,`k`.`name` AS `name`,`k`.`city` AS `city` from `customers` `k`');
    // SHOW CREATE TABLE of a view answers as SHOW CREATE VIEW
    expect(run('SHOW CREATE TABLE v')[0]!.columns).toEqual(['View', 'Create View', 'character_set_client', 'collation_connection']);
  });

  it('a missing table is 1146, a taken name 1050, a table where a view is meant 1347', () => {
    expect(errorOf('CREATE VIEW v AS SELECT id FROM nosuch')).toBe("ERROR 1146 (42S02): Table 'shop.nosuch' doesn't exist");
    run('CREATE VIEW v AS SELECT id FROM customers');
    expect(errorOf('CREATE VIEW v AS SELECT id FROM orders')).toBe("ERROR 1050 (42S01): Table 'v' already exists");
    expect(errorOf('CREATE VIEW customers AS SELECT id FROM orders')).toBe("ERROR 1050 (42S01): Table 'customers' already exists");
    expect(errorOf('CREATE TABLE v (id INT)')).toBe("ERROR 1050 (42S01): Table 'v' already exists");
    expect(errorOf('CREATE OR REPLACE VIEW customers AS SELECT id FROM orders')).toBe("ERROR 1347 (HY000): 'shop.customers' is not VIEW");
    expect(errorOf('SHOW CREATE VIEW customers')).toBe("ERROR 1347 (HY000): 'shop.customers' is not VIEW");
    expect(errorOf('CREATE VIEW x (a, b) AS SELECT id FROM customers')).toBe('ERROR 1353 (HY000): In definition of view, derived table or common table expression, SELECT list and column names list have different column counts');
    expect(errorOf('CREATE VIEW x AS SELECT id, id FROM customers')).toBe("ERROR 1060 (42S21): Duplicate column name 'id'");
  });

  it('CREATE OR REPLACE and ALTER VIEW change the definition; ALTER of no view is 1146', () => {
    run('CREATE VIEW v AS SELECT id FROM customers');
    run('CREATE OR REPLACE VIEW v AS SELECT name FROM customers');
    expect(rows('SELECT * FROM v ORDER BY name')).toEqual([['Ada'], ['Grace']]);
    run('ALTER VIEW v AS SELECT city FROM customers WHERE id = 1');
    expect(rows('SELECT * FROM v')).toEqual([['London']]);
    expect(errorOf('ALTER VIEW nosuch AS SELECT 1')).toBe("ERROR 1146 (42S02): Table 'shop.nosuch' doesn't exist");
  });
});

describe('DROP VIEW and DROP TABLE', () => {
  it('DROP VIEW [IF EXISTS] drops all or nothing and names every missing view (1051)', () => {
    run('CREATE VIEW v AS SELECT id FROM customers; CREATE VIEW w AS SELECT id FROM orders');
    expect(errorOf('DROP VIEW v, nosuch, other')).toBe("ERROR 1051 (42S02): Unknown table 'shop.nosuch,shop.other'");
    expect(rows('SELECT count(*) FROM v')).toEqual([[2]]);
    run('DROP VIEW IF EXISTS v, nosuch');
    expect(errorOf('SELECT * FROM v')).toBe("ERROR 1146 (42S02): Table 'shop.v' doesn't exist");
    expect(errorOf('DROP VIEW customers')).toBe("ERROR 1347 (HY000): 'shop.customers' is not VIEW");
  });

  it('DROP TABLE does not drop a view: 1051 Unknown table', () => {
    run('CREATE VIEW v AS SELECT id FROM customers');
    expect(errorOf('DROP TABLE v')).toBe("ERROR 1051 (42S02): Unknown table 'shop.v'");
  });

  it('a view whose table was dropped is 1356; altering its table keeps it working', () => {
    run('CREATE VIEW v AS SELECT id, name FROM customers');
    run('ALTER TABLE customers ADD COLUMN email VARCHAR(80)');
    run('ALTER TABLE customers MODIFY name VARCHAR(80)');
    expect(rows('SELECT * FROM v ORDER BY id')).toEqual([[1, 'Ada'], [2, 'Grace']]);
    run('RENAME TABLE orders TO orders2');
    run('CREATE VIEW o AS SELECT id FROM orders2');
    run('DROP TABLE customers');
    expect(errorOf('SELECT * FROM v')).toBe("ERROR 1356 (HY000): View 'shop.v' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them");
  });
});

describe('catalogue', () => {
  it('SHOW FULL TABLES says VIEW, DESCRIBE shows the columns without keys', () => {
    run('CREATE VIEW v AS SELECT id, name, COUNT(*) AS n FROM customers GROUP BY id, name');
    expect(rows('SHOW FULL TABLES')).toEqual([['customers', 'BASE TABLE'], ['orders', 'BASE TABLE'], ['v', 'VIEW']]);
    expect(rows('SHOW TABLES')).toEqual([['customers'], ['orders'], ['v']]);
    expect(rows('DESCRIBE v')).toEqual([
      ['id', 'int', 'NO', '', null, ''],
      ['name', 'varchar(40)', 'YES', '', null, ''],
      ['n', 'bigint', 'NO', '', null, ''],
    ]);
  });

  it('information_schema: TABLES, VIEWS and COLUMNS', () => {
    run('CREATE VIEW v AS SELECT id, name FROM customers');
    expect(rows("SELECT TABLE_TYPE, ENGINE, TABLE_ROWS, TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'v'")).toEqual([['VIEW', null, null, 'VIEW']]);
    expect(rows("SELECT * FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'shop'")).toEqual([
      ['def', 'shop', 'v', 'select `shop`.`customers`.`id` AS `id`,`shop`.`customers`.`name` AS `name` from `shop`.`customers`', 'NONE', 'YES', 'root@localhost', 'DEFINER', 'utf8mb4', 'utf8mb4_0900_ai_ci'],
    ]);
    expect(rows("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_NAME = 'v' ORDER BY ORDINAL_POSITION")).toEqual([
      ['id', 'int', ''],
      ['name', 'varchar', ''],
    ]);
  });
});

describe('writes and durability', () => {
  it('a write through a view over one table changes, and logs, the table’s rows; through a join view it is refused with a MySQL error', () => {
    run('CREATE VIEW v AS SELECT id, name FROM customers');
    const before = fresh.src.position();
    run("INSERT INTO v VALUES (3, 'Edsger'); UPDATE v SET name = 'x' WHERE id = 3; DELETE FROM v WHERE id = 3");
    expect(fresh.src.readTransactions(before, 10).flatMap((tx) => tx.events.map((e) => `${e.op} ${e.table}`))).toEqual(['c customers', 'u customers', 'd customers']);
    run('CREATE VIEW j AS SELECT c.id, o.id AS oid FROM customers c JOIN orders o ON o.customer_id = c.id');
    expect(errorOf('DELETE FROM j')).toMatch(/^ERROR 1235 \(42000\): This version of MySQL doesn't yet support 'DELETE through the view 'j', which reads more than one table, in the embedded source'/);
  });

  it('views survive a restart, from a snapshot and from the change log alone', async () => {
    run('CREATE VIEW v AS SELECT id FROM customers; CREATE VIEW gone AS SELECT id FROM orders; DROP VIEW gone');
    await fresh.restart();
    expect(fresh.rows('SELECT * FROM v ORDER BY id')).toEqual([[1], [2]]);
    await fresh.restart(true);
    expect(fresh.rows('SELECT * FROM v ORDER BY id')).toEqual([[1], [2]]);
    expect(fresh.rows('SHOW FULL TABLES')).toEqual([['customers', 'BASE TABLE'], ['orders', 'BASE TABLE'], ['v', 'VIEW']]);
  });

  it('the change log keeps a view apart from the tables', () => {
    const before = fresh.src.position();
    run('CREATE VIEW v AS SELECT id FROM customers');
    const [tx] = fresh.src.readTransactions(before, 10);
    expect(tx!.ddl).toMatchObject({ kind: 'create-view', mysql: 'CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `v` AS SELECT id FROM customers' });
    expect(tx!.ddl!.table).toBeUndefined();
    expect([...fresh.src.tableDefsAt(fresh.src.position()).get('shop')!.keys()]).toEqual(['customers', 'orders']);
  });
});

describe('views and the table statements', () => {
  it('RENAME TABLE renames a view, and the new name survives a restart (from a snapshot and from the change log alone)', async () => {
    run('CREATE VIEW v AS SELECT id, name FROM customers WHERE id > 1; RENAME TABLE v TO w');
    expect(rows('SELECT * FROM w')).toEqual([[2, 'Grace']]);
    expect(errorOf('SELECT * FROM v')).toBe("ERROR 1146 (42S02): Table 'shop.v' doesn't exist");
    expect(errorOf('RENAME TABLE w TO customers')).toBe("ERROR 1050 (42S01): Table 'customers' already exists");
    await fresh.restart();
    expect(fresh.rows('SELECT * FROM w')).toEqual([[2, 'Grace']]);
    await fresh.restart(true);
    expect(fresh.rows('SELECT * FROM w')).toEqual([[2, 'Grace']]);
    expect(fresh.rows('SHOW FULL TABLES')).toEqual([['customers', 'BASE TABLE'], ['orders', 'BASE TABLE'], ['w', 'VIEW']]);
    expect(fresh.rows("SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'shop'")).toEqual([['w']]);
  });

  it('a view renamed is logged as the RENAME TABLE that did it, naming no table', () => {
    run('CREATE VIEW v AS SELECT id FROM customers');
    const before = fresh.src.position();
    run('RENAME TABLE v TO w');
    const [tx] = fresh.src.readTransactions(before, 10);
    expect(tx!.ddl).toMatchObject({ kind: 'create-view', mysql: 'RENAME TABLE v TO w', renamedFrom: 'v', view: { name: 'w' } });
    expect(tx!.ddl!.table).toBeUndefined();
  });

  it("ALTER TABLE of a view is 1347 'is not BASE TABLE', its RENAME included", () => {
    run('CREATE VIEW v AS SELECT id FROM customers');
    expect(errorOf('ALTER TABLE v ADD COLUMN x INT')).toBe("ERROR 1347 (HY000): 'shop.v' is not BASE TABLE");
    expect(errorOf('ALTER TABLE v RENAME TO w')).toBe("ERROR 1347 (HY000): 'shop.v' is not BASE TABLE");
    expect(errorOf('ALTER TABLE nope ADD COLUMN x INT')).toBe("ERROR 1146 (42S02): Table 'shop.nope' doesn't exist");
  });

  it('SHOW TABLE STATUS shows a view with NULL in every column but its name and the Comment VIEW', () => {
    run('CREATE VIEW v AS SELECT id FROM customers');
    expect(rows('SHOW TABLE STATUS').map((r) => r[0])).toEqual(['customers', 'orders', 'v']);
    expect(rows("SHOW TABLE STATUS LIKE 'v'")).toEqual([['v', ...Array<null>(16).fill(null), 'VIEW']]);
    expect(rows("SHOW TABLE STATUS WHERE Comment = 'VIEW'").map((r) => r[0])).toEqual(['v']);
    expect(rows('SHOW TABLE STATUS WHERE Engine IS NULL').map((r) => r[0])).toEqual(['v']);
  });
});
