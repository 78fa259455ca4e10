/**
 * A script run on the embedded source and on a private MariaDB (binlog_format=ROW, its binary
 * log decoded by mariadb-binlog), statement by statement: each step's row events and affected
 * rows must be the server's, and at the end both hold the same rows, as does the embedded source
 * rebuilt from its change log. Skipped without mariadbd (failing under CI=true, which installs
 * mariadb-server and with it mariadb-client's mariadb-binlog).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSource } from '../embedded-source.js';
import { RemoteSource } from '../remote-source.js';
import { storeKind } from '../column-values.js';
import type { ColumnDef } from '../mysql-ddl.js';
import type { Row } from '../types.js';
import { binlogPosition, readRowEvents } from './mariadb-binlog.js';
import { findMariaDbBinlog, mariadbTests, startMariaDb, type MariaDbServer } from './mariadb-server.js';

export interface BinlogComparison {
  /** What the suite shows, e.g. "REPLACE writes the row events MariaDB writes". */
  title: string;
  /** The test file, for the skip notice. */
  file: string;
  database: string;
  script: { what: string; sql: string }[];
  /** SELECTs whose rows both must hold at the end. */
  dump: string;
}

/**
 * A value as mariadb-binlog prints it (the test tables hold INT, DECIMAL, VARCHAR, DATE, DATETIME,
 * TIME, SET, binary strings and NULL): a DECIMAL's digits unquoted, a DATE as 'YYYY:MM:DD', a tab
 * as \x09, a SET as its bits, a BINARY, VARBINARY or BLOB as its bytes (0x00 as \x00).
 */
function printed(v: unknown, c: ColumnDef): string {
  if (v === null || v === undefined) return 'NULL';
  const store = storeKind(c);
  const kind = store.kind;
  // a SET as its bits, a byte for each eight members
  if (store.kind === 'set' && typeof v === 'string') {
    const held = new Set(v ? v.split(',') : []);
    const bits = store.members.reduce((n, m, i) => (held.has(m) ? n | (1n << BigInt(i)) : n), 0n);
    return `b'${bits.toString(2).padStart(8 * Math.max(1, Math.ceil(store.members.length / 8)), '0')}'`;
  }
  if (typeof v !== 'string' || kind === 'decimal') return String(v);
  // a binary string's image is the hex of its bytes; mariadb-binlog prints the bytes themselves,
  // a BINARY(n)'s without the 0x00 bytes that pad it (the row image leaves them out)
  const bytes = store.kind === 'binary' ? Buffer.from(v, 'hex').toString('utf8') : v;
  const text = store.kind === 'binary' && store.pad ? bytes.replace(/\0+$/, '') : bytes;
  // mariadb-binlog prints a control character as \xNN
  const escaped = [...text].map((c) => (c.charCodeAt(0) < 32 ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join('');
  return `'${kind === 'date' ? v.replace(/-/g, ':') : escaped}'`;
}
const describeEvent = (e: { op: string; table: string; before: string[] | null; after: string[] | null }) => `${e.op} ${e.table} ${e.before ? `(${e.before.join(', ')})` : '-'} → ${e.after ? `(${e.after.join(', ')})` : '-'}`;

export function compareBinlogWithMariaDb({ title, file, database, script, dump }: BinlogComparison): void {
  const mariadb = mariadbTests();
  const tool = findMariaDbBinlog();
  // mariadb-client comes with mariadb-server: missing it is a skip only where the server would be one
  const skip = mariadb.skip || ('missing' in tool && !/^(true|1|yes)$/i.test(process.env.CI ?? ''));
  const reason = mariadb.reason || ('missing' in tool ? `skipped: ${tool.missing}` : '');
  if (skip) console.warn(`${file}: ${reason}`);

  describe.skipIf(skip)(`${title}${reason ? ` (${reason})` : ''}`, () => {
    let server: MariaDbServer;
    let real: RemoteSource;
    let embedded: EmbeddedSource;
    let dir: string;

    beforeAll(async () => {
      server = await startMariaDb({ binlog: true });
      real = new RemoteSource({ host: server.host, port: server.port, user: server.user, password: server.password });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), `loupe-${database}-vs-`));
      // no snapshot while the script runs: reopening replays the whole change log
      embedded = await EmbeddedSource.open({ dir, seedDemo: false, snapshotEvery: 1_000_000 });
      await real.execute(null, `CREATE DATABASE ${database}`);
      await embedded.execute(null, `CREATE DATABASE ${database}`);
    }, 90_000);

    afterAll(async () => {
      await embedded?.close();
      await server?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    for (const step of script) {
      it(`${step.what}: ${step.sql}`, async () => {
        if ('missing' in tool) throw new Error(tool.missing);
        const fromReal = await binlogPosition(server);
        const realAffected = (await real.execute(database, step.sql)).map((r) => r.affectedRows);
        const realEvents = (await readRowEvents(tool.binlog, server, fromReal)).map(describeEvent);

        const fromEmbedded = embedded.position();
        const embeddedAffected = (await embedded.execute(database, step.sql)).map((r) => r.affectedRows);
        // in column order, as the binary log has them
        const values = (table: string, row: Row | null) => (row ? embedded.tableDef(database, table)!.columns.map((c) => printed(row[c.name], c)) : null);
        const embeddedEvents = embedded.readTransactions(fromEmbedded, 100).flatMap((tx) => tx.events.map((e) => describeEvent({ op: e.op, table: e.table, before: values(e.table, e.before), after: values(e.table, e.after) })));

        expect(embeddedEvents).toEqual(realEvents);
        expect(embeddedAffected).toEqual(realAffected);
      });
    }

    it('both hold the same rows, and so does the embedded source rebuilt from its change log', async () => {
      const rows = async (src: { execute: EmbeddedSource['execute'] }) => (await src.execute(database, dump)).map((r) => r.rows);
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
}
