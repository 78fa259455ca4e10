import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedLog, lineJson, type StoredLine } from './embedded-log.js';
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

  it('a segment line is written as JSON.stringify writes it', () => {
    const lines: StoredLine[] = [
      { o: 0, t: 1, k: null, v: null },
      { o: 5, t: 1.5, k: 'k "q"', v: '{"a":"\\u2028\\n"}', h: [{ key: 'x', value: null }] },
      { o: 2 ** 40, t: NaN, k: '', v: '😀\ud800' },
      { o: 1, t: 2, k: undefined as unknown as null, v: 'v' },
    ];
    for (const l of lines) expect(lineJson(l)).toBe(JSON.stringify(l));
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

  it('retention deletes whole closed segments older than retention.ms, never the active one', async () => {
    let now = 1_000_000;
    const a = await open(tmp(), { segmentBytes: 100, now: () => now });
    await a.createTopic('t', { retentionMs: 1000 });
    for (let i = 0; i < 10; i++) await a.produce('t', [{ key: null, value: 'x'.repeat(40) }]);
    now += 5000;
    await a.produce('t', [{ key: null, value: 'fresh' }]);
    await a.enforceRetention();
    const { begin, end } = await a.offsets('t', 0);
    expect(end).toBe(11);
    expect(begin).toBe(10);
    expect((await a.fetch('t', 0, 0)).map((r) => r.offset)).toEqual([10]);
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

  it('a compacted topic is cleaned once half its closed records are superseded: the newest value per key stays, also for keys not written since, across a restart', async () => {
    let now = 1_000_000;
    const dir = tmp();
    const a = await open(dir, { segmentBytes: 300, now: () => now });
    await a.createTopic('connect-offsets', { cleanupPolicy: 'compact', retentionMs: -1 });
    // a key written once at the start, a key deleted (tombstone), and three keys written over and over
    await a.produce('connect-offsets', [{ key: '["old",{}]', value: '{"pos":1}' }]);
    await a.produce('connect-offsets', [{ key: '["gone",{}]', value: '{"pos":1}' }]);
    await a.produce('connect-offsets', [{ key: '["gone",{}]', value: null }]);
    const expected = new Map<string, string | null>([['["old",{}]', '{"pos":1}'], ['["gone",{}]', null]]);
    for (let i = 0; i < 200; i++) {
      const key = `["c${i % 3}",{}]`;
      await a.produce('connect-offsets', [{ key, value: `{"pos":${i}}` }]);
      expected.set(key, `{"pos":${i}}`);
    }
    const before = await newestPerKey(a, 'connect-offsets');
    expect(before).toEqual(expected);
    await a.enforceRetention();
    const { begin, end } = await a.offsets('connect-offsets', 0);
    expect(end - begin).toBeLessThan(20);
    expect(await newestPerKey(a, 'connect-offsets')).toEqual(expected);
    // the next write of a key wins over the copies
    await a.produce('connect-offsets', [{ key: '["old",{}]', value: '{"pos":2}' }]);
    expected.set('["old",{}]', '{"pos":2}');
    await a.close();
    // a day later, a restart cleans what the last run left, and the tombstone goes too
    now += 25 * 60 * 60 * 1000;
    const b = await open(dir, { segmentBytes: 300, now: () => now });
    for (let i = 0; i < 60; i++) {
      const key = `["c${i % 3}",{}]`;
      await b.produce('connect-offsets', [{ key, value: `{"pos":${1000 + i}}` }]);
      expected.set(key, `{"pos":${1000 + i}}`);
    }
    expect(await newestPerKey(b, 'connect-offsets')).toEqual(expected);
    expect((await b.offsets('connect-offsets', 0)).end - (await b.offsets('connect-offsets', 0)).begin).toBeGreaterThan(60);
    await b.close();
    const c = await open(dir, { segmentBytes: 300, now: () => now });
    expected.delete('["gone",{}]');
    expect(await newestPerKey(c, 'connect-offsets')).toEqual(expected);
    const o = await c.offsets('connect-offsets', 0);
    expect(o.end - o.begin).toBeLessThan(20);
  });

  it('a compacted topic whose closed records are mostly distinct keys is left as it is (min.cleanable.dirty.ratio)', async () => {
    const a = await open(tmp(), { segmentBytes: 300 });
    await a.createTopic('kv', { cleanupPolicy: 'compact', retentionMs: -1 });
    for (let i = 0; i < 100; i++) await a.produce('kv', [{ key: `k${i}`, value: 'v' }]);
    for (let i = 0; i < 20; i++) await a.produce('kv', [{ key: `k${i}`, value: 'w' }]);
    await a.enforceRetention();
    expect(await a.offsets('kv', 0)).toEqual({ begin: 0, end: 120 });
  });
});
