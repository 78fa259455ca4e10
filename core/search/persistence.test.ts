import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexFiles } from './persistence.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const files = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-idx-'));
  dirs.push(d);
  return new IndexFiles(d);
};

describe('the operations log of an index', () => {
  it('replays each source exactly as it was sent (1.0, 1e2, spacing and newlines kept)', () => {
    const f = files();
    const raw = '{ "price": 1.0,\n  "tags": [ "a" ],\r\n  "n": 1e2, "s": "line\\nbreak" }';
    f.append([{ op: 'index', id: '1', source: raw }, { op: 'index', id: null, source: '{"a":1}' }, { op: 'delete', id: '1' }]);
    expect([...f.readOps()]).toEqual([
      { op: 'index', id: '1', source: raw },
      { op: 'index', id: null, source: '{"a":1}' },
      { op: 'delete', id: '1' },
    ]);
    f.rewriteOps([{ op: 'index', id: '2', source: raw }]);
    expect([...f.readOps()]).toEqual([{ op: 'index', id: '2', source: raw }]);
  });

  it('still reads logs written before sources were kept as sent, and skips a torn last line', () => {
    const f = files();
    fs.mkdirSync(f.dir, { recursive: true });
    fs.writeFileSync(path.join(f.dir, 'ops.ndjson'), '{"op":"index","id":"a","source":{"m":"x","n":1.5}}\n{"op":"delete","id":"a"}\n{"op":"index","id":"b","raw":"{\\"m\\":');
    expect([...f.readOps()]).toEqual([
      { op: 'index', id: 'a', source: '{"m":"x","n":1.5}' },
      { op: 'delete', id: 'a' },
    ]);
  });
});
