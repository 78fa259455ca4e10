/**
 * The change log keeps its newest transactions parsed (Binlog's recent cache): what a reader gets
 * from it must be what the same log gives once reopened from its files, where every transaction
 * is parsed from its line — for plain rows and for the values a JSON round trip changes (-0,
 * integers beyond 2^53, a bigint rowid, nested values) and schema changes, which are not kept.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Binlog } from './binlog.js';
import type { BinlogTransaction, Row, RowChange, RowValue } from './types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

type Stored = Omit<BinlogTransaction, 'file' | 'pos' | 'nextPos'>;
const tx = (seq: number, events: RowChange[], extra: Partial<Stored> = {}): Stored => ({ seq, gtid: `u:${seq}`, ts: 1_700_000_000_000 + seq, thread: 3, database: 'demo', query: `q${seq}`, events, ...extra });
// (a nested value or a boolean is no RowValue; the log is checked not to trust that)
const row = (id: number, v: unknown): Row => ({ id, v: v as RowValue });

describe('the change log’s recent transactions', () => {
  it('read back as the log reopened from its files reads them', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-binlog-recent-'));
    dirs.push(dir);
    const log = new Binlog(dir, 'u');
    const written = [
      tx(1, [{ table: 't', op: 'c', rowid: 1, before: null, after: row(1, 'a') }]),
      tx(2, [{ table: 't', op: 'u', rowid: 1, before: row(1, 'a'), after: row(1, 2.5) }, { table: 't', op: 'c', rowid: 2, before: null, after: row(2, null) }]),
      tx(3, [{ table: 't', op: 'c', rowid: 3, before: null, after: row(3, -0) }]),
      tx(4, [{ table: 't', op: 'c', rowid: 4, before: null, after: row(4, 12345678901234567890n) }]),
      tx(5, [{ table: 't', op: 'c', rowid: 9007199254740993n, before: null, after: row(5, 'x') }]),
      tx(6, [{ table: 't', op: 'c', rowid: 6, before: null, after: row(6, 9007199254740994) }]),
      tx(7, [{ table: 't', op: 'c', rowid: 7, before: null, after: row(7, { nested: [1, 'two'] }) }]),
      tx(8, [], { ddl: { mysql: 'ALTER TABLE t ADD c INT', sqlite: [], table: 't', kind: 'alter-table' } }),
      tx(9, [{ table: 't', op: 'd', rowid: 2, before: row(2, null), after: null }], { cascaded: [{ table: 'u', op: 'd', rowid: 5, before: row(5, true), after: null, at: 0 }] }),
      tx(10, [{ table: 't', op: 'c', rowid: 10, before: null, after: row(10, 'ü €') }]),
    ];
    for (const t of written) log.append(t);
    const fromMemory = log.read({ file: '', pos: 0 }, 100);
    // a read from the middle, and one that stops short
    const middle = log.read({ file: fromMemory[4]!.file, pos: fromMemory[4]!.pos }, 3);
    log.close();
    const reopened = new Binlog(dir, 'u');
    const fromFile = reopened.read({ file: '', pos: 0 }, 100);
    reopened.close();
    expect(fromFile).toHaveLength(written.length);
    expect(fromMemory).toEqual(fromFile);
    expect(middle).toEqual(fromFile.slice(4, 7));
    // -0 reads back as 0 from the line, and so from memory too (toEqual tells them apart)
    expect(Object.is(fromMemory[2]!.events[0]!.after!.v, 0)).toBe(true);
    expect(fromMemory[3]!.events[0]!.after!.v).toBe(12345678901234567890n);
    expect(typeof fromMemory[5]!.events[0]!.after!.v).toBe(typeof fromFile[5]!.events[0]!.after!.v);
  });
});
