/**
 * Multi-table and aliased UPDATE/DELETE: the embedded source's change log beside the binary log
 * of a private MariaDB (binlog_format=ROW, decoded by mariadb-binlog) for the same statements,
 * and the affected rows beside the server's. Skipped without mariadbd (failing under CI=true).
 *
 * MySQL's rules (sql_update.cc multi_update, sql_delete.cc multi_delete): a row the join matches
 * several times is changed once; the rows of each table are changed table by table; a
 * multi-table UPDATE's affected rows are the rows changed in all its tables, a multi-table
 * DELETE's the rows deleted from all of them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSource } from './embedded-source.js';
import { RemoteSource } from './remote-source.js';
import { binlogPosition, readRowEvents } from './testing/mariadb-binlog.js';
import { findMariaDbBinlog, mariadbTests, startMariaDb, type MariaDbServer } from './testing/mariadb-server.js';
import type { Row } from './types.js';

const SCRIPT: { what: string; sql: string }[] = [
  { what: 'two tables', sql: "CREATE TABLE c (id INT PRIMARY KEY, name VARCHAR(10), n INT); CREATE TABLE o (oid INT PRIMARY KEY, cid INT, x VARCHAR(5) DEFAULT 'dd'); INSERT INTO c VALUES (1, 'a', 0), (2, 'b', 0), (3, 'c', 0); INSERT INTO o VALUES (10, 1, 'p'), (11, 1, 'q'), (12, 2, 'r'), (13, 9, 's')" },
  { what: 'an UPDATE with an alias', sql: "UPDATE c AS k SET k.name = 'aa' WHERE k.id = 1" },
  { what: 'an UPDATE with an alias, ORDER BY and LIMIT', sql: 'UPDATE c k SET k.n = k.n + 1 ORDER BY k.id LIMIT 2' },
  { what: 'a join updating one table: a row matched twice is changed once', sql: 'UPDATE c JOIN o ON o.cid = c.id SET c.n = c.n + 10' },
  { what: 'a join updating both tables', sql: "UPDATE c k JOIN o ON o.cid = k.id SET k.name = CONCAT(k.name, '!'), o.x = UPPER(o.x) WHERE k.id <= 2" },
  { what: 'the old comma join, a column of the other table as the value', sql: 'UPDATE o, c SET o.x = c.name WHERE o.cid = c.id AND c.id = 2' },
  { what: 'rows left as they were are not counted', sql: 'UPDATE c JOIN o ON o.cid = c.id SET c.n = c.n, o.x = o.x' },
  { what: 'SET … = DEFAULT in a join', sql: 'UPDATE c JOIN o ON o.cid = c.id SET o.x = DEFAULT WHERE c.id = 1' },
  { what: 'a LEFT JOIN update of the rows without a match', sql: 'UPDATE c LEFT JOIN o ON o.cid = c.id SET c.n = 99 WHERE o.oid IS NULL' },
  { what: 'DELETE t FROM t AS alias', sql: 'DELETE k FROM c AS k WHERE k.id = 3' },
  { what: 'the single-table DELETE with the multi-table syntax', sql: "INSERT INTO c VALUES (4, 'd', 0), (5, 'e', 0); DELETE c FROM c WHERE c.id = 5" },
  { what: 'DELETE of two tables', sql: 'DELETE k, o FROM c AS k JOIN o ON o.cid = k.id WHERE k.id = 1' },
  { what: 'DELETE … USING', sql: 'DELETE FROM o USING o LEFT JOIN c ON c.id = o.cid WHERE c.id IS NULL' },
  // (which table MySQL changes first is its optimizer's join order; these name one table each)
  { what: 'in a transaction', sql: "BEGIN; UPDATE c JOIN o ON o.cid = c.id SET c.name = 'tx' WHERE c.id = 2; DELETE o.* FROM c, o WHERE o.cid = c.id AND c.id = 2; COMMIT" },
];

const mariadb = mariadbTests();
const tool = findMariaDbBinlog();
// mariadb-client comes with mariadb-server: missing it is a skip only where the server would be one
const skip = mariadb.skip || ('missing' in tool && !/^(true|1|yes)$/i.test(process.env.CI ?? ''));
const reason = mariadb.reason || ('missing' in tool ? `skipped: ${tool.missing}` : '');
if (skip) console.warn(`multi-table-dml-vs-mariadb.test.ts: ${reason}`);

/** A value as mariadb-binlog prints it (the test tables hold only INT, VARCHAR and NULL). */
const printed = (v: unknown) => (v === null || v === undefined ? 'NULL' : typeof v === 'string' ? `'${v}'` : String(v));
const describeEvent = (e: { op: string; table: string; before: string[] | null; after: string[] | null }) => `${e.op} ${e.table} ${e.before ? `(${e.before.join(', ')})` : '-'} → ${e.after ? `(${e.after.join(', ')})` : '-'}`;

describe.skipIf(skip)(`multi-table UPDATE and DELETE write the row events MariaDB writes${reason ? ` (${reason})` : ''}`, () => {
  let server: MariaDbServer;
  let real: RemoteSource;
  let embedded: EmbeddedSource;
  let dir: string;

  beforeAll(async () => {
    server = await startMariaDb({ binlog: true });
    real = new RemoteSource({ host: server.host, port: server.port, user: server.user, password: server.password });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-multi-vs-'));
    // no snapshot while the script runs: reopening replays the whole change log
    embedded = await EmbeddedSource.open({ dir, seedDemo: false, snapshotEvery: 1_000_000 });
    await real.execute(null, 'CREATE DATABASE mt');
    await embedded.execute(null, 'CREATE DATABASE mt');
  }, 90_000);

  afterAll(async () => {
    await embedded?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const step of SCRIPT) {
    it(`${step.what}: ${step.sql}`, async () => {
      if ('missing' in tool) throw new Error(tool.missing);
      const fromReal = await binlogPosition(server);
      const realAffected = (await real.execute('mt', step.sql)).map((r) => r.affectedRows);
      const realEvents = (await readRowEvents(tool.binlog, server, fromReal)).map(describeEvent);

      const fromEmbedded = embedded.position();
      const embeddedAffected = (await embedded.execute('mt', step.sql)).map((r) => r.affectedRows);
      // in column order, as the binary log has them
      const values = (table: string, row: Row | null) => (row ? embedded.tableDef('mt', table)!.columns.map((c) => printed(row[c.name])) : null);
      const embeddedEvents = embedded.readTransactions(fromEmbedded, 100).flatMap((tx) => tx.events.map((e) => describeEvent({ op: e.op, table: e.table, before: values(e.table, e.before), after: values(e.table, e.after) })));

      expect(embeddedEvents).toEqual(realEvents);
      expect(embeddedAffected).toEqual(realAffected);
    });
  }

  it('both hold the same rows, and so does the embedded source rebuilt from its change log', async () => {
    const dump = 'SELECT * FROM c ORDER BY id; SELECT * FROM o ORDER BY oid';
    const rows = async (src: { execute: EmbeddedSource['execute'] }) => (await src.execute('mt', dump)).map((r) => r.rows);
    const expected = await rows(real);
    expect(await rows(embedded)).toEqual(expected);
    const reopened = await EmbeddedSource.open({ dir, seedDemo: false });
    try {
      expect(await rows(reopened)).toEqual(expected);
    } finally {
      await reopened.close();
    }
  });
});
