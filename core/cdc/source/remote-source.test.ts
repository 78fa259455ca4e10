/**
 * The console's remote source against a real server: a private MariaDB (Debian's mariadbd,
 * started by ./testing/mariadb-server.ts) reached through mysql2, with the `mariadb`
 * command-line client as the independent witness of what the server says. Without mariadbd the
 * server tests skip (and fail under CI=true); the connection-failure tests need no server.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MySqlError } from './mysql-error.js';
import { RemoteSource, toMySqlError } from './remote-source.js';
import { mariadbTests, startMariaDb, type MariaDbServer } from './testing/mariadb-server.js';

async function failure(p: Promise<unknown>): Promise<MySqlError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(MySqlError);
    return err as MySqlError;
  }
  throw new Error('expected a MySQL error');
}

describe('remote MySQL source (mysql2): reaching the server', () => {
  it('a refused connection is ERROR 2003 naming the server', async () => {
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as net.AddressInfo).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const src = new RemoteSource({ host: '127.0.0.1', port, user: 'root', connectTimeoutMs: 2000 });
    await expect(src.execute('demo', 'SELECT 1')).rejects.toThrow(`Can't connect to MySQL server on '127.0.0.1:${port}' (ECONNREFUSED)`);
    expect(String(await failure(src.listDatabases()))).toBe(`ERROR 2003 (HY000): Can't connect to MySQL server on '127.0.0.1:${port}' (ECONNREFUSED)`);
  });

  it('a server that accepts the connection but never greets gives up after the connect timeout (ERROR 2003)', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const src = new RemoteSource({ host: '127.0.0.1', port, user: 'root', connectTimeoutMs: 300 });
      const e = await failure(src.execute(null, 'SELECT 1'));
      expect(e.toJSON()).toMatchObject({ errno: 2003, sqlState: 'HY000', message: `Can't connect to MySQL server on '127.0.0.1:${port}' (ETIMEDOUT)` });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('a host name that does not resolve is ERROR 2005, as the mysql client says', async () => {
    // A generous connect timeout: where DNS is unreachable the resolver gives up (EAI_AGAIN) only
    // after its own timeouts, and that is still 2005, not a connect timeout.
    const src = new RemoteSource({ host: 'no-such-host.invalid', user: 'root', connectTimeoutMs: 25_000 });
    const e = await failure(src.execute(null, 'SELECT 1'));
    expect([e.errno, e.sqlState]).toEqual([2005, 'HY000']);
    expect(e.message).toMatch(/^Unknown MySQL server host 'no-such-host\.invalid' \(E[A-Z_]+\)$/);
  });

  it("server errors keep MySQL's numbers and text", () => {
    const e = toMySqlError({ errno: 1146, sqlState: '42S02', sqlMessage: "Table 'shop.nope' doesn't exist", code: 'ER_NO_SUCH_TABLE' }, 'db:3306');
    expect(String(e)).toBe("ERROR 1146 (42S02): Table 'shop.nope' doesn't exist");
  });
});

const mariadb = mariadbTests();
if (mariadb.skip) console.warn(`remote-source.test.ts: MariaDB tests ${mariadb.reason}`);

describe.skipIf(mariadb.skip)(`remote MySQL source against a real MariaDB server${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  let server: MariaDbServer;
  let src: RemoteSource;

  beforeAll(async () => {
    server = await startMariaDb();
    src = new RemoteSource({ host: server.host, port: server.port, user: server.user, password: server.password });
    await src.execute(
      null,
      `CREATE DATABASE shop;
       USE shop;
       CREATE TABLE customers (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, email VARCHAR(100) NOT NULL, UNIQUE KEY uq_email (email));
       CREATE TABLE orders (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, amount DECIMAL(10,2) NOT NULL DEFAULT 0.00,
         status ENUM('new','paid, late') NOT NULL DEFAULT 'new', placed DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
         note TEXT COMMENT 'free text', KEY ix_customer (customer_id))`,
    );
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('runs several statements on one connection in order and returns each result, the rows of the last one included', async () => {
    const results = await src.execute(
      'shop',
      "INSERT INTO customers (email) VALUES ('a@example.com'), ('b@example.com'); SET @n = 40; INSERT INTO orders (customer_id, amount, placed) VALUES (1, 12.5, '2024-01-02 03:04:05'); SELECT @n + 2 AS answer, COUNT(*) AS customers, LAST_INSERT_ID() AS last_id FROM customers",
    );
    expect(results.map((r) => [r.kind, r.affectedRows, r.insertId ?? null, r.database])).toEqual([
      ['ok', 2, 1, 'shop'], // a multi-row INSERT reports the first id, as LAST_INSERT_ID does
      ['ok', 0, null, 'shop'],
      ['ok', 1, 1, 'shop'],
      ['rows', 0, null, 'shop'],
    ]);
    // @n survives from statement 2 to 4: one session, as in the mysql client.
    expect(results[3]!.columns).toEqual(['answer', 'customers', 'last_id']);
    expect(results[3]!.rows).toEqual([[42, 2, 1]]);
    expect(results.map((r) => r.sql)).toEqual([
      "INSERT INTO customers (email) VALUES ('a@example.com'), ('b@example.com')",
      'SET @n = 40',
      "INSERT INTO orders (customer_id, amount, placed) VALUES (1, 12.5, '2024-01-02 03:04:05')",
      'SELECT @n + 2 AS answer, COUNT(*) AS customers, LAST_INSERT_ID() AS last_id FROM customers',
    ]);
  });

  it('follows the database USE switches to, a quoted name with a space too, and none after dropping it', async () => {
    const results = await src.execute(null, 'SELECT DATABASE(); CREATE DATABASE `my shop`; USE `my shop`; SELECT DATABASE(); DROP DATABASE `my shop`; SELECT DATABASE()');
    expect(results.map((r) => [r.sql.split(' ')[0], r.database, r.kind === 'rows' ? r.rows[0]![0] : '-'])).toEqual([
      ['SELECT', null, null],
      ['CREATE', null, '-'],
      ['USE', 'my shop', '-'],
      ['SELECT', 'my shop', 'my shop'],
      ['DROP', null, '-'],
      ['SELECT', null, null],
    ]);
    // A connection opened on a database starts there.
    expect((await new RemoteSource({ host: server.host, port: server.port, user: server.user, password: server.password, database: 'shop' }).execute(null, 'SELECT 1'))[0]!.database).toBe('shop');
  });

  it('lists the databases and tables the mysql client lists', async () => {
    const dbs = await server.cli('SHOW DATABASES');
    expect(await src.listDatabases()).toEqual(dbs.rows.map((r) => r[0]));
    expect(await src.listDatabases()).toEqual(expect.arrayContaining(['information_schema', 'mysql', 'shop']));
    const tables = await server.cli('SHOW TABLES', { database: 'shop' });
    expect(await src.listTables('shop')).toEqual(tables.rows.map((r) => r[0]));
    expect(await src.listTables('shop')).toEqual(['customers', 'orders']);
    expect((await failure(src.listTables('nope'))).toString()).toBe("ERROR 1049 (42000): Unknown database 'nope'");
  });

  it('describes a table as DESCRIBE does, with defaults as SQL expressions', async () => {
    const cols = await src.describeTable('shop', 'orders');
    const described = await server.cli('DESCRIBE orders', { database: 'shop' });
    expect(cols.map((c) => [c.name, c.mysqlType, c.nullable ? 'YES' : 'NO'])).toEqual(described.rows.map((r) => [r[0], r[1], r[2]]));
    // Golden values from MariaDB 10.11 (information_schema.COLUMNS).
    expect(cols.map((c) => [c.name, c.baseType, c.args, c.unsigned, c.defaultExpr, c.autoIncrement, c.onUpdateNow, c.comment ?? null])).toEqual([
      ['id', 'bigint', ['20'], true, null, true, false, null],
      ['customer_id', 'int', ['11'], false, null, false, false, null],
      ['amount', 'decimal', ['10', '2'], false, '0.00', false, false, null],
      ['status', 'enum', ["'new'", "'paid, late'"], false, "'new'", false, false, null],
      ['placed', 'datetime', [], false, 'current_timestamp()', false, true, null],
      ['note', 'text', [], false, null, false, false, 'free text'],
    ]);
    expect(String(await failure(src.describeTable('shop', 'nope')))).toBe("ERROR 1146 (42S02): Table 'shop.nope' doesn't exist");
  });

  it('shows DATETIME, DECIMAL and BIGINT values as the mysql client prints them, exact beyond 2^53', async () => {
    const setup = `CREATE TABLE shop.kinds (id BIGINT PRIMARY KEY, at DATETIME, at6 DATETIME(6), ts TIMESTAMP NULL, d DATE, t TIME, price DECIMAL(12,2), ratio DECIMAL(30,10), big BIGINT UNSIGNED, f DOUBLE, doc JSON, bin VARBINARY(8), flag BIT(4));
      INSERT INTO shop.kinds VALUES
        (1, '2024-01-02 03:04:05', '2024-01-02 03:04:05.123456', '2024-02-29 23:59:59', '2024-01-02', '-01:02:03', 12.5, 0.1, 42, 1.5, '{"a": 1,  "b": [1, 2]}', 'ab', b'0101'),
        (9007199254740993, '0000-00-00 00:00:00', NULL, NULL, NULL, '838:59:59', -99999.99, 12345678901234567890.0123456789, 18446744073709551615, -0.25, NULL, NULL, NULL),
        (-9223372036854775808, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`;
    await src.execute(null, "SET SESSION sql_mode = ''; " + setup);
    const [r] = await src.execute('shop', 'SELECT * FROM kinds ORDER BY id');
    const printed = (await server.cli('SELECT * FROM kinds ORDER BY id', { database: 'shop' })).rows;
    const asText = (v: unknown) => (v === null ? 'NULL' : String(v));
    // Every value but the bytes is the client's text (bytes are shown as hex, as the embedded source does).
    const textual = r!.columns.map((c, i) => i).filter((i) => !['bin', 'flag'].includes(r!.columns[i]!));
    expect(r!.rows.map((row) => textual.map((i) => asText(row[i])))).toEqual(printed.map((row) => textual.map((i) => row[i])));
    expect(r!.rows[0]).toEqual(['-9223372036854775808', null, null, null, null, null, null, null, null, null, null, null, null]);
    expect(r!.rows[1]).toEqual([1, '2024-01-02 03:04:05', '2024-01-02 03:04:05.123456', '2024-02-29 23:59:59', '2024-01-02', '-01:02:03', '12.50', '0.1000000000', 42, 1.5, '{"a": 1,  "b": [1, 2]}', '6162', '05']);
    expect(r!.rows[2]).toEqual(['9007199254740993', '0000-00-00 00:00:00', null, null, null, '838:59:59', '-99999.99', '12345678901234567890.0123456789', '18446744073709551615', -0.25, null, null, null]);
    // What the host sends the renderer is JSON: nothing may be lost on the way.
    expect(JSON.parse(JSON.stringify(r!.rows))).toEqual(r!.rows);
  });

  it('counts affected rows as the mysql client does: an UPDATE that changes nothing affects 0 rows', async () => {
    await src.execute('shop', "INSERT INTO customers (email) VALUES ('same@example.com')");
    const [same, changed] = await src.execute('shop', "UPDATE customers SET email = 'same@example.com' WHERE email = 'same@example.com'; UPDATE customers SET email = 'new@example.com' WHERE email = 'same@example.com'");
    const client = await server.cli("UPDATE customers SET email = 'new@example.com' WHERE email = 'new@example.com'; SELECT ROW_COUNT()", { database: 'shop' });
    expect([same!.affectedRows, changed!.affectedRows]).toEqual([Number(client.rows[0]![0]), 1]);
    expect(same!.affectedRows).toBe(0);
  });

  describe("server errors keep MySQL's errno, SQLSTATE and the server's exact text", () => {
    /** The error line the mysql client prints for the same statement, without its " at line N". */
    const clientSays = async (sql: string, o: { database?: string; password?: string } = {}) =>
      ((await server.cli(sql, o)).stderr.split('\n').find((l) => l.startsWith('ERROR ')) ?? '').replace(/ at line \d+:/, ':');

    it.each([
      ['duplicate key', "INSERT INTO customers (id, email) VALUES (1, 'dup@example.com')", 1062, '23000', "Duplicate entry '1' for key 'PRIMARY'"],
      ['duplicate unique key', "INSERT INTO customers (email) VALUES ('a@example.com')", 1062, '23000', "Duplicate entry 'a@example.com' for key 'uq_email'"],
      ['unknown table', 'SELECT * FROM nope', 1146, '42S02', "Table 'shop.nope' doesn't exist"],
      ['syntax', 'SELEC * FROM customers', 1064, '42000', "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near 'SELEC * FROM customers' at line 1"],
      ['unknown column', 'SELECT nope FROM customers', 1054, '42S22', "Unknown column 'nope' in 'SELECT'"],
    ])('%s', async (_what, sql, errno, sqlState, message) => {
      const e = await failure(src.execute('shop', sql));
      expect(e.toJSON()).toEqual({ errno, sqlState, message, text: `ERROR ${errno} (${sqlState}): ${message}` });
      expect(String(e)).toBe(await clientSays(sql, { database: 'shop' }));
    });

    it('a wrong password is 1045 access denied', async () => {
      const bad = new RemoteSource({ host: server.host, port: server.port, user: server.user, password: 'not-the-password' });
      const e = await failure(bad.execute(null, 'SELECT 1'));
      expect(e.toJSON()).toEqual({ errno: 1045, sqlState: '28000', message: "Access denied for user 'loupe'@'127.0.0.1' (using password: YES)", text: "ERROR 1045 (28000): Access denied for user 'loupe'@'127.0.0.1' (using password: YES)" });
      expect(String(e)).toBe(await clientSays('SELECT 1', { password: 'not-the-password' }));
    });

    it('an unknown database to start in is 1049', async () => {
      expect(String(await failure(src.execute('nodb', 'SELECT 1')))).toBe("ERROR 1049 (42000): Unknown database 'nodb'");
      expect(String(await failure(src.execute(null, 'USE nodb')))).toBe(await clientSays('USE nodb'));
    });

    it('an error in the middle of a script stops it there: the statements before it stay done, the ones after never run', async () => {
      const e = await failure(src.execute('shop', "INSERT INTO customers (email) VALUES ('before@example.com'); INSERT INTO customers (id, email) VALUES (1, 'x'); INSERT INTO customers (email) VALUES ('after@example.com')"));
      expect(String(e)).toBe("ERROR 1062 (23000): Duplicate entry '1' for key 'PRIMARY'");
      const [r] = await src.execute('shop', "SELECT email FROM customers WHERE email IN ('before@example.com', 'after@example.com')");
      expect(r!.rows).toEqual([['before@example.com']]);
    });

    it('a script of only comments is 1065 Query was empty', async () => {
      expect(String(await failure(src.execute('shop', '-- nothing\n/* here */ ;')))).toBe('ERROR 1065 (42000): Query was empty');
    });
  });

  it("shows each result set of a procedure's CALL, then its OK", async () => {
    await src.execute('shop', 'CREATE PROCEDURE two_counts() SELECT COUNT(*) AS n FROM customers');
    const results = await src.execute('shop', 'CALL two_counts(); SELECT 1 AS after_call');
    expect(results.map((r) => [r.sql, r.kind, r.columns])).toEqual([
      ['CALL two_counts()', 'rows', ['n']],
      ['CALL two_counts()', 'ok', []],
      ['SELECT 1 AS after_call', 'rows', ['after_call']],
    ]);
    const [count] = await src.execute('shop', 'SELECT COUNT(*) FROM customers');
    expect(results[0]!.rows).toEqual(count!.rows);
  });

  it('a statement whose connection the server kills is ERROR 2013, and the next call works', async () => {
    const running = failure(src.execute('shop', 'SELECT SLEEP(20)'));
    const deadline = Date.now() + 10_000;
    let id: string | undefined;
    while (!id && Date.now() < deadline) {
      id = (await server.cli("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(20)'")).rows[0]?.[0];
      if (!id) await new Promise((r) => setTimeout(r, 50));
    }
    expect(id).toBeDefined();
    await server.cli(`KILL CONNECTION ${id}`);
    const e = await running;
    // The server either says so (1927 Connection was killed) or just closes the socket (2013).
    expect([1927, 2013]).toContain(e.errno);
    if (e.errno === 2013) expect(e.message).toBe('Lost connection to MySQL server during query');
    expect((await src.execute('shop', 'SELECT 1'))[0]!.rows).toEqual([[1]]);
  });
});
