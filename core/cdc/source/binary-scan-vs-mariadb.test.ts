/**
 * The snapshot's scan reads a BINARY, VARBINARY or BLOB column as the change log's row images
 * have it, the hex of its bytes (createTriggers logs hex(col)), also where a string was written
 * to it, which SQLite keeps as text: the connector reads both as hex, so the snapshot and the
 * stream must agree. The bytes are MariaDB's HEX() of the same rows (skipped without mariadbd,
 * failing under CI=true).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsistentRead } from './consistent-read.js';
import { EmbeddedSource } from './embedded-source.js';
import { mariadbTests } from './testing/mariadb-server.js';
import { sideBySide } from './testing/side-by-side.test-util.js';

// full-width values only: the embedded source does not pad BINARY(n) with zero bytes as MySQL does
const SETUP =
  "CREATE TABLE d (id INT PRIMARY KEY, f BINARY(2) DEFAULT _binary'ab', g VARBINARY(3) DEFAULT 'cd', b BLOB); " +
  "INSERT INTO d (id) VALUES (1); INSERT INTO d VALUES (2, 'ab', 'cd', 'xyz'), (3, X'0001', _binary'\\0z', X'00FF'), (4, 'é', '', 'it''s')";
const HEX = [
  { id: 1, f: '6162', g: '6364', b: null },
  { id: 2, f: '6162', g: '6364', b: '78797A' },
  { id: 3, f: '0001', g: '007A', b: '00FF' },
  { id: 4, f: 'C3A9', g: '', b: '69742773' },
];

const open: { src: EmbeddedSource; dir: string }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.src.close();
    fs.rmSync(o.dir, { recursive: true, force: true });
  }
});

describe('a binary column in the snapshot scan', () => {
  it('is the hex of its bytes, as in the change log’s row images, whether written as a string, a hexadecimal literal or a DEFAULT', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-binary-scan-'));
    const src = await EmbeddedSource.open({ dir, seedDemo: false });
    open.push({ src, dir });
    src.executeSync(null, 'CREATE DATABASE bn');
    const start = src.position();
    src.executeSync('bn', SETUP);
    const images = src.readTransactions(start, 100).flatMap((tx) => tx.events.map((e) => e.after));
    expect(src.scan('bn', 'd', 0, 100).map((r) => r.row)).toEqual(HEX);
    expect(images).toEqual(HEX);
    // and through the consistent read, whose rows changed since come from the change log
    const at = src.position();
    const read = new ConsistentRead(src, at, src.tableDefsAt(at));
    src.executeSync('bn', "UPDATE d SET f = 'zz' WHERE id = 2");
    expect(read.scan('bn', 'd', 0, 100).map((r) => r.row)).toEqual(HEX);
  });
});

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`a binary column's scan is the real server's bytes${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('binary-scan', `CREATE DATABASE bn; USE bn; ${SETUP}`);
  it("is HEX() of the server's column", async () => {
    const server = (await pair.real.execute('bn', 'SELECT id, HEX(f), HEX(g), HEX(b) FROM d ORDER BY id')).at(-1)!.rows;
    const scanned = pair.embedded.scan('bn', 'd', 0, 100).map((r) => [r.row.id, r.row.f, r.row.g, r.row.b]);
    expect(scanned).toEqual(server);
  });
});
