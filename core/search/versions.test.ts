import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchEngine } from './engine.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk Elasticsearch JSON freely
type Json = Record<string, any>;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-versions-'));
  dirs.push(d);
  return d;
};

/** An engine whose index `t` ages its delete tombstones by a clock the test moves. */
function engine(settings: Json = {}, dir?: string): { e: SearchEngine; clock: { ms: number } } {
  const e = new SearchEngine(dir ? { dataDir: dir } : {});
  if (!e.exists('t')) e.createIndex('t', { settings });
  const clock = { ms: 1_000_000 };
  e.shard('t').now = () => clock.ms;
  return { e, clock };
}

const version = (r: Json) => [r._version, r.result];

// Elasticsearch's docs (Delete API, "Versioning"): every write, deletes included, increments the
// version; a deleted document's version stays available for index.gc_deletes (60 s by default).
describe('document versions, as Elasticsearch counts them', () => {
  it('a document deleted and indexed again within gc_deletes counts on from its delete', () => {
    const { e } = engine();
    expect(version(e.indexDoc('t', '1', { a: 1 }))).toEqual([1, 'created']);
    expect(version(e.indexDoc('t', '1', { a: 2 }))).toEqual([2, 'updated']);
    expect(version(e.deleteDoc('t', '1').body)).toEqual([3, 'deleted']);
    expect(version(e.indexDoc('t', '1', { a: 3 }))).toEqual([4, 'created']);
    expect(e.getDoc('t', '1').body._version).toBe(4);
  });

  it('a delete of a missing id takes a version too, and the next one counts on', () => {
    const { e } = engine();
    expect(version(e.deleteDoc('t', 'x').body)).toEqual([1, 'not_found']);
    expect(version(e.deleteDoc('t', 'x').body)).toEqual([2, 'not_found']);
    expect(version(e.indexDoc('t', 'x', { a: 1 }, { opType: 'create' }))).toEqual([3, 'created']);
  });

  it('after gc_deletes the id starts again at 1; the setting is honoured', () => {
    const { e, clock } = engine();
    e.indexDoc('t', '1', { a: 1 });
    e.deleteDoc('t', '1');
    // at exactly 60 s the tombstone is still there: Elasticsearch expires it after, not at
    clock.ms += 60_000;
    expect(version(e.indexDoc('t', '1', { a: 2 }))).toEqual([3, 'created']);
    e.indexDoc('t', '2', { a: 1 });
    e.deleteDoc('t', '2');
    clock.ms += 60_001;
    expect(version(e.indexDoc('t', '2', { a: 1 }))).toEqual([1, 'created']);

    const short = engine({ index: { gc_deletes: '5s' } });
    short.e.indexDoc('t', 'a', { a: 1 });
    short.e.deleteDoc('t', 'a');
    short.clock.ms += 4_000;
    expect(version(short.e.indexDoc('t', 'a', { a: 1 }))).toEqual([3, 'created']);
    short.e.deleteDoc('t', 'a');
    short.clock.ms += 5_001;
    expect(version(short.e.indexDoc('t', 'a', { a: 1 }))).toEqual([1, 'created']);
  });

  it('bulk and update count the same way', () => {
    const { e } = engine();
    const ndjson = ['{"index":{"_id":"b"}}', '{"n":1}', '{"delete":{"_id":"b"}}', '{"index":{"_id":"b"}}', '{"n":2}', '{"update":{"_id":"b"}}', '{"doc":{"n":3}}', ''].join('\n');
    const items = (e.bulk('t', ndjson) as Json).items.map((i: Json) => Object.values(i)[0] as Json);
    expect(items.map(version)).toEqual([
      [1, 'created'],
      [2, 'deleted'],
      [3, 'created'],
      [4, 'updated'],
    ]);
  });

  it('survive a restart and a force merge; tombstones do not survive a restart', () => {
    const dir = dataDir();
    let { e } = engine({}, dir);
    e.indexDoc('t', 'kept', { a: 1 });
    e.indexDoc('t', 'kept', { a: 2 });
    e.indexDoc('t', 'again', { a: 1 });
    e.deleteDoc('t', 'again');
    e.indexDoc('t', 'again', { a: 2 });
    e.indexDoc('t', 'gone', { a: 1 });
    e.deleteDoc('t', 'gone');
    e.close();

    ({ e } = engine({}, dir));
    expect(e.getDoc('t', 'kept').body._version).toBe(2);
    expect(e.getDoc('t', 'again').body._version).toBe(3);
    // a restarted Elasticsearch node has lost its tombstones: the deleted id starts at 1
    expect(version(e.indexDoc('t', 'gone', { a: 2 }))).toEqual([1, 'created']);

    e.deleteDoc('t', 'gone');
    e.forceMerge('t');
    // a merge rewrites documents, not the version map: the tombstone is still there
    expect(version(e.indexDoc('t', 'gone', { a: 3 }))).toEqual([3, 'created']);
    expect(e.getDoc('t', 'kept').body._version).toBe(2);
    expect(e.getDoc('t', 'again').body._version).toBe(3);
    e.close();
    ({ e } = engine({}, dir));
    expect(e.getDoc('t', 'again').body._version).toBe(3);
    expect(version(e.indexDoc('t', 'again', { a: 3 }))).toEqual([4, 'updated']);
    e.close();
  });
});
