/**
 * Schema changes as MySQL 8.0 (InnoDB, strict mode) makes them, and what the change log holds for
 * them. Where a real server was asked, the expectation says so: "MariaDB 10.11.19" is Debian's
 * mariadbd in MySQL 8.0's sql_mode (remote-source-vs-embedded.test.ts runs the same statements on
 * it); error texts are MySQL 8.0's errmsg-utf8.txt.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';
import type { BinlogTransaction } from './types.js';

const fresh = freshSourceForEachTest({ database: 's', setup: 'CREATE DATABASE s' });

const { run, rows, errorOf } = fresh;
const showCreate = (t: string) => String(rows(`SHOW CREATE TABLE ${t}`)[0]![1]);
const log = (): BinlogTransaction[] => fresh.src.readTransactions({ file: '', pos: 0 }, 10_000);
const restart = (fromLog = false) => fresh.restart(fromLog);

describe('AUTO_INCREMENT table option', () => {
  it('CREATE TABLE … AUTO_INCREMENT=100 hands out 100 first, and SHOW CREATE TABLE shows the next value', () => {
    // MariaDB 10.11.19: ids 100; SHOW CREATE TABLE … ENGINE=InnoDB AUTO_INCREMENT=101 DEFAULT CHARSET=…
    run('CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v INT) AUTO_INCREMENT=100; INSERT INTO a (v) VALUES (1)');
    expect(rows('SELECT id FROM a')).toEqual([[100]]);
    expect(showCreate('a')).toContain(') ENGINE=InnoDB AUTO_INCREMENT=101 DEFAULT CHARSET=utf8mb4');
  });

  it('a table whose counter is at 1 shows no AUTO_INCREMENT option (store_create_info prints it above 1)', () => {
    run('CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v INT)');
    expect(showCreate('a')).toContain(') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4');
  });

  it('ALTER TABLE … AUTO_INCREMENT = N never goes below the largest value plus one (MySQL 8.0 manual, ALTER TABLE)', () => {
    // MariaDB 10.11.19: 100, then 101 after AUTO_INCREMENT = 50, then 500 after AUTO_INCREMENT = 500
    run('CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v INT) AUTO_INCREMENT=100; INSERT INTO a (v) VALUES (1)');
    run('ALTER TABLE a AUTO_INCREMENT = 50; INSERT INTO a (v) VALUES (2)');
    expect(run('ALTER TABLE a AUTO_INCREMENT = 500').at(-1)!.affectedRows).toBe(0);
    run('INSERT INTO a (v) VALUES (3)');
    expect(rows('SELECT id FROM a ORDER BY id')).toEqual([[100], [101], [500]]);
    expect(showCreate('a')).toContain('AUTO_INCREMENT=501');
  });

  it('a copying ALTER keeps the counter, and the counter survives a restart and a replay of the change log', async () => {
    run('CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v INT) AUTO_INCREMENT=100; INSERT INTO a (v) VALUES (1); ALTER TABLE a AUTO_INCREMENT = 300, MODIFY v BIGINT');
    expect(showCreate('a')).toContain('AUTO_INCREMENT=300');
    await restart();
    expect(showCreate('a')).toContain('AUTO_INCREMENT=300');
    await restart(true);
    expect(showCreate('a')).toContain('AUTO_INCREMENT=300');
    run('INSERT INTO a (v) VALUES (2)');
    expect(rows('SELECT id FROM a ORDER BY id')).toEqual([[100], [300]]);
  });
});

describe('ALTER TABLE … MODIFY/CHANGE converts the rows', () => {
  beforeEach(() => run("CREATE TABLE p (id INT PRIMARY KEY, total DECIMAL(10,2), s VARCHAR(10), n INT); INSERT INTO p VALUES (2, 99999.99, 'abcdef', 300), (1, 9.99, 'abc', 5)"));

  it('a wider DECIMAL stores every row at its new scale, and reports the rows copied', () => {
    // MariaDB 10.11.19: OK, 2 rows affected; 9.990 and 99999.990
    expect(run('ALTER TABLE p MODIFY total DECIMAL(12,3)').at(-1)!.affectedRows).toBe(2);
    expect(rows('SELECT id, total FROM p ORDER BY id')).toEqual([
      [1, '9.990'],
      [2, '99999.990'],
    ]);
  });

  it('CHANGE to INT rounds as the INT column stores a decimal', () => {
    // MariaDB 10.11.19: 10 and 100000
    run('ALTER TABLE p CHANGE total whole INT');
    expect(rows('SELECT id, whole FROM p ORDER BY id')).toEqual([
      [1, 10],
      [2, 100000],
    ]);
  });

  it('a row that does not fit fails the whole ALTER, naming the row in primary key order, and changes nothing', () => {
    const before = log().length;
    // MariaDB 10.11.19 for 1264 and 1265; 1406 is MySQL 8.0's ER_DATA_TOO_LONG in strict mode
    expect(errorOf('ALTER TABLE p MODIFY total DECIMAL(5,1)')).toBe("ERROR 1264 (22003): Out of range value for column 'total' at row 2");
    expect(errorOf('ALTER TABLE p MODIFY n TINYINT')).toBe("ERROR 1264 (22003): Out of range value for column 'n' at row 2");
    expect(errorOf("ALTER TABLE p MODIFY s ENUM('abc', 'x')")).toBe("ERROR 1265 (01000): Data truncated for column 's' at row 2");
    expect(errorOf('ALTER TABLE p MODIFY s VARCHAR(4)')).toBe("ERROR 1406 (22001): Data too long for column 's' at row 2");
    expect(errorOf('ALTER TABLE p MODIFY n INT, MODIFY total DECIMAL(4,2)')).toBe("ERROR 1264 (22003): Out of range value for column 'total' at row 2");
    expect(log().length).toBe(before);
    expect(rows('SELECT id, total, s, n FROM p ORDER BY id')).toEqual([
      [1, '9.99', 'abc', 5],
      [2, '99999.99', 'abcdef', 300],
    ]);
    expect(showCreate('p')).toContain('`total` decimal(10,2) DEFAULT NULL');
  });

  it('the change log holds the ALTER and no row events (a copying ALTER writes none to the binlog), and replays to the converted rows', async () => {
    run('ALTER TABLE p MODIFY total DECIMAL(12,3)');
    const tx = log().at(-1)!;
    expect(tx.ddl?.kind).toBe('alter-table');
    expect(tx.events).toEqual([]);
    await restart(true);
    expect(rows('SELECT id, total FROM p ORDER BY id')).toEqual([
      [1, '9.990'],
      [2, '99999.990'],
    ]);
  });
});

describe('invalid literal defaults', () => {
  // MariaDB 10.11.19 answers each with ER_INVALID_DEFAULT
  for (const [what, sql, column] of [
    ['an INT default that is no number', "CREATE TABLE d (c INT DEFAULT 'abc')", 'c'],
    ['a DATETIME default that is no date', "CREATE TABLE d (d DATETIME DEFAULT '2024-13-01')", 'd'],
    ['an ENUM default not in the list', "CREATE TABLE d (e ENUM('a') DEFAULT 'b')", 'e'],
    ['a VARCHAR(2) default of three characters', "CREATE TABLE d (v VARCHAR(2) DEFAULT 'abc')", 'v'],
    ['DEFAULT NULL for a NOT NULL column', 'CREATE TABLE d (n INT NOT NULL DEFAULT NULL)', 'n'],
    ['a TINYINT default out of range', 'CREATE TABLE d (t TINYINT DEFAULT 300)', 't'],
    ['CURRENT_TIMESTAMP for an INT', 'CREATE TABLE d (c INT DEFAULT CURRENT_TIMESTAMP)', 'c'],
  ]) {
    it(`${what} is refused with 1067`, () => {
      expect(errorOf(sql!)).toBe(`ERROR 1067 (42000): Invalid default value for '${column}'`);
    });
  }

  it('defaults the column stores are accepted; ADD COLUMN, MODIFY and SET DEFAULT are checked too', () => {
    run("CREATE TABLE d (x DECIMAL(5,2) DEFAULT 1.234, t TIMESTAMP DEFAULT CURRENT_TIMESTAMP, v VARCHAR(2) DEFAULT 'ab', b BIT(3) DEFAULT b'101', y YEAR DEFAULT 24)");
    expect(errorOf("ALTER TABLE d ALTER COLUMN v SET DEFAULT 'abc'")).toBe("ERROR 1067 (42000): Invalid default value for 'v'");
    expect(errorOf("ALTER TABLE d ADD COLUMN n INT DEFAULT 'x'")).toBe("ERROR 1067 (42000): Invalid default value for 'n'");
    expect(errorOf("ALTER TABLE d MODIFY v VARCHAR(1) DEFAULT 'ab'")).toBe("ERROR 1067 (42000): Invalid default value for 'v'");
  });
});

describe('FOREIGN KEY constraints', () => {
  beforeEach(() => run("CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(20)); INSERT INTO customers VALUES (1, 'a'), (2, 'b')"));

  it('SHOW CREATE TABLE shows the constraint and the index InnoDB adds for it', () => {
    run('CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, CONSTRAINT fk_c FOREIGN KEY (customer_id) REFERENCES customers (id))');
    // MySQL 8.0 manual, FOREIGN KEY Constraints: the index is named after the CONSTRAINT symbol
    expect(showCreate('orders')).toBe(
      'CREATE TABLE `orders` (\n  `id` int NOT NULL,\n  `customer_id` int DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  KEY `fk_c` (`customer_id`),\n  CONSTRAINT `fk_c` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci',
    );
  });

  it('an unnamed constraint is <table>_ibfk_<n>, its index is named after the column, and actions other than RESTRICT are printed', () => {
    // MariaDB 10.11.19: KEY `customer_id` (`customer_id`), CONSTRAINT `orders_ibfk_1` … ON DELETE CASCADE ON UPDATE SET NULL
    run('CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE ON UPDATE SET NULL, FOREIGN KEY (id) REFERENCES customers (id) ON DELETE RESTRICT)');
    const text = showCreate('orders');
    expect(text).toContain('  KEY `customer_id` (`customer_id`),\n');
    expect(text).toContain('  CONSTRAINT `orders_ibfk_1` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`) ON DELETE CASCADE ON UPDATE SET NULL,\n  CONSTRAINT `orders_ibfk_2` FOREIGN KEY (`id`) REFERENCES `customers` (`id`)\n)');
  });

  it('the child needs its parent, the parent keeps its children, in MySQL 8.0’s words', () => {
    run('CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, CONSTRAINT fk_c FOREIGN KEY (customer_id) REFERENCES customers (id)); INSERT INTO orders VALUES (1, 1), (2, NULL)');
    const fk = 'CONSTRAINT `fk_c` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`)';
    expect(errorOf('INSERT INTO orders VALUES (3, 9)')).toBe(`ERROR 1452 (23000): Cannot add or update a child row: a foreign key constraint fails (\`s\`.\`orders\`, ${fk})`);
    expect(errorOf('UPDATE orders SET customer_id = 9 WHERE id = 2')).toBe(`ERROR 1452 (23000): Cannot add or update a child row: a foreign key constraint fails (\`s\`.\`orders\`, ${fk})`);
    expect(errorOf('DELETE FROM customers WHERE id = 1')).toBe(`ERROR 1451 (23000): Cannot delete or update a parent row: a foreign key constraint fails (\`s\`.\`orders\`, ${fk})`);
    expect(errorOf('UPDATE customers SET id = 10 WHERE id = 1')).toBe(`ERROR 1451 (23000): Cannot delete or update a parent row: a foreign key constraint fails (\`s\`.\`orders\`, ${fk})`);
    expect(errorOf('DROP TABLE customers')).toBe("ERROR 3730 (HY000): Cannot drop table 'customers' referenced by a foreign key constraint 'fk_c' on table 'orders'.");
    expect(errorOf('TRUNCATE customers')).toBe('ERROR 1701 (42000): Cannot truncate a table referenced in a foreign key constraint (`s`.`orders`, CONSTRAINT `fk_c`)');
    expect(errorOf('ALTER TABLE orders DROP INDEX fk_c')).toBe("ERROR 1553 (HY000): Cannot drop index 'fk_c': needed in a foreign key constraint");
    expect(errorOf('ALTER TABLE orders DROP COLUMN customer_id')).toBe("ERROR 1828 (HY000): Cannot drop column 'customer_id': needed in a foreign key constraint 'fk_c'");
    // an unreferenced parent row goes; the parent goes together with its child
    run('DELETE FROM customers WHERE id = 2; DROP TABLE orders, customers');
    expect(rows('SHOW TABLES')).toEqual([]);
  });

  it('SET foreign_key_checks = 0 turns the checks off for the session', () => {
    run('CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, CONSTRAINT fk_c FOREIGN KEY (customer_id) REFERENCES customers (id))');
    run('SET foreign_key_checks = 0; INSERT INTO orders VALUES (1, 77); DELETE FROM customers WHERE id = 1');
    expect(rows('SELECT * FROM orders')).toEqual([[1, 77]]);
    // the next session checks again
    expect(errorOf('INSERT INTO orders VALUES (2, 78)')).toMatch(/^ERROR 1452/);
    expect(errorOf('ALTER TABLE orders DROP FOREIGN KEY fk_c, ADD CONSTRAINT fk_d FOREIGN KEY (customer_id) REFERENCES customers (id)')).toMatch(/^ERROR 1452 \(23000\): Cannot add or update a child row: a foreign key constraint fails \(`s`.`orders`, CONSTRAINT `fk_d`/);
    run('SET FOREIGN_KEY_CHECKS=0; DROP TABLE customers');
    expect(rows('SHOW TABLES')).toEqual([['orders']]);
  });

  it('the parent is checked when the constraint is made (MySQL 8.0’s 1824, 3780, 1822, 1826)', () => {
    expect(errorOf('CREATE TABLE x (id INT PRIMARY KEY, o INT, FOREIGN KEY (o) REFERENCES nope (id))')).toBe("ERROR 1824 (HY000): Failed to open the referenced table 'nope'");
    expect(errorOf('CREATE TABLE x (id INT PRIMARY KEY, o BIGINT, FOREIGN KEY (o) REFERENCES customers (id))')).toBe("ERROR 3780 (HY000): Referencing column 'o' and referenced column 'id' in foreign key constraint 'x_ibfk_1' are incompatible.");
    expect(errorOf('CREATE TABLE x (id INT PRIMARY KEY, o VARCHAR(5), FOREIGN KEY (o) REFERENCES customers (name))')).toBe("ERROR 1822 (HY000): Failed to add the foreign key constraint. Missing index for constraint 'x_ibfk_1' in the referenced table 'customers'");
    run('CREATE TABLE x (id INT PRIMARY KEY, o INT, CONSTRAINT fk FOREIGN KEY (o) REFERENCES customers (id))');
    expect(errorOf('CREATE TABLE y (id INT PRIMARY KEY, o INT, CONSTRAINT fk FOREIGN KEY (o) REFERENCES customers (id))')).toBe("ERROR 1826 (HY000): Duplicate foreign key constraint name 'fk'");
  });

  it('CASCADE and SET NULL change the child rows, and the change log holds only the parent’s row events (InnoDB’s cascades are not in MySQL 8.0’s binlog)', () => {
    run('CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE SET NULL)');
    run('CREATE TABLE items (id INT PRIMARY KEY, order_id INT, FOREIGN KEY (order_id) REFERENCES orders (id) ON DELETE CASCADE ON UPDATE CASCADE)');
    run('INSERT INTO orders VALUES (1, 1), (2, 2); INSERT INTO items VALUES (1, 1), (2, 1), (3, 2)');
    // MariaDB 10.11.19: 1 row affected for each
    expect(run('UPDATE orders SET id = 11 WHERE id = 1').at(-1)!.affectedRows).toBe(1);
    expect(rows('SELECT * FROM items ORDER BY id')).toEqual([
      [1, 11],
      [2, 11],
      [3, 2],
    ]);
    expect(run('DELETE FROM customers WHERE id = 2').at(-1)!.affectedRows).toBe(1);
    expect(rows('SELECT * FROM orders ORDER BY id')).toEqual([
      [2, null],
      [11, 1],
    ]);
    run('DELETE FROM orders WHERE id = 11');
    expect(rows('SELECT * FROM items ORDER BY id')).toEqual([[3, 2]]);
    const tables = log()
      .slice(-3)
      .map((tx) => tx.events.map((e) => `${e.table}:${e.op}`));
    expect(tables).toEqual([['orders:u'], ['customers:d'], ['orders:d']]);
  });

  it('a restart and a replay of the change log reach the same rows, cascades included, and keep the constraints', async () => {
    run('CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, CONSTRAINT fk_c FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE)');
    run('INSERT INTO orders VALUES (1, 1), (2, 1), (3, 2)');
    run('BEGIN; DELETE FROM customers WHERE id = 1; INSERT INTO orders VALUES (4, 2); COMMIT');
    run('SET foreign_key_checks = 0; INSERT INTO orders VALUES (5, 99)');
    const expected = rows('SELECT * FROM orders ORDER BY id');
    expect(expected).toEqual([
      [3, 2],
      [4, 2],
      [5, 99],
    ]);
    await restart(true);
    expect(rows('SELECT * FROM orders ORDER BY id')).toEqual(expected);
    expect(errorOf('INSERT INTO orders VALUES (6, 98)')).toMatch(/^ERROR 1452/);
    await restart();
    expect(showCreate('orders')).toContain('CONSTRAINT `fk_c` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`) ON DELETE CASCADE');
  });

  it('ALTER TABLE adds and drops constraints, and a renamed parent keeps its children', () => {
    run('CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT); INSERT INTO orders VALUES (1, 1)');
    run('ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers (id)');
    expect(showCreate('orders')).toContain('CONSTRAINT `orders_ibfk_1` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`)');
    run('RENAME TABLE customers TO clients');
    expect(showCreate('orders')).toContain('REFERENCES `clients` (`id`)');
    expect(errorOf('DELETE FROM clients WHERE id = 1')).toMatch(/^ERROR 1451/);
    expect(errorOf('ALTER TABLE orders DROP FOREIGN KEY nope')).toBe("ERROR 1091 (42000): Can't DROP 'nope'; check that column/key exists");
    run('ALTER TABLE orders DROP FOREIGN KEY orders_ibfk_1');
    // the index stays (MySQL 8.0 manual, Dropping Foreign Key Constraints)
    expect(showCreate('orders')).toContain('KEY `customer_id` (`customer_id`)\n)');
    run('DELETE FROM clients WHERE id = 1');
  });
});
