/**
 * The target visualizer's views, read and grouped here so the page receives only the window it
 * shows: Raw (every physical version grouped by key, the winner and why), FINAL, and the table
 * just before and after the last OPTIMIZE … FINAL CLEANUP; and the source-against-target check.
 * A table of 100,000 versions costs the page a window of a few hundred lines, not 100,000 rows
 * parsed and regrouped on its main thread at every refresh.
 */
import { z } from 'zod';
import type { AreaMethods, HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import type { CdcCleanupResult, CdcTargetRows, CdcVersionLine } from '../contract/cdc.js';
import { MySqlError } from '../../cdc/source/mysql-error.js';
import { chRows, clickhouse, embedded, ident, parts, qid, tableInfo } from './cdc-access.js';
import { keyStory } from './cdc-key-story.js';
import { diffByKey, groupVersions, linesOf, markRemoved, type EngineColumns } from './cdc-versions.js';

const MAX_WINDOW = 2000;
const MAX_DIFFERING = 50;
const MAX_VANISHED = 100;

interface Grouped {
  columns: EngineColumns & { all: string[] };
  lines: CdcVersionLine[];
  keys: number;
  parts: CdcTargetRows['parts'];
  generation: string;
}

interface Snapshot {
  uuid: string;
  before: Grouped;
  after: Grouped;
  result: CdcCleanupResult;
}

/** The last grouping of each table's Raw view (by its active parts) and the last cleanup's tables. */
const rawCache = new Map<string, Grouped>();
const cleanups = new Map<string, Snapshot>();

/** Every physical version, grouped: read again only when the table's active parts changed. */
async function readRaw(rt: HostRuntime, database: string, table: string): Promise<Grouped & { uuid: string }> {
  const [info, allParts] = await Promise.all([tableInfo(rt, database, table), parts(rt, database, table)]);
  const active = allParts.filter((p) => p.active);
  const generation = `${info.uuid}/${active.map((p) => `${p.name}:${p.rows}`).join(',')}`;
  const id = `${database}.${table}`;
  const cached = rawCache.get(id);
  if (cached?.generation === generation) return { ...cached, uuid: info.uuid };
  const rows = await chRows<Record<string, unknown>>(rt, `SELECT *, _part FROM ${qid(database)}.${qid(table)}`);
  const groups = groupVersions(rows, active, info.columns);
  const grouped: Grouped = { columns: info.columns, lines: linesOf(groups), keys: groups.length, parts: allParts, generation };
  rawCache.set(id, grouped);
  return { ...grouped, uuid: info.uuid };
}

async function stopped(rt: HostRuntime, database: string, table: string, stop: boolean): Promise<void> {
  const client = clickhouse(rt);
  try {
    await client.command({ query: `SYSTEM ${stop ? 'STOP' : 'START'} MERGES ${qid(database)}.${qid(table)}` });
  } finally {
    await client.close();
  }
}

const target = { table: ident, database: ident.optional() };

export const cdcTargetViewArea: AreaMethods<'cdc.targetView' | 'cdc.optimizeFinalCleanup' | 'cdc.targetCompare' | 'cdc.keyStory'> = {
  'cdc.keyStory': {
    params: z.object({ key: z.string().min(1).max(200), table: ident, database: ident.optional(), sourceDatabase: ident.optional(), sourceTable: ident.optional() }).strict(),
    summary: 'one key from its source changes through topic offsets and insert blocks to its physical rows: versions collapsed inside one insert block or merged away, in words',
    handler: (p, rt) => keyStory(rt, { key: p.key, table: p.table, database: p.database ?? 'default', sourceDatabase: p.sourceDatabase ?? 'demo', sourceTable: p.sourceTable ?? p.table }),
  },

  'cdc.targetView': {
    params: z
      .object({ ...target, view: z.enum(['raw', 'final', 'before', 'after']), offset: z.number().int().min(0).optional(), limit: z.number().int().min(0).max(MAX_WINDOW).optional() })
      .strict(),
    summary: "a window of the target's Raw view (versions grouped by key, the winner and why), FINAL, or the table before and after the last cleanup",
    handler: async (p, rt) => {
      const database = p.database ?? 'default';
      const offset = p.offset ?? 0;
      const limit = p.limit ?? 200;
      const base = { database, table: p.table, view: p.view, offset };
      if (p.view === 'final') {
        const [info, allParts] = await Promise.all([tableInfo(rt, database, p.table), parts(rt, database, p.table)]);
        const t = `${qid(database)}.${qid(p.table)}`;
        const order = info.columns.key ? ` ORDER BY ${qid(info.columns.key)}` : '';
        const [rows, count] = await Promise.all([
          limit > 0 ? chRows<Record<string, unknown>>(rt, `SELECT * FROM ${t} FINAL${order} LIMIT ${limit} OFFSET ${offset}`) : Promise.resolve([]),
          chRows<{ n: string | number }>(rt, `SELECT count() AS n FROM ${t} FINAL`),
        ]);
        const total = Number(count[0]?.n ?? 0);
        const generation = `${info.uuid}/${allParts.filter((x) => x.active).map((x) => `${x.name}:${x.rows}`).join(',')}`;
        return { ...base, columns: info.columns, total, keys: total, lines: [], rows, parts: allParts, generation };
      }
      if (p.view === 'raw') {
        const g = await readRaw(rt, database, p.table);
        return { ...base, columns: g.columns, total: g.lines.length, keys: g.keys, lines: g.lines.slice(offset, offset + limit), rows: [], parts: g.parts, generation: g.generation };
      }
      const snap = cleanups.get(`${database}.${p.table}`);
      const info = await tableInfo(rt, database, p.table);
      if (!snap || snap.uuid !== info.uuid) return { ...base, columns: info.columns, total: 0, keys: 0, lines: [], rows: [], parts: [], generation: 'none' };
      const g = p.view === 'before' ? snap.before : snap.after;
      return { ...base, columns: g.columns, total: g.lines.length, keys: g.keys, lines: g.lines.slice(offset, offset + limit), rows: [], parts: g.parts, generation: `cleanup-${snap.result.at}` };
    },
  },

  'cdc.optimizeFinalCleanup': {
    params: z.object({ ...target, resumeMerges: z.boolean().optional() }).strict(),
    summary: 'OPTIMIZE TABLE … FINAL CLEANUP on the target: parts and versions before and after, what it removed and which keys vanished',
    handler: async (p, rt): Promise<CdcCleanupResult> => {
      const database = p.database ?? 'default';
      const statement = `OPTIMIZE TABLE ${qid(database)}.${qid(p.table)} FINAL CLEANUP`;
      const before = await readRaw(rt, database, p.table);
      if (p.resumeMerges) await stopped(rt, database, p.table, false);
      const client = clickhouse(rt);
      try {
        await client.command({ query: statement });
      } catch (err) {
        throw new HostCallError((err as Error).message, { code: (err as { code?: string }).code, type: (err as { type?: string }).type, statement });
      } finally {
        await client.close();
        if (p.resumeMerges) await stopped(rt, database, p.table, true);
      }
      const after = await readRaw(rt, database, p.table);
      // the before view keeps its own copy: marking what went must not touch the cached Raw lines
      const beforeLines = before.lines.map((l) => ({ ...l }));
      const { removed, vanishedKeys } = markRemoved(beforeLines, after.lines);
      const result: CdcCleanupResult = {
        statement,
        before: before.parts,
        after: after.parts,
        versionsBefore: before.lines.length,
        versionsAfter: after.lines.length,
        removed,
        vanishedKeys: vanishedKeys.slice(0, MAX_VANISHED),
        vanishedCount: vanishedKeys.length,
        mergesResumed: p.resumeMerges ?? false,
        at: new Date().toISOString(),
      };
      cleanups.set(`${database}.${p.table}`, { uuid: after.uuid, before: { ...before, lines: beforeLines }, after, result });
      return result;
    },
  },

  'cdc.targetCompare': {
    params: z
      .object({ source: z.object({ database: ident, table: ident }).strict(), target: z.object(target).strict(), columns: z.array(z.string().regex(/^[A-Za-z0-9_]+$/)).max(64) })
      .strict(),
    summary: "the embedded source's table against the target's FINAL, key by key",
    handler: async (p, rt) => {
      const { source } = embedded(rt);
      const database = p.target.database ?? 'default';
      const info = await tableInfo(rt, database, p.target.table);
      const key = info.columns.key;
      let sourceRows: Record<string, unknown>[];
      try {
        const [r] = source.executeSync(p.source.database, `SELECT * FROM \`${p.source.table}\``);
        sourceRows = r!.rows.map((row) => Object.fromEntries(r!.columns.map((c, i) => [c, row[i]])));
      } catch (err) {
        if (err instanceof MySqlError) throw new HostCallError(err.toString(), err.toJSON());
        throw err;
      }
      const cols = [key, ...p.columns.filter((c) => c !== key && info.columns.all.includes(c))];
      const targetRows = await chRows<Record<string, unknown>>(rt, `SELECT ${cols.map(qid).join(', ')} FROM ${qid(database)}.${qid(p.target.table)} FINAL`);
      const differing = diffByKey(sourceRows, targetRows, key, cols.slice(1));
      return { key, columns: cols.slice(1), equal: differing.length === 0, sourceRows: sourceRows.length, targetRows: targetRows.length, count: differing.length, differing: differing.slice(0, MAX_DIFFERING) };
    },
  },
};
