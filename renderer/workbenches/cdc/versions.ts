/**
 * Reading the target table as a ReplacingMergeTree(version, is_deleted) reads it: rows grouped by
 * key, the version that wins in each group and why. Plain functions over the rows the host
 * returns, so the rule is tested without a browser.
 */
export interface PartInfo {
  name: string;
  rows: number;
  minBlock: number;
  active: boolean;
}

export interface VersionRow {
  key: string;
  part: string;
  /** Insert order of the part (its first block number). */
  block: number;
  version: string;
  deleted: boolean;
  row: Record<string, unknown>;
  winner: boolean;
}

export interface VersionGroup {
  key: string;
  versions: VersionRow[];
  winner: VersionRow;
  /** Why the winner wins, in words. */
  why: string;
  /** The winner is a delete: FINAL and CLEANUP drop the key. */
  vanishes: boolean;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Versions compare as numbers when both are numbers, else as text (DateTime64 text sorts as time). */
function compareVersions(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (a !== '' && b !== '' && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Groups raw rows (each with `_part`) by `keyColumn`; the winner has the highest version and, on a
 * tie, is the one inserted last (the part with the highest block number), as ReplacingMergeTree
 * keeps the last inserted row among equal versions.
 */
export function groupVersions(rows: Record<string, unknown>[], parts: PartInfo[], cols: { key: string; version: string; deleted: string }): VersionGroup[] {
  const blockOf = new Map(parts.map((p) => [p.name, p.minBlock]));
  const groups = new Map<string, VersionRow[]>();
  for (const row of rows) {
    const key = text(row[cols.key]);
    const part = text(row._part);
    const v: VersionRow = { key, part, block: blockOf.get(part) ?? 0, version: text(row[cols.version]), deleted: Number(row[cols.deleted]) === 1, row, winner: false };
    const list = groups.get(key);
    if (list) list.push(v);
    else groups.set(key, [v]);
  }
  const out: VersionGroup[] = [];
  for (const [key, versions] of groups) {
    versions.sort((a, b) => a.block - b.block);
    let winner = versions[0]!;
    for (const v of versions.slice(1)) if (compareVersions(v.version, winner.version) >= 0) winner = v;
    const tie = versions.some((v) => v !== winner && compareVersions(v.version, winner.version) === 0);
    winner.winner = true;
    const why =
      versions.length === 1
        ? 'only version'
        : tie
          ? `version ${winner.version} ties; the last inserted (part ${winner.part}) wins`
          : `highest version ${winner.version}`;
    out.push({ key, versions, winner, why: winner.deleted ? `${why}; it is a delete, so the id vanishes` : why, vanishes: winner.deleted });
  }
  out.sort((a, b) => compareVersions(a.key, b.key));
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
  return out.sort((a, b) => compareVersions(a.key, b.key));
}

/** Rows (by part and key) present before and gone after: what a cleanup removed. */
export function vanished(before: Record<string, unknown>[], after: Record<string, unknown>[], key: string): Set<string> {
  const afterKeys = new Set(after.map((r) => `${text(r[key])}|${versionText(r)}`));
  const out = new Set<string>();
  for (const r of before) {
    const k = `${text(r[key])}|${versionText(r)}`;
    if (!afterKeys.has(k)) out.add(`${text(r._part)}|${text(r[key])}`);
  }
  return out;
}

function versionText(r: Record<string, unknown>): string {
  return Object.entries(r)
    .filter(([c]) => c !== '_part')
    .map(([, v]) => text(v))
    .join('\u0001');
}
