/**
 * Reading a target table as ReplacingMergeTree(version, is_deleted) reads it: rows grouped by
 * key, the version that wins in each group and why; which keys differ from the source; what a
 * cleanup removed. Plain functions over rows, so the rules are tested without a server.
 */
import type { CdcTargetRows, CdcVersionLine } from '../contract/cdc.js';

export interface EngineColumns {
  /** The sorting key's first column (shown as "id", and the order of FINAL). */
  key: string;
  /** Every sorting-key column: the rows a ReplacingMergeTree collapses share all of them. */
  keyColumns?: string[];
  /** '' when the engine has no version column (the last inserted then wins). */
  version: string;
  /** '' when the engine has no is_deleted column. */
  deleted: string;
}

export interface VersionGroup {
  key: string;
  versions: CdcVersionLine[];
  winner: CdcVersionLine;
  /** The winner is a delete: FINAL and CLEANUP drop the key. */
  vanishes: boolean;
}

export const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Versions and keys compare as numbers when both are numbers, else as text (DateTime64 text sorts as time). */
export function compareValues(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (a !== '' && b !== '' && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Groups raw rows (each with `_part`) by key; the winner has the highest version and, on a tie,
 * is the one inserted last (the part with the highest block number), as ReplacingMergeTree keeps
 * the last inserted row among equal versions. Groups come in key order.
 */
export function groupVersions(rows: Record<string, unknown>[], parts: Pick<CdcTargetRows['parts'][number], 'name' | 'minBlock'>[], cols: EngineColumns): VersionGroup[] {
  const blockOf = new Map(parts.map((p) => [p.name, p.minBlock]));
  const groups = new Map<string, CdcVersionLine[]>();
  const keyCols = cols.keyColumns?.length ? cols.keyColumns : [cols.key];
  for (const row of rows) {
    const key = keyCols.map((c) => text(row[c])).join(', ');
    const part = text(row._part);
    const { _part, ...values } = row;
    void _part;
    const line: CdcVersionLine = {
      key,
      part,
      block: blockOf.get(part) ?? 0,
      version: cols.version ? text(row[cols.version]) : '',
      deleted: cols.deleted ? Number(row[cols.deleted]) === 1 : false,
      row: values,
      winner: false,
      first: false,
      count: 0,
      why: '',
      reason: 'only',
      gone: false,
    };
    const list = groups.get(key);
    if (list) list.push(line);
    else groups.set(key, [line]);
  }
  const out: VersionGroup[] = [];
  for (const [key, versions] of groups) {
    versions.sort((a, b) => a.block - b.block);
    let winner = versions[0]!;
    for (const v of versions.slice(1)) if (compareValues(v.version, winner.version) >= 0) winner = v;
    const tie = versions.some((v) => v !== winner && compareValues(v.version, winner.version) === 0);
    winner.winner = true;
    const base = versions.length === 1 ? 'only version' : tie ? `version ${winner.version} ties; the last inserted (part ${winner.part}) wins` : `highest version ${winner.version}`;
    const why = winner.deleted ? `${base}; it is a delete, so the id vanishes` : base;
    const reason = versions.length === 1 ? 'only' : tie ? 'tie' : 'highest';
    versions.forEach((v, i) => {
      v.first = i === 0;
      v.count = versions.length;
      v.why = why;
      v.reason = reason;
    });
    out.push({ key, versions, winner, vanishes: winner.deleted });
  }
  return out.sort((a, b) => compareValues(a.key, b.key));
}

/** The groups as the lines of the Raw view, in key order. */
export function linesOf(groups: VersionGroup[]): CdcVersionLine[] {
  const out: CdcVersionLine[] = [];
  for (const g of groups) for (const v of g.versions) out.push(v);
  return out;
}

/** Keys whose rows differ between the source and the target's FINAL view (missing, extra or changed). */
export function diffByKey(source: Record<string, unknown>[], target: Record<string, unknown>[], key: string, columns: string[]): { key: string; kind: 'missing' | 'extra' | 'changed'; column?: string }[] {
  const t = new Map(target.map((r) => [text(r[key]), r]));
  const s = new Map(source.map((r) => [text(r[key]), r]));
  const out: { key: string; kind: 'missing' | 'extra' | 'changed'; column?: string }[] = [];
  for (const [k, row] of s) {
    const other = t.get(k);
    if (!other) out.push({ key: k, kind: 'missing' });
    else {
      const col = columns.find((c) => text(row[c]) !== text(other[c]));
      if (col) out.push({ key: k, kind: 'changed', column: col });
    }
  }
  for (const k of t.keys()) if (!s.has(k)) out.push({ key: k, kind: 'extra' });
  return out.sort((a, b) => compareValues(a.key, b.key));
}

/**
 * Marks the lines of `before` that are not in `after` (same key and values: a merge moves a row
 * to a new part without changing it) as gone, and returns the keys left with no line at all.
 */
export function markRemoved(before: CdcVersionLine[], after: CdcVersionLine[]): { removed: number; vanishedKeys: string[] } {
  const valuesOf = (l: CdcVersionLine) => `${l.key}\u0002${Object.values(l.row).map(text).join('\u0001')}`;
  const kept = new Set(after.map(valuesOf));
  const left = new Set(after.map((l) => l.key));
  let removed = 0;
  const vanished = new Set<string>();
  for (const l of before) {
    l.gone = !kept.has(valuesOf(l));
    if (l.gone) removed++;
    if (!left.has(l.key)) vanished.add(l.key);
  }
  return { removed, vanishedKeys: [...vanished].sort(compareValues) };
}

/**
 * ReplacingMergeTree's version and is_deleted columns from the table's engine_full, skipping the
 * Replicated variants' ZooKeeper path and replica name; the key is the sorting key's first column.
 */
export function engineColumns(engineFull: string, sortingKey: string): EngineColumns {
  const keyColumns = sortingKey.split(',').map((c) => c.trim().replace(/^`|`$/g, '')).filter(Boolean);
  const key = keyColumns[0] ?? '';
  const m = /^(?:Shared|Replicated)?ReplacingMergeTree(?:\(([^)]*)\))?/.exec(engineFull.trim());
  if (!m) return { key, keyColumns, version: '', deleted: '' };
  const args = (m[1] ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a && !/^'.*'$/.test(a))
    .map((a) => a.replace(/^`|`$/g, ''));
  return { key, keyColumns, version: args[0] ?? '', deleted: args[1] ?? '' };
}
