/**
 * A binary column's bytes are the same in the snapshot's `r` events and in the streamed events:
 * the snapshot reads the source's scan and the stream its change log, and a string stored in a
 * BINARY, VARBINARY or BLOB column must come out of both as its bytes (MySQL: HEX(f) of
 * BINARY(2) DEFAULT _binary'ab' is 6162, so Debezium sends YWI= in bytes mode, 6162 in hex mode).
 */
import { describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../plugin.js';
import { base, drain, source, task } from './task-harness.test-util.js';

type Env = { op: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null };
const env = (r: SourceRecord) => r.value as Env;

const TABLE = "CREATE TABLE d (id INT PRIMARY KEY, f BINARY(2) DEFAULT _binary'ab', g VARBINARY(3) DEFAULT 'cd', b BLOB)";
/** The same values for ids 1–3 before the snapshot and 11–13 after it. */
const rows = (id: number) => `INSERT INTO d (id) VALUES (${id}); INSERT INTO d VALUES (${id + 1}, 'ab', 'cd', 'xyz'), (${id + 2}, X'0001', _binary'\\0z', X'00FF')`;

describe('binary columns in the snapshot and the stream', () => {
  for (const [mode, expected] of [
    ['bytes', [['YWI=', 'Y2Q=', null], ['YWI=', 'Y2Q=', 'eHl6'], ['AAE=', 'AHo=', 'AP8=']]],
    ['hex', [['6162', '6364', null], ['6162', '6364', '78797a'], ['0001', '007a', '00ff']]],
  ] as const) {
    it(`a string written to a binary column is the same bytes in the r event and in the c event (binary.handling.mode=${mode})`, async () => {
      const src = await source();
      src.executeSync('demo', `${TABLE}; ${rows(1)}`);
      const t = await task(src, { ...base, 'table.include.list': 'demo.d', 'include.schema.changes': 'false', 'binary.handling.mode': mode });
      const snapshot = await drain(t);
      src.executeSync('demo', rows(11));
      const streamed = await drain(t);
      const values = (rs: SourceRecord[], op: string) => rs.filter((r) => env(r).op === op).map((r) => [env(r).after!.f, env(r).after!.g, env(r).after!.b]);
      expect(values(snapshot, 'r')).toEqual(expected);
      expect(values(streamed, 'c')).toEqual(expected);
    });
  }

  it('rows read from the table and a row changed while the snapshot reads (sent as it was, from the change log) carry the same bytes', async () => {
    const src = await source();
    src.executeSync('demo', `${TABLE}; ${rows(1)}`);
    const t = await task(src, { ...base, 'table.include.list': 'demo.d', 'include.schema.changes': 'false', 'snapshot.fetch.size': '1' });
    const first = await t.poll();
    src.executeSync('demo', "UPDATE d SET f = 'zz', g = 'zz', b = 'zz' WHERE id = 2");
    const recs = [...first, ...(await drain(t))];
    // rows 1 and 3 come from the table, row 2 from the change log's image before the update
    const read = recs.filter((x) => env(x).op === 'r').map((x) => env(x).after);
    const u = recs.find((x) => env(x).op === 'u')!;
    expect(read).toEqual([
      { id: 1, f: 'YWI=', g: 'Y2Q=', b: null },
      { id: 2, f: 'YWI=', g: 'Y2Q=', b: 'eHl6' },
      { id: 3, f: 'AAE=', g: 'AHo=', b: 'AP8=' },
    ]);
    expect(env(u).before).toEqual(read[1]);
    expect(env(u).after).toEqual({ id: 2, f: 'eno=', g: 'eno=', b: 'eno=' });
  });
});
