/**
 * One key followed from the source's change log to the physical rows that hold it, to say why the
 * Raw view shows fewer versions than the source wrote: ClickHouse applies the table engine's merge
 * to each insert block as it writes it (setting optimize_on_insert, on by default), so versions
 * of one key that the sink delivered in the same block land as one row — the highest version, the
 * last of equal ones; versions in blocks of their own are collapsed later, by a background merge
 * or OPTIMIZE.
 */
import type { HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import type { CdcKeyStory } from '../contract/cdc.js';
import type { ConnectApi } from '../../cdc/connect/service.js';
import type { BinlogPosition } from '../../cdc/source/types.js';
import { chRows, parts, qid, tableInfo } from './cdc-access.js';
import { compareValues, text } from './cdc-versions.js';

/** '2030-01-01 00:00:01' (MySQL) and '2030-01-01 00:00:01.000' (DateTime64) are the same version. */
export const sameVersion = (v: string): string => v.replace(/\.0+$/, '');

type Change = CdcKeyStory['changes'][number];

export async function keyStory(rt: HostRuntime, p: { key: string; database: string; table: string; sourceDatabase: string; sourceTable: string }): Promise<CdcKeyStory> {
  const api = rt.handle<ConnectApi>('connect')?.api;
  if (!api) throw new HostCallError('The embedded connect service is not running (a key is followed through the embedded pipeline).', undefined, 'unavailable');
  const { columns } = await tableInfo(rt, p.database, p.table);
  const s = { database: p.database, table: p.table, keyExpr: qid(columns.key), versionColumn: columns.version, deletedColumn: columns.deleted };
  const keyCol = columns.key;
  const { source, worker } = api;

  // the source's changes of this key, oldest first
  const changes: (Change & { row: number })[] = [];
  let from: BinlogPosition = { file: '', pos: 0 };
  for (;;) {
    const batch = source.readTransactions(from, 2000);
    if (!batch.length) break;
    for (const tx of batch) {
      if (tx.database !== p.sourceDatabase) continue;
      tx.events.forEach((ev, row) => {
        const image = ev.after ?? ev.before;
        if (ev.table !== p.sourceTable || !image || text(image[keyCol]) !== p.key) return;
        changes.push({ file: tx.file, pos: tx.pos, row, op: ev.op, version: s.versionColumn ? sameVersion(text(image[s.versionColumn])) : '', ...(typeof image.name === 'string' ? { name: image.name } : {}) });
      });
    }
    const last = batch[batch.length - 1]!;
    from = { file: last.file, pos: last.nextPos };
  }

  // each change's topic offset and the sink block (insert) that delivered it
  const { writes, deliveries } = worker.lineage();
  for (const c of changes) {
    const w = writes.find((x) => {
      const o = x.sourceOffset as { file?: string; pos?: number; row?: number; snapshot?: boolean };
      return !o.snapshot && o.file === c.file && o.pos === c.pos && o.row !== undefined && o.row - 1 === c.row;
    });
    if (!w) continue;
    c.offset = w.offset;
    const d = deliveries.find((x) => x.topic === w.topic && x.partition === w.partition && x.firstOffset <= w.offset && w.offset <= x.lastOffset);
    if (d) c.block = { firstOffset: d.firstOffset, lastOffset: d.lastOffset, records: d.records, token: `${d.topic}-${d.partition}-${d.firstOffset}-${d.lastOffset}` };
  }

  const levels = new Map((await parts(rt, s.database, s.table)).map((x) => [x.name, x.level]));
  const rows = await chRows<Record<string, unknown> & { _part: string }>(rt, `SELECT _part, * FROM ${qid(s.database)}.${qid(s.table)} WHERE toString(${s.keyExpr}) = {k:String} ORDER BY _part, _part_offset`, { k: p.key });
  const physical = rows.map((r) => ({ part: r._part, level: levels.get(r._part) ?? 0, version: s.versionColumn ? sameVersion(text(r[s.versionColumn])) : '', deleted: s.deletedColumn ? Number(r[s.deletedColumn]) === 1 : false }));

  return { key: p.key, changes: changes.map(({ row: _row, ...c }) => c), physical, explanations: explain(changes, physical) };
}

/** In words: which of the source's versions share an insert block, and which are no longer physically there and why. */
export function explain(changes: Change[], physical: CdcKeyStory['physical']): string[] {
  const out: string[] = [];
  const present = new Set(physical.map((r) => `${r.version}|${r.deleted}`));
  const byBlock = new Map<string, Change[]>();
  for (const c of changes) {
    if (!c.block) continue;
    const list = byBlock.get(c.block.token);
    if (list) list.push(c);
    else byBlock.set(c.block.token, [c]);
  }
  const collapsed = new Set<Change>();
  for (const [token, list] of byBlock) {
    if (list.length < 2) continue;
    const b = list[0]!.block!;
    let kept = list[0]!;
    for (const c of list.slice(1)) if (compareValues(c.version, kept.version) >= 0) kept = c;
    for (const c of list) if (c !== kept) collapsed.add(c);
    out.push(
      `${list.length} changes of this id (versions ${list.map((c) => c.version + (c.op === 'd' ? ' delete' : '')).join(', ')}) arrived in one insert block (offsets ${b.firstOffset}–${b.lastOffset}, ${b.records} rows, dedup token ${token}). ` +
        `ClickHouse collapses equal keys inside an insert block as it writes it (optimize_on_insert), so only version ${kept.version}${kept.op === 'd' ? ' (the delete)' : ''} was written as a row: the highest, the last of equal ones.`,
    );
  }
  const missing = changes.filter((c) => !collapsed.has(c) && !present.has(`${c.version}|${c.op === 'd'}`));
  const merged = missing.filter((c) => c.block);
  if (merged.length) {
    const level = Math.max(0, ...physical.map((r) => r.level));
    out.push(
      `Version${merged.length === 1 ? '' : 's'} ${merged.map((c) => c.version).join(', ')} ${merged.length === 1 ? 'was' : 'were'} written in ${merged.length === 1 ? 'its own block' : 'blocks of their own'} and ${merged.length === 1 ? 'is' : 'are'} gone now: ` +
        (level > 0 ? `a merge (background or OPTIMIZE) combined the parts and kept only the winner (the part holding it is level ${level}).` : 'a merge or cleanup removed them.'),
    );
  }
  const untraced = missing.filter((c) => !c.block);
  if (untraced.length) {
    out.push(
      `Version${untraced.length === 1 ? '' : 's'} ${untraced.map((c) => c.version).join(', ')} ${untraced.length === 1 ? 'is' : 'are'} not a row now and no sink block was traced for ${untraced.length === 1 ? 'it' : 'them'} ` +
        '(a queue table and view insert without a trace, or the change came before the connect service started): collapsed inside the insert block that carried it, or removed by a merge or cleanup.',
    );
  }
  if (!changes.length) out.push('The source log holds no change of this id since the embedded source started (it came with the snapshot, or from elsewhere).');
  else if (!out.length) out.push(`Every one of the ${changes.length} change${changes.length === 1 ? '' : 's'} of this id is its own physical row: nothing collapsed yet.`);
  return out;
}
