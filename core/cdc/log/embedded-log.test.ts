import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedLog, lineText, parseLine, type StoredLine } from './embedded-log.js';
import { murmur2, partitionForKey } from './murmur2.js';

const dirs: string[] = [];
const logs: EmbeddedLog[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-log-'));
  dirs.push(d);
  return d;
}
async function open(dir: string, extra: Partial<Parameters<typeof EmbeddedLog.open>[0]> = {}): Promise<EmbeddedLog> {
  const l = await EmbeddedLog.open({ dir, retentionCheckMs: 0, ...extra });
  logs.push(l);
  return l;
}
afterEach(async () => {
  for (const l of logs.splice(0)) await l.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('embedded topic log', () => {
  it('keys land on the partition Kafka would choose (murmur2 golden values from Kafka UtilsTest)', () => {
    // org.apache.kafka.common.utils.UtilsTest#testMurmur2
    expect(murmur2(Buffer.from('21'))).toBe(-973932308);
    expect(murmur2(Buffer.from('foobar'))).toBe(-790332482);
    expect(murmur2(Buffer.from('a-little-bit-long-string'))).toBe(-985981536);
    expect(murmur2(Buffer.from('a-little-bit-longer-string'))).toBe(-1486304829);
    expect(murmur2(Buffer.from('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8'))).toBe(-58897971);
    expect(murmur2(Buffer.from('abc'))).toBe(479470107);
    expect(partitionForKey('abc', 3)).toBe(479470107 % 3);
  });

  it('keeps offsets, keys, headers, timestamps and tombstones across a restart', async () => {
    const dir = tmp();
    const a = await open(dir);
    await a.createTopic('t', { partitions: 2 });
    const res = await a.produce('t', [
      { key: '{"id":1}', value: '{"id":1,"name":"a"}', headers: [{ key: 'h', value: 'v' }], timestamp: 1000, partition: 0 },
      { key: '{"id":1}', value: null, timestamp: 1001, partition: 0 },
      { key: null, value: 'x', partition: 1, timestamp: 5 },
    ]);
    expect(res.map((r) => [r.partition, r.offset])).toEqual([[0, 0], [0, 1], [1, 0]]);
    await a.close();
    const b = await open(dir);
    const recs = await b.fetch('t', 0, 0);
    expect(recs).toEqual([
      { topic: 't', partition: 0, offset: 0, key: '{"id":1}', value: '{"id":1,"name":"a"}', headers: [{ key: 'h', value: 'v' }], timestamp: 1000 },
      { topic: 't', partition: 0, offset: 1, key: '{"id":1}', value: null, headers: [], timestamp: 1001 },
    ]);
    expect(await b.offsets('t', 1)).toEqual({ begin: 0, end: 1 });
    expect((await b.produce('t', [{ key: null, value: 'y', partition: 0 }]))[0]!.offset).toBe(2);
  });

  it('fetch honours max records and max bytes but always returns at least one record', async () => {
    const a = await open(tmp(), { segmentBytes: 200 });
    await a.produce('t', Array.from({ length: 50 }, (_, i) => ({ key: String(i), value: 'v'.repeat(20) + i, partition: 0 })));
    expect((await a.fetch('t', 0, 10, { maxRecords: 7 })).map((r) => r.offset)).toEqual([10, 11, 12, 13, 14, 15, 16]);
    expect((await a.fetch('t', 0, 0, { maxBytes: 1 })).length).toBe(1);
    const all = await a.fetch('t', 0, 0, { maxRecords: 1000 });
    expect(all.map((r) => r.offset)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(all[49]!.value).toBe('v'.repeat(20) + 49);
  });

  it('a torn last line (crash mid-write) is cut off on open and the offset reused', async () => {
    const dir = tmp();
    const a = await open(dir);
    await a.produce('t', [{ key: 'a', value: '1' }]);
    await a.close();
    const seg = path.join(dir, 'data', 't-0', '00000000000000000000.log');
    fs.appendFileSync(seg, '{"o":1,"t":1,"k":"b","v":"2');
    const b = await open(dir);
    expect(await b.offsets('t', 0)).toEqual({ begin: 0, end: 1 });
    await b.produce('t', [{ key: 'c', value: '3' }]);
    expect((await b.fetch('t', 0, 0)).map((r) => [r.offset, r.value])).toEqual([[0, '1'], [1, '3']]);
  });

  it('an atomic multi-topic write interrupted after its journal is completed on open', async () => {
    const dir = tmp();
    const a = await open(dir);
    await a.produceAtomic([
      { topic: 'data', records: [{ key: 'k', value: 'v0' }] },
      { topic: 'connect-offsets', records: [{ key: 'o', value: '0' }] },
    ]);
    await a.close();
    // Simulate a crash after the journal was written and only the first topic was appended.
    fs.writeFileSync(
      path.join(dir, 'txn.wal'),
      [
        JSON.stringify({ topic: 'data', partition: 0, o: 1, t: 1, k: 'k', v: 'v1' }),
        JSON.stringify({ topic: 'connect-offsets', partition: 0, o: 1, t: 1, k: 'o', v: '1' }),
      ].join('\n') + '\n',
    );
    fs.appendFileSync(path.join(dir, 'data', 'data-0', '00000000000000000000.log'), JSON.stringify({ o: 1, t: 1, k: 'k', v: 'v1' }) + '\n');
    const b = await open(dir);
    expect((await b.fetch('data', 0, 0)).map((r) => r.value)).toEqual(['v0', 'v1']);
    expect((await b.fetch('connect-offsets', 0, 0)).map((r) => r.value)).toEqual(['0', '1']);
    expect(fs.existsSync(path.join(dir, 'txn.wal'))).toBe(false);
    expect(await b.listTopics()).toEqual(['data']);
    expect(await b.listTopics({ includeInternal: true })).toEqual(['connect-offsets', 'data']);
  });

  it('an atomic write whose journal was torn before its end line is not replayed; the last complete one is', async () => {
    const dir = tmp();
    const a = await open(dir);
    await a.produceAtomic([
      { topic: 'data', records: [{ key: 'k', value: 'v0' }] },
      { topic: 'connect-offsets', records: [{ key: 'o', value: '0' }] },
    ]);
    // not closed: as after kill -9, the journal of that write is still in txn.wal
    const wal = fs.readFileSync(path.join(dir, 'txn.wal'), 'utf8').trim().split('\n');
    expect(JSON.parse(wal[0]!)).toEqual({ begin: 1 });
    expect(JSON.parse(wal.at(-1)!)).toEqual({ end: 1 });
    // a second write whose journal was cut off mid-way (the crash came before any segment append)
    fs.appendFileSync(path.join(dir, 'txn.wal'), [JSON.stringify({ begin: 2 }), JSON.stringify({ topic: 'data', partition: 0, o: 1, t: 1, k: 'k', v: 'torn' }), '{"topic":"connect-off'].join('\n'));
    const b = await open(dir);
    expect((await b.fetch('data', 0, 0)).map((r) => r.value)).toEqual(['v0']);
    expect((await b.fetch('connect-offsets', 0, 0)).map((r) => r.value)).toEqual(['0']);
    expect(fs.existsSync(path.join(dir, 'txn.wal'))).toBe(false);
  });

  it('records fetched from the in-memory tail are exactly what the segment files give (any offset, maxRecords, maxBytes, cache size)', async () => {
    const records = Array.from({ length: 300 }, (_, i) => ({
      key: i % 7 === 0 ? null : `{"id":${i}}`,
      value: i % 11 === 0 ? null : `{"name":"n${i} \\"q\\" é 😀\\n","v":${i * 1.5}}`,
      ...(i % 5 === 0 ? { headers: [{ key: 'h', value: `x${i}` }, { key: 'nul', value: null }] } : {}),
      timestamp: 1_700_000_000_000 + i,
      partition: i % 2,
    }));
    const grid = async (l: EmbeddedLog) => {
      const out: unknown[] = [];
      for (const partition of [0, 1])
        for (const from of [0, 1, 37, 120, 149, 150])
          for (const maxRecords of [1, 7, 500])
            for (const maxBytes of [1, 300, 4000, 1 << 20]) out.push(await l.fetch('t', partition, from, { maxRecords, maxBytes }));
      return out;
    };
    for (const tailCacheChars of [32 * 1024 * 1024, 3000]) {
      const dir = tmp();
      const a = await open(dir, { tailCacheChars, segmentBytes: 2048 });
      await a.createTopic('t', { partitions: 2 });
      for (let i = 0; i < records.length; i += 30) await a.produce('t', records.slice(i, i + 30));
      const cached = await grid(a);
      // a record's headers are its own: changing what one fetch returned does not change the next
      const [first] = await a.fetch('t', 0, 0);
      first!.headers.push({ key: 'added', value: 'by a consumer' });
      expect((await a.fetch('t', 0, 0))[0]!.headers).toEqual([{ key: 'h', value: 'x0' }, { key: 'nul', value: null }]);
      await a.close();
      const b = await open(dir, { tailCacheChars: 0, segmentBytes: 2048 });
      expect(cached).toEqual(await grid(b));
    }
  });

  it('the in-memory tails of all partitions together stay within tailCacheChars, and fetches stay whole', async () => {
    const dir = tmp();
    const budget = 20_000;
    const a = await open(dir, { tailCacheChars: budget });
    for (const topic of ['a', 'b', 'c']) await a.createTopic(topic, { partitions: 3 });
    const held = () => (a as unknown as { tailChars: number }).tailChars;
    for (let round = 0; round < 20; round++) {
      for (const topic of ['a', 'b', 'c']) {
        await a.produce(topic, Array.from({ length: 60 }, (_, i) => ({ key: `k${i}`, value: `${topic}-${round}-${i}-${'x'.repeat(i)}` })));
        expect(held()).toBeLessThanOrEqual(budget);
      }
    }
    expect(held()).toBeGreaterThan(budget / 4);
    for (const topic of ['a', 'b', 'c']) {
      let n = 0;
      for (let p = 0; p < 3; p++) n += (await a.fetch(topic, p, 0, { maxRecords: 10_000, maxBytes: 1 << 24 })).length;
      expect(n).toBe(20 * 60);
    }
    await a.deleteTopic('a');
    expect(held()).toBeLessThanOrEqual(budget);
  });

  it('a fetch stopped by maxBytes inside one segment returns what fits and nothing from the next segment', async () => {
    const dir = tmp();
    const a = await open(dir, { segmentBytes: 200, tailCacheChars: 0 });
    await a.produce('t', Array.from({ length: 20 }, (_, i) => ({ key: 'k', value: `value-${i}`, partition: 0 })));
    const got = await a.fetch('t', 0, 0, { maxRecords: 7, maxBytes: 100 });
    expect(got.length).toBeGreaterThan(0);
    expect(got.map((r) => r.offset)).toEqual(got.map((_, i) => i));
  });

  it('a segment line holds offset, timestamp and key length, a tab, then key and value as they are; JSON where a line cannot carry them', () => {
    const raw: [StoredLine, string][] = [
      [{ o: 5, t: 1500, k: 'k "q"\t', v: '{"a":"\\u2028\\t"}', h: [{ key: 'x y', value: null }] }, '5 1500 6 [{"key":"x y","value":null}]\tk "q"\t{"a":"\\u2028\\t"}'],
      [{ o: 7, t: -2, k: null, v: 'tab\there\r and "quotes" \\ 😀' }, '7 -2 -1\ttab\there\r and "quotes" \\ 😀'],
      [{ o: 8, t: 2, k: '{"id":1}', v: '' }, '8 2 8\t{"id":1}'],
      [{ o: 9, t: 2, k: '', v: '{"id":1}' }, '9 2 0\t{"id":1}'],
    ];
    for (const [l, text] of raw) {
      expect(lineText(l)).toBe(text);
      expect(parseLine(lineText(l))).toEqual(l);
    }
    // no headers and an empty list read back the same
    expect(parseLine(lineText({ o: 1, t: 1, k: 'a', v: 'b', h: [] }))).toEqual({ o: 1, t: 1, k: 'a', v: 'b' });
    // the null value, a line break, a lone surrogate, an offset or timestamp that is not a safe integer and a tombstone's horizon stay in the JSON, as every line of the first version was written
    const inJson: StoredLine[] = [
      { o: 0, t: 1, k: null, v: null },
      { o: 6, t: 1, k: 'k', v: 'two\nlines', h: [{ key: 'x', value: 'y' }] },
      { o: 6, t: 1, k: 'two\nlines', v: 'v' },
      { o: 2 ** 40, t: 3, k: '', v: '😀\ud800' },
      { o: 2 ** 40, t: NaN, k: '', v: 'v' },
      { o: 3, t: 1.5, k: '', v: 'v' },
      { o: 1, t: 2, k: undefined as unknown as null, v: 'v' },
      { o: 4, t: 2, k: 'k', v: 'v', d: 99 },
    ];
    for (const l of inJson) {
      expect(lineText(l)).toBe(JSON.stringify(l));
      expect(parseLine(lineText(l))).toEqual(JSON.parse(JSON.stringify(l)));
    }
    // the second version's form: the fields in JSON, a tab, then the value
    expect(parseLine('{"o":5,"t":1.5,"k":"k \\"q\\"","h":[{"key":"x","value":null}]}\t{"a":"\\t"}')).toEqual({ o: 5, t: 1.5, k: 'k "q"', v: '{"a":"\\t"}', h: [{ key: 'x', value: null }] });
    for (const bad of ['5 1\tv', '5 x 1\tv', ' 1 1\tv']) expect(() => parseLine(bad)).toThrow(SyntaxError);
  });

  it('reads segments written by earlier versions: every value in the JSON, or the fields in JSON then the value', async () => {
    const dir = tmp();
    const a = await open(dir);
    await a.produce('t', [{ key: 'a', value: '{"id":1}' }]);
    await a.close();
    const seg = path.join(dir, 'data', 't-0', '00000000000000000000.log');
    expect(fs.readFileSync(seg, 'utf8')).toMatch(/^0 \d+ 1\ta\{"id":1\}\n$/);
    fs.appendFileSync(seg, JSON.stringify({ o: 1, t: 1, k: 'b', v: '{"id":2}' }) + '\n');
    fs.appendFileSync(seg, '{"o":2,"t":1,"k":"c","h":[]}\t{"id":3}\n');
    const b = await open(dir);
    await b.produce('t', [{ key: 'd', value: 'line\nbreak' }]);
    expect((await b.fetch('t', 0, 0)).map((r) => [r.offset, r.key, r.value])).toEqual([
      [0, 'a', '{"id":1}'],
      [1, 'b', '{"id":2}'],
      [2, 'c', '{"id":3}'],
      [3, 'd', 'line\nbreak'],
    ]);
  });

  it('an atomic write killed after its records reached the segments but before its end line is rolled back whole, even across new segments', async () => {
    for (const segmentBytes of [64 * 1024 * 1024, 120]) {
      const dir = tmp();
      const a = await open(dir, { segmentBytes });
      await a.produceAtomic([
        { topic: 'data', records: [{ key: 'k', value: 'v0', partition: 0 }] },
        { topic: 'connect-offsets', records: [{ key: 'o', value: '0' }] },
      ]);
      await a.produceAtomic([
        { topic: 'data', records: Array.from({ length: 5 }, (_, i) => ({ key: 'k', value: `w${i}`, partition: 0 })) },
        { topic: 'connect-offsets', records: [{ key: 'o', value: '1' }] },
        { topic: 'fresh', records: [{ key: 'n', value: 'new topic' }] },
      ]);
      // not closed (kill -9), and the second write's end line never reached the journal
      const walFile = path.join(dir, 'txn.wal');
      const wal = fs.readFileSync(walFile, 'utf8').trim().split('\n');
      expect(JSON.parse(wal.at(-1)!)).toEqual({ end: 2 });
      // the journal holds where partitions ended, never the records
      expect(wal.some((l) => l.includes('w0'))).toBe(false);
      fs.writeFileSync(walFile, wal.slice(0, -1).join('\n') + '\n');
      if (segmentBytes < 1000) expect(fs.readdirSync(path.join(dir, 'data', 'data-0')).length).toBeGreaterThan(1);
      const b = await open(dir, { segmentBytes });
      expect((await b.fetch('data', 0, 0)).map((r) => r.value)).toEqual(['v0']);
      expect((await b.fetch('connect-offsets', 0, 0)).map((r) => r.value)).toEqual(['0']);
      expect(await b.offsets('fresh', 0)).toEqual({ begin: 0, end: 0 });
      expect(fs.existsSync(walFile)).toBe(false);
      // the offsets are reused and the log reads back whole after another reopen
      await b.produceAtomic([
        { topic: 'data', records: [{ key: 'k', value: 'again', partition: 0 }] },
        { topic: 'connect-offsets', records: [{ key: 'o', value: '1' }] },
      ]);
      await b.close();
      const c = await open(dir, { segmentBytes });
      expect((await c.fetch('data', 0, 0)).map((r) => [r.offset, r.value])).toEqual([
        [0, 'v0'],
        [1, 'again'],
      ]);
      expect((await c.fetch('connect-offsets', 0, 0)).map((r) => r.value)).toEqual(['0', '1']);
    }
  });

  it('committed offsets are appended per commit and survive a kill (no close); a torn last commit line is ignored', async () => {
    const dir = tmp();
    const a = await open(dir);
    await a.createTopic('t');
    await a.commitOffsets('g', [{ topic: 't', partition: 0, offset: 3 }]);
    await a.commitOffsets('g', [{ topic: 't', partition: 0, offset: 7 }]);
    await a.commitOffsets('h', [{ topic: 't', partition: 0, offset: 1 }]);
    await a.deleteGroup('h');
    fs.appendFileSync(path.join(dir, 'groups.log'), '{"group":"g","offsets":{"t:0":9');
    const b = await open(dir);
    expect(await b.committedOffsets('g')).toEqual([{ topic: 't', partition: 0, offset: 7 }]);
    expect(await b.listGroups()).toEqual(['g']);
    await b.commitOffsets('g', [{ topic: 't', partition: 0, offset: 8 }]);
    await b.close();
    const c = await open(dir);
    expect(await c.committedOffsets('g')).toEqual([{ topic: 't', partition: 0, offset: 8 }]);
  });

  it('waitForData resolves on the next append without polling, and false on timeout', async () => {
    const a = await open(tmp());
    await a.createTopic('t');
    const waiting = a.waitForData('t', 0, 0, 5000);
    setTimeout(() => void a.produce('t', [{ key: null, value: 'x' }]), 20);
    expect(await waiting).toBe(true);
    expect(await a.waitForData('t', 0, 1, 30)).toBe(false);
    const seen: number[] = [];
    const off = a.onAppend((_t, _p, end) => seen.push(end));
    await a.produce('t', [{ key: null, value: 'y' }]);
    off();
    await a.produce('t', [{ key: null, value: 'z' }]);
    expect(seen).toEqual([2]);
  });

  it('consumer groups keep committed offsets across a restart', async () => {
    const dir = tmp();
    const a = await open(dir);
    await a.commitOffsets('connect-sink', [{ topic: 'customers', partition: 0, offset: 42 }]);
    await a.close();
    const b = await open(dir);
    expect(await b.committedOffsets('connect-sink')).toEqual([{ topic: 'customers', partition: 0, offset: 42 }]);
    expect(await b.listGroups()).toEqual(['connect-sink']);
    expect(await b.deleteGroup('connect-sink')).toBe(true);
    expect(await b.committedOffsets('connect-sink')).toEqual([]);
  });

  it('retention deletes whole segments whose largest timestamp is older than retention.ms (strictly)', async () => {
    let now = 1_000_000;
    const a = await open(tmp(), { segmentBytes: 100, now: () => now });
    await a.createTopic('t', { retentionMs: 1000 });
    // each line is 94 bytes: one record per segment (the fresh one too)
    for (let i = 0; i < 10; i++) await a.produce('t', [{ key: null, value: 'x'.repeat(80) }]);
    now += 1000;
    await a.enforceRetention();
    expect((await a.offsets('t', 0)).begin).toBe(0); // now - largestTimestamp > retention.ms, not >=
    now += 4000;
    await a.produce('t', [{ key: null, value: 'fresh' }]);
    await a.enforceRetention();
    const { begin, end } = await a.offsets('t', 0);
    expect(end).toBe(11);
    expect(begin).toBe(10);
    expect((await a.fetch('t', 0, 0)).map((r) => r.offset)).toEqual([10]);
  });

  it('time retention empties an idle topic, active segment included (UnifiedLog.deleteSegments rolls first): offsets go on, also after a restart', async () => {
    let now = 1_000_000;
    const dir = tmp();
    const a = await open(dir, { now: () => now });
    await a.createTopic('t', { retentionMs: 1000 });
    await a.produce('t', [{ key: null, value: 'a' }, { key: null, value: 'b' }]);
    now += 1001;
    await a.enforceRetention();
    expect(await a.offsets('t', 0)).toEqual({ begin: 2, end: 2 });
    expect(await a.fetch('t', 0, 0)).toEqual([]);
    await expect(a.fetch('t', 0, 0, { outOfRange: 'error' })).rejects.toMatchObject({ code: 'OFFSET_OUT_OF_RANGE', message: 'Offsets out of range with no configured reset policy for partitions: {t-0=0}' });
    await expect(a.fetch('t', 0, 3, { outOfRange: 'error' })).rejects.toMatchObject({ code: 'OFFSET_OUT_OF_RANGE' });
    expect(await a.fetch('t', 0, 2, { outOfRange: 'error' })).toEqual([]);
    await a.enforceRetention(); // the empty last segment stays
    await a.close();
    const b = await open(dir, { now: () => now });
    expect(await b.offsets('t', 0)).toEqual({ begin: 2, end: 2 });
    expect((await b.produce('t', [{ key: null, value: 'c' }]))[0]!.offset).toBe(2);
  });

  it('size retention deletes oldest segments only while what remains stays at least retention.bytes', async () => {
    const a = await open(tmp(), { segmentBytes: 100 });
    await a.createTopic('t', { retentionBytes: 150, retentionMs: -1 });
    // each line is 58 bytes: one record per segment
    for (let i = 0; i < 6; i++) await a.produce('t', [{ key: null, value: 'x'.repeat(50), timestamp: 1 }]);
    await a.enforceRetention();
    // 6 × 58 = 348 bytes; deleting 3 leaves 174 ≥ 150, a 4th would leave 116 < 150
    expect(await a.offsets('t', 0)).toEqual({ begin: 3, end: 6 });
  });

  /** The newest value per key, as a consumer of a compacted topic (the offset store) reads it. */
  async function newestPerKey(l: EmbeddedLog, topic: string): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    for (let at = 0; ; ) {
      const recs = await l.fetch(topic, 0, at, { maxRecords: 1000 });
      if (!recs.length) return out;
      for (const r of recs) out.set(r.key!, r.value);
      at = recs[recs.length - 1]!.offset + 1;
    }
  }
  const allOf = (l: EmbeddedLog, topic: string) => l.fetch(topic, 0, 0, { maxRecords: 100_000, maxBytes: 1 << 30 });

  it('compaction keeps the newest record per key at its own offset, never the active segment, and the log start offset stays', async () => {
    const now = 1_000_000;
    const dir = tmp();
    const a = await open(dir, { segmentBytes: 300, now: () => now });
    await a.createTopic('connect-offsets', { cleanupPolicy: ['compact'], retentionMs: -1 });
    await a.produce('connect-offsets', [{ key: '["old",{}]', value: '{"pos":1}' }]);
    await a.produce('connect-offsets', [{ key: '["gone",{}]', value: '{"pos":1}' }]);
    await a.produce('connect-offsets', [{ key: '["gone",{}]', value: null }]);
    const expected = new Map<string, string | null>([['["old",{}]', '{"pos":1}'], ['["gone",{}]', null]]);
    for (let i = 0; i < 200; i++) {
      const key = `["c${i % 3}",{}]`;
      await a.produce('connect-offsets', [{ key, value: `{"pos":${i}}` }]);
      expected.set(key, `{"pos":${i}}`);
    }
    const before = await allOf(a, 'connect-offsets');
    await a.enforceRetention();
    expect(await a.offsets('connect-offsets', 0)).toEqual({ begin: 0, end: 203 });
    const after = await allOf(a, 'connect-offsets');
    expect(after.length).toBeLessThan(20);
    // every record left is the very record that was at that offset before
    for (const r of after) expect(r).toEqual(before[r.offset]);
    expect(after[0]!.offset).toBe(0);
    expect(await newestPerKey(a, 'connect-offsets')).toEqual(expected);
    // the active segment is untouched: its records, superseded or not, are all there
    const activeBase = (a as unknown as { topics: Map<string, { partitions: { segments: { base: number }[] }[] }> }).topics.get('connect-offsets')!.partitions[0]!.segments.at(-1)!.base;
    expect(after.filter((r) => r.offset >= activeBase).map((r) => r.offset)).toEqual(before.filter((r) => r.offset >= activeBase).map((r) => r.offset));
    // a fetch from inside a gap starts at the next record kept
    const gapAt = after.findIndex((r, i) => i > 0 && r.offset > after[i - 1]!.offset + 1);
    expect((await a.fetch('connect-offsets', 0, after[gapAt - 1]!.offset + 1, { maxRecords: 1 }))[0]!.offset).toBe(after[gapAt]!.offset);
    await a.close();
    const b = await open(dir, { segmentBytes: 300, now: () => now });
    expect(await allOf(b, 'connect-offsets')).toEqual(after);
    expect((await b.produce('connect-offsets', [{ key: '["old",{}]', value: '{"pos":2}' }]))[0]!.offset).toBe(203);
  });

  it('a compacted tombstone stays delete.retention.ms after the cleaning that first kept it, then goes', async () => {
    let now = 1_000_000;
    const a = await open(tmp(), { segmentBytes: 200, now: () => now });
    await a.createTopic('kv', { cleanupPolicy: ['compact'], retentionMs: -1, deleteRetentionMs: 10_000 });
    await a.produce('kv', [{ key: 'x', value: '1' }, { key: 'x', value: null }]);
    const fill = async (from: number) => {
      for (let i = 0; i < 30; i++) await a.produce('kv', [{ key: `k${i % 2}`, value: String(from + i) }]);
    };
    // written long before: Kafka counts from the cleaning, not from the record's timestamp
    now += 1_000_000;
    await fill(0);
    await a.enforceRetention();
    const tomb = () => allOf(a, 'kv').then((rs) => rs.filter((r) => r.key === 'x').map((r) => [r.offset, r.value]));
    expect(await tomb()).toEqual([[1, null]]);
    now += 9_999;
    await fill(100);
    await a.enforceRetention();
    expect(await tomb()).toEqual([[1, null]]);
    now += 1;
    await fill(200);
    await a.enforceRetention();
    expect(await tomb()).toEqual([]);
  });

  it('compaction waits for min.cleanable.dirty.ratio of the bytes after the last cleaning, and for min.compaction.lag.ms', async () => {
    let now = 1_000_000;
    const a = await open(tmp(), { segmentBytes: 300, now: () => now });
    await a.createTopic('kv', { cleanupPolicy: ['compact'], retentionMs: -1, minCompactionLagMs: 60_000 });
    for (let i = 0; i < 100; i++) await a.produce('kv', [{ key: `k${i % 10}`, value: 'v' }]);
    await a.enforceRetention();
    expect((await allOf(a, 'kv')).length).toBe(100); // younger than min.compaction.lag.ms
    now += 60_001;
    await a.produce('kv', [{ key: 'k0', value: 'w' }]);
    await a.enforceRetention();
    const cleaned = (await allOf(a, 'kv')).length;
    expect(cleaned).toBeLessThan(40);
    // a few more records: the dirty part is now a small share of the closed bytes
    now += 60_001;
    for (let i = 0; i < 8; i++) await a.produce('kv', [{ key: `k${i % 10}`, value: 'z' }]);
    now += 60_001;
    await a.enforceRetention();
    expect((await allOf(a, 'kv')).length).toBe(cleaned + 8);
  });

  it('records without a key are refused by compacted topics, and the whole write with them', async () => {
    const a = await open(tmp());
    await a.createTopic('kv', { cleanupPolicy: ['compact'] });
    await expect(a.produce('kv', [{ key: 'a', value: '1' }, { key: null, value: '2' }])).rejects.toMatchObject({
      code: 'INVALID_RECORD',
      message: 'Compacted topic cannot accept message without key in topic partition kv-0.',
    });
    expect(await a.offsets('kv', 0)).toEqual({ begin: 0, end: 0 });
  });

  /** Base and byte size of each segment of partition 0, oldest first. */
  const segmentsOf = (l: EmbeddedLog, topic: string) =>
    (l as unknown as { topics: Map<string, { partitions: { segments: { base: number; size: number }[] }[] }> }).topics.get(topic)!.partitions[0]!.segments.map((s) => ({ base: s.base, size: s.size }));

  it('cleanup.policy=compact,delete compacts (newest per key at its own offset) and also drops segments older than retention.ms; compact alone keeps them', async () => {
    let now = 1_000_000;
    const a = await open(tmp(), { segmentBytes: 300, now: () => now });
    // Kafka: LogConfig.compact and LogConfig.delete are both set by the list; UnifiedLog.deleteOldSegments applies retention.ms only with delete
    await a.createTopic('both', { cleanupPolicy: ['compact', 'delete'], retentionMs: 10_000 });
    await a.createTopic('compact-only', { cleanupPolicy: ['compact'], retentionMs: 10_000 });
    for (const topic of ['both', 'compact-only']) {
      await a.produce(topic, [{ key: 'once', value: 'old' }]);
      for (let i = 0; i < 60; i++) await a.produce(topic, [{ key: `k${i % 4}`, value: String(i) }]);
    }
    const before = await allOf(a, 'both');
    await a.enforceRetention();
    const compacted = await allOf(a, 'both');
    expect(compacted.length).toBeLessThan(30);
    for (const r of compacted) expect(r).toEqual(before[r.offset]);
    expect(await a.offsets('both', 0)).toEqual({ begin: 0, end: 61 });
    expect(await newestPerKey(a, 'both')).toEqual(new Map([['once', 'old'], ['k0', '56'], ['k1', '57'], ['k2', '58'], ['k3', '59']]));
    expect(compacted).toEqual((await allOf(a, 'compact-only')).map((r) => ({ ...r, topic: 'both' })));

    // every record is now older than retention.ms; a fresh one lands in the active segment
    now += 10_001;
    for (const topic of ['both', 'compact-only']) await a.produce(topic, [{ key: 'k0', value: 'fresh' }]);
    await a.enforceRetention();
    const { begin, end } = await a.offsets('both', 0);
    expect(end).toBe(62);
    expect(begin).toBeGreaterThan(0);
    expect(begin).toBe(segmentsOf(a, 'both')[0]!.base);
    expect(segmentsOf(a, 'both')).toHaveLength(1); // only the segment with the fresh record is young enough
    const left = await allOf(a, 'both');
    expect(left.every((r) => r.offset >= begin)).toBe(true);
    expect(left.map((r) => r.key)).not.toContain('once');
    expect(left.at(-1)).toMatchObject({ offset: 61, key: 'k0', value: 'fresh' });
    for (const r of left.slice(0, -1)) expect(r).toEqual(before[r.offset]);
    // compact alone: no retention, the log start offset stays
    expect(await a.offsets('compact-only', 0)).toEqual({ begin: 0, end: 62 });
    expect((await newestPerKey(a, 'compact-only')).get('once')).toBe('old');
  });

  it('cleanup.policy=compact,delete applies retention.bytes to the compacted log: oldest segments go while what remains stays at least retention.bytes', async () => {
    const a = await open(tmp(), { segmentBytes: 120, now: () => 1_000_000 });
    await a.createTopic('both', { cleanupPolicy: ['delete', 'compact'], retentionBytes: 400, retentionMs: -1 });
    await a.createTopic('compact-only', { cleanupPolicy: ['compact'], retentionBytes: 400, retentionMs: -1 });
    for (const topic of ['both', 'compact-only']) for (let i = 0; i < 120; i++) await a.produce(topic, [{ key: `k${i % 12}`, value: `v${i}` }]);
    await a.enforceRetention();
    const compactOnly = await allOf(a, 'compact-only');
    const kept = segmentsOf(a, 'both');
    const bytes = kept.reduce((n, s) => n + s.size, 0);
    // Kafka's deleteRetentionSizeBreachedSegments, run after the cleaning (LogCleaner.cleanFilthiestLog)
    expect(segmentsOf(a, 'compact-only').reduce((n, s) => n + s.size, 0)).toBeGreaterThan(400);
    expect(bytes).toBeGreaterThanOrEqual(400);
    expect(bytes - kept[0]!.size).toBeLessThan(400);
    const { begin } = await a.offsets('both', 0);
    expect(begin).toBe(kept[0]!.base);
    expect(begin).toBeGreaterThan(0);
    // what is left is the compacted log without its oldest segments
    expect(await allOf(a, 'both')).toEqual(compactOnly.filter((r) => r.offset >= begin).map((r) => ({ ...r, topic: 'both' })));
    expect(await a.offsets('compact-only', 0)).toEqual({ begin: 0, end: 120 });
  });

  it('records without a key are refused when the policy lists compact, also with delete; an empty policy is neither and takes them', async () => {
    const a = await open(tmp());
    await a.createTopic('both', { cleanupPolicy: ['compact', 'delete'] });
    await expect(a.produce('both', [{ key: 'a', value: '1' }, { key: null, value: '2' }])).rejects.toMatchObject({
      code: 'INVALID_RECORD',
      message: 'Compacted topic cannot accept message without key in topic partition both-0.',
    });
    expect(await a.offsets('both', 0)).toEqual({ begin: 0, end: 0 });
    await a.createTopic('neither', { cleanupPolicy: [] });
    expect((await a.produce('neither', [{ key: null, value: 'v' }]))[0]!.offset).toBe(0);
  });

  it('cleanup.policy is described as set, survives a restart, refuses bad items with ConfigDef\'s text, and the one-word policies of earlier versions still load', async () => {
    const dir = tmp();
    const a = await open(dir);
    await a.createTopic('dc', { cleanupPolicy: ['delete', 'compact'] });
    await a.createTopic('cd', { cleanupPolicy: ['compact', 'delete'] });
    await a.createTopic('plain');
    expect((await a.describeTopic('dc'))!.config.cleanupPolicy).toEqual(['delete', 'compact']);
    expect((await a.describeTopic('cd'))!.config.cleanupPolicy).toEqual(['compact', 'delete']);
    expect((await a.describeTopic('plain'))!.config.cleanupPolicy).toEqual(['delete']);
    // ConfigDef.ValidList checks each item with ValidString (case-sensitive); ConfigException's "Invalid value <item> for configuration <name>: <message>"
    await expect(a.createTopic('bad', { cleanupPolicy: ['compact', 'Delete' as 'delete'] })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'Invalid value Delete for configuration cleanup.policy: String must be one of: compact, delete',
    });
    expect(await a.listTopics()).not.toContain('bad');
    await a.produce('cd', [{ key: 'k', value: 'v' }]);
    await a.close();

    const b = await open(dir);
    expect((await b.describeTopic('dc'))!.config.cleanupPolicy).toEqual(['delete', 'compact']);
    expect((await b.describeTopic('cd'))!.config.cleanupPolicy).toEqual(['compact', 'delete']);
    await expect(b.produce('cd', [{ key: null, value: 'v' }])).rejects.toMatchObject({ code: 'INVALID_RECORD' });
    await b.close();

    // topics.json as earlier versions wrote it: the policy a single string
    const file = path.join(dir, 'topics.json');
    const topics = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { cleanupPolicy: unknown }>;
    topics.cd!.cleanupPolicy = 'compact';
    topics.plain!.cleanupPolicy = 'delete';
    fs.writeFileSync(file, JSON.stringify(topics));
    const c = await open(dir);
    expect((await c.describeTopic('cd'))!.config.cleanupPolicy).toEqual(['compact']);
    expect((await c.describeTopic('plain'))!.config.cleanupPolicy).toEqual(['delete']);
    await expect(c.produce('cd', [{ key: null, value: 'v' }])).rejects.toMatchObject({ code: 'INVALID_RECORD' });
    expect(await c.fetch('cd', 0, 0)).toMatchObject([{ offset: 0, key: 'k', value: 'v' }]);
  });

  it('a compaction killed after its .swap file was complete is finished on open; one killed before is dropped', async () => {
    const now = 1_000_000;
    const dir = tmp();
    const a = await open(dir, { segmentBytes: 200, now: () => now });
    // min.cleanable.dirty.ratio 1: no cleaning of its own, only the one the test leaves behind
    await a.createTopic('kv', { cleanupPolicy: ['compact'], retentionMs: -1, minCleanableDirtyRatio: 1 });
    for (let i = 0; i < 40; i++) await a.produce('kv', [{ key: `k${i % 2}`, value: String(i) }]);
    const before = await allOf(a, 'kv');
    await a.close();
    const pdir = path.join(dir, 'data', 'kv-0');
    const segs = fs.readdirSync(pdir).filter((f) => f.endsWith('.log')).sort();
    expect(segs.length).toBeGreaterThan(3);
    // the cleaned form of the first two segments, as the cleaner would have left it, with the first one already deleted
    const upper = Number(segs[2]!.slice(0, 20));
    const inFirstTwo = before.filter((r) => r.offset < upper);
    const last = new Map(before.map((r) => [r.key, r.offset]));
    const kept = inFirstTwo.filter((r) => last.get(r.key) === r.offset || r.offset === upper - 1);
    const text = kept.map((r) => JSON.stringify({ o: r.offset, t: r.timestamp, k: r.key, v: r.value }) + '\n').join('');
    fs.writeFileSync(path.join(pdir, `${segs[0]!.slice(0, 20)}.${String(upper).padStart(20, '0')}.swap`), text);
    fs.rmSync(path.join(pdir, segs[0]!));
    fs.writeFileSync(path.join(pdir, `${segs[2]!.slice(0, 20)}.cleaned`), 'partial');
    const b = await open(dir, { segmentBytes: 200, now: () => now, retentionCheckMs: 0 });
    const after = await allOf(b, 'kv');
    for (const r of after) expect(r).toEqual(before[r.offset]);
    expect(after.filter((r) => r.offset < upper)).toEqual(kept);
    expect(fs.readdirSync(pdir).filter((f) => !f.endsWith('.log') && f !== 'cleaner-offset-checkpoint')).toEqual([]);
    expect(await newestPerKey(b, 'kv')).toEqual(new Map([['k0', '38'], ['k1', '39']]));
  });

  it('records without a key stick to one partition until batch.size bytes went there (Kafka 3.x BuiltInPartitioner)', async () => {
    const a = await open(tmp());
    await a.createTopic('t', { partitions: 3 });
    const res = await a.produce('t', Array.from({ length: 10 }, (_, i) => ({ key: null, value: `small ${i}` })));
    expect(new Set(res.map((r) => r.partition)).size).toBe(1);
    const big = await a.produce('t', Array.from({ length: 6 }, () => ({ key: null, value: 'x'.repeat(8000) })));
    const parts = big.map((r) => r.partition);
    expect(new Set(parts).size).toBeGreaterThan(1);
    // keyed records keep murmur2
    expect((await a.produce('t', [{ key: 'abc', value: 'v' }]))[0]!.partition).toBe(partitionForKey('abc', 3));
  });

  it('topic configs: segment.bytes and segment.ms roll, max.message.bytes refuses with Kafka\'s text, LogAppendTime stamps, bad values are refused', async () => {
    let now = 5_000_000;
    const dir = tmp();
    const a = await open(dir, { now: () => now });
    await a.createTopic('small', { segmentBytes: 120, maxMessageBytes: 200, minInsyncReplicas: 2, replicationFactor: 3 });
    // each line is 84 bytes: one record per segment
    for (let i = 0; i < 4; i++) await a.produce('small', [{ key: 'k', value: 'x'.repeat(70) }]);
    expect(fs.readdirSync(path.join(dir, 'data', 'small-0')).filter((f) => f.endsWith('.log')).length).toBe(4);
    await expect(a.produce('small', [{ key: 'k', value: 'y'.repeat(200) }])).rejects.toMatchObject({
      code: 'RECORD_TOO_LARGE',
      message: 'The record batch size in the append to small-0 is 271 bytes which exceeds the maximum configured value of 200.',
    });
    expect((await a.describeTopic('small'))!.config).toMatchObject({ segmentBytes: 120, maxMessageBytes: 200, minInsyncReplicas: 2 });

    await a.createTopic('timed', { segmentMs: 1000 });
    await a.produce('timed', [{ key: null, value: '1' }]);
    now += 500;
    await a.produce('timed', [{ key: null, value: '2' }]);
    now += 501;
    await a.produce('timed', [{ key: null, value: '3' }]);
    expect(fs.readdirSync(path.join(dir, 'data', 'timed-0')).filter((f) => f.endsWith('.log')).length).toBe(2);

    await a.createTopic('stamped', { messageTimestampType: 'LogAppendTime' });
    await a.produce('stamped', [{ key: null, value: 'v', timestamp: 42 }]);
    expect((await a.fetch('stamped', 0, 0))[0]!.timestamp).toBe(now);
    await expect(a.produce('t2', [{ key: null, value: 'v', timestamp: -5 }])).rejects.toMatchObject({ message: 'Invalid timestamp: -5. Timestamp should always be non-negative or null.' });

    await expect(a.createTopic('bad', { segmentBytes: 10 })).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: 'Invalid value 10 for configuration segment.bytes: Value must be at least 14' });
    expect(await a.listTopics()).not.toContain('bad');
    await a.close();
    const b = await open(dir, { now: () => now });
    expect((await b.describeTopic('small'))!.config).toMatchObject({ segmentBytes: 120, maxMessageBytes: 200 });
  });

  it('deleting a topic drops its committed offsets and a group left with none; a re-created topic starts empty, also after a kill mid-delete', async () => {
    const dir = tmp();
    const a = await open(dir);
    await a.createTopic('t');
    await a.createTopic('u');
    await a.produce('t', [{ key: 'k', value: 'old' }]);
    await a.commitOffsets('only-t', [{ topic: 't', partition: 0, offset: 1 }]);
    await a.commitOffsets('both', [{ topic: 't', partition: 0, offset: 1 }, { topic: 'u', partition: 0, offset: 0 }]);
    await a.deleteTopic('t');
    expect(await a.listGroups()).toEqual(['both']);
    expect(await a.committedOffsets('both')).toEqual([{ topic: 'u', partition: 0, offset: 0 }]);
    await a.createTopic('t');
    expect(await a.offsets('t', 0)).toEqual({ begin: 0, end: 0 });
    await a.produce('t', [{ key: 'k', value: 'new' }]);
    await a.close();
    // a kill after topics.json forgot the topic, before its directory went
    const topics = JSON.parse(fs.readFileSync(path.join(dir, 'topics.json'), 'utf8')) as Record<string, unknown>;
    delete topics.t;
    fs.writeFileSync(path.join(dir, 'topics.json'), JSON.stringify(topics));
    const b = await open(dir);
    expect(fs.existsSync(path.join(dir, 'data', 't-0'))).toBe(false);
    await b.createTopic('t');
    expect(await b.fetch('t', 0, 0)).toEqual([]);
    expect((await b.produce('t', [{ key: 'k', value: 'again' }]))[0]!.offset).toBe(0);
  });
});
