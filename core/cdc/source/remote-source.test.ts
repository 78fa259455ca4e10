/**
 * No MySQL server runs here; these tests cover what needs none: a refused connection reported as
 * the mysql client does, and server errors keeping MySQL's errno/SQLSTATE/text.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { RemoteSource, toMySqlError } from './remote-source.js';

describe('remote MySQL source (mysql2)', () => {
  it('a refused connection is ERROR 2003 naming the server', async () => {
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as net.AddressInfo).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const src = new RemoteSource({ host: '127.0.0.1', port, user: 'root', connectTimeoutMs: 2000 });
    await expect(src.execute('demo', 'SELECT 1')).rejects.toThrow(`Can't connect to MySQL server on '127.0.0.1:${port}' (ECONNREFUSED)`);
    try {
      await src.listDatabases();
    } catch (err) {
      expect(String(err)).toBe(`ERROR 2003 (HY000): Can't connect to MySQL server on '127.0.0.1:${port}' (ECONNREFUSED)`);
    }
  });

  it('server errors keep MySQL\'s numbers and text', () => {
    const e = toMySqlError({ errno: 1146, sqlState: '42S02', sqlMessage: "Table 'shop.nope' doesn't exist", code: 'ER_NO_SUCH_TABLE' }, 'db:3306');
    expect(String(e)).toBe("ERROR 1146 (42S02): Table 'shop.nope' doesn't exist");
  });
});
