/**
 * Index files under the service's data directory: `meta.json` (settings and mappings, written
 * atomically) and `ops.ndjson`, an append-only log of index and delete operations in order.
 * Replaying the log rebuilds the same doc ids, versions and term statistics (deleted documents
 * included, as before a merge); `_forcemerge` rewrites the log with only the live documents.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, openSync, fsyncSync, closeSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../common/json-store.js';
import type { IndexMeta } from './index/shard.js';

/** `version`: the document's version after the operation (logs written before it was kept have none). */
export type Op = { op: 'index'; id: string | null; source: string; version?: number } | { op: 'delete'; id: string };

export class IndexFiles {
  constructor(readonly dir: string) {}

  static forIndex(root: string, name: string): IndexFiles {
    return new IndexFiles(path.join(root, 'indices', encodeURIComponent(name)));
  }

  static listIndexDirs(root: string): IndexFiles[] {
    const base = path.join(root, 'indices');
    if (!existsSync(base)) return [];
    return readdirSync(base).map((d) => new IndexFiles(path.join(base, d)));
  }

  writeMeta(meta: IndexMeta): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileAtomicSync(path.join(this.dir, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
  }

  readMeta(): IndexMeta | undefined {
    const file = path.join(this.dir, 'meta.json');
    if (!existsSync(file)) return undefined;
    return JSON.parse(readFileSync(file, 'utf8')) as IndexMeta;
  }

  append(ops: Op[]): void {
    if (ops.length === 0) return;
    mkdirSync(this.dir, { recursive: true });
    const lines = ops.map(opLine).join('\n') + '\n';
    const file = path.join(this.dir, 'ops.ndjson');
    appendFileSync(file, lines);
    const fd = openSync(file, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** Replays the operation log; a torn last line (crash mid-write) is ignored. */
  *readOps(): Iterable<Op> {
    const file = path.join(this.dir, 'ops.ndjson');
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const line = text.slice(start, end);
      start = end + 1;
      if (!line.trim()) continue;
      let parsed: { op: string; id: string | null; raw?: string; source?: unknown; v?: number };
      try {
        parsed = JSON.parse(line) as typeof parsed;
      } catch {
        continue;
      }
      // `raw`: the source exactly as sent; `source` (logs written before it): an object, re-serialised
      if (parsed.op === 'index') {
        const source = typeof parsed.raw === 'string' ? parsed.raw : JSON.stringify(parsed.source);
        yield typeof parsed.v === 'number' ? { op: 'index', id: parsed.id, source, version: parsed.v } : { op: 'index', id: parsed.id, source };
      }
      else if (parsed.op === 'delete' && parsed.id) yield { op: 'delete', id: parsed.id };
    }
  }

  rewriteOps(ops: Op[]): void {
    const lines = ops.map(opLine).join('\n');
    writeFileAtomicSync(path.join(this.dir, 'ops.ndjson'), lines ? lines + '\n' : '');
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * One log line. The source is kept as a JSON string, so a restart gives `_source` back byte for
 * byte as Elasticsearch does (`1.0` stays `1.0`, spacing and newlines stay).
 */
function opLine(o: Op): string {
  if (o.op === 'delete') return JSON.stringify(o);
  return `{"op":"index","id":${JSON.stringify(o.id)},${o.version === undefined ? '' : `"v":${o.version},`}"raw":${JSON.stringify(o.source)}}`;
}
