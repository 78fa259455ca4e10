/**
 * MySQL's UPDATE and DELETE of a table with an alias, and of several tables at once, which
 * SQLite's grammar does not take:
 *
 * - `UPDATE t AS a SET a.c = … WHERE a.k = …` and `DELETE FROM t AS a WHERE …` (MySQL 8.0.16+)
 *   become SQLite's own single-table forms, the SET columns unqualified;
 * - `UPDATE a JOIN b ON … SET a.x = …, b.y = … WHERE …`, `DELETE a, b FROM a JOIN b …` and
 *   `DELETE FROM a, b USING a JOIN b …` read the join once into a temporary table (each target
 *   table's rowid and the values the assignments give, stored as the columns store them,
 *   dml-values.ts), then change each target table from it, one after another in the order the
 *   statement names them. A row the join matches several times is changed once, with the values
 *   of its first match, as MySQL does (multi_update::send_data skips a row it has already
 *   updated). The capture triggers log every changed row of every table, table by table, which is
 *   how MySQL's binlog holds them (the first table changed while the join is read, the others
 *   from their temporary tables afterwards: sql_update.cc, sql_delete.cc).
 *
 * ORDER BY and LIMIT are refused with several tables, as MySQL refuses them (ER_WRONG_USAGE).
 */
import { q, type TableDef } from './mysql-ddl.js';
import { MySqlError, mysqlErrors } from './mysql-error.js';
import { onUpdateAssignments, storedValueOf } from './dml-values.js';
import { maskQuoted, topLevel } from './sql-text.js';
import { isSingleTable, splitName, tableRefs, type TableRef } from './table-refs.js';

export type TableDmlPlan = { kind: 'single'; text: string } | { kind: 'multi'; statements: string[] };

/** The temporary table a multi-table statement reads its join into. */
const MATCHED = 'temp.__loupe_mt';

const PLAIN = /^\s*(?:update(?:\s+or\s+\w+)?\s+(?:`[^`]+`|[A-Za-z_$][\w$]*)\s+set\s|delete\s+from\s+(?:`[^`]+`|[A-Za-z_$][\w$]*)\s*(?:$|;|where\b|order\b|limit\b))/i;

const word = (w: string) => new RegExp(`(?<![\\w$])${w}(?![\\w$])`, 'gi');

/** The statement in SQLite's terms, or undefined for one that needs nothing of this (a plain single-table UPDATE/DELETE). */
export function planTableDml(text: string, database: string, tables: Map<string, TableDef>, strict: boolean, copies: Map<string, TableDef> = new Map()): TableDmlPlan | undefined {
  // the usual statements, `UPDATE t SET c = …` and `DELETE FROM t …` with no name qualified, need nothing
  if (PLAIN.test(text) && !maskQuoted(text).includes('.')) return undefined;
  const sql = text.replace(/[\s;]*$/, '');
  const top = topLevel(maskQuoted(sql));
  const upd = /^\s*update(\s+or\s+\w+)?\s+/i.exec(sql);
  const found = (ref: TableRef) => defOf(ref, database, tables, copies);
  if (upd) return planUpdate(sql, top, upd, database, found, strict);
  const del = /^\s*delete\s+/i.exec(sql);
  if (del) return planDelete(sql, top, del[0].length, database, found);
  return undefined;
}

/** Index of the first match of `re` in `top` at or after `from` (-1 when none). */
function find(top: string, re: RegExp, from: number): number {
  re.lastIndex = from;
  const m = re.exec(top);
  return m ? m.index : -1;
}

/** Where the WHERE/ORDER BY/LIMIT tail of a statement starts (its end when it has none). */
function tailStart(top: string, from: number): number {
  const ends = [word('where'), /(?<![\w$])order\s+by(?![\w$])/gi, word('limit')].map((re) => find(top, re, from)).filter((i) => i >= 0);
  return ends.length ? Math.min(...ends) : top.length;
}

function refuseOrderAndLimit(top: string, from: number, verb: 'UPDATE' | 'DELETE'): void {
  // ER_WRONG_USAGE (1221): "Incorrect usage of %s and %s" (MySQL 8.0 error message reference)
  if (find(top, /(?<![\w$])order\s+by(?![\w$])/gi, from) >= 0) throw new MySqlError(1221, 'HY000', `Incorrect usage of ${verb} and ORDER BY`);
  if (find(top, word('limit'), from) >= 0) throw new MySqlError(1221, 'HY000', `Incorrect usage of ${verb} and LIMIT`);
}

interface Assignment {
  target: TableRef;
  column: string;
  value: string;
}

type Lookup = (ref: TableRef) => { def: TableDef; copy: boolean };

function planUpdate(sql: string, top: string, head: RegExpExecArray, database: string, lookup: Lookup, strict: boolean): TableDmlPlan | undefined {
  const defOf = (ref: TableRef) => lookup(ref).def;
  const set = find(top, word('set'), head[0].length);
  if (set < 0) return undefined;
  const refsText = sql.slice(head[0].length, set);
  const refs = tableRefs(refsText, head[0].length);
  if (refs.length === 0) return undefined;
  const listStart = set + 3;
  const tail = tailStart(top, listStart);
  const items = splitTop(sql, top, listStart, tail);
  const single = isSingleTable(refsText);
  const assignments: Assignment[] = [];
  for (const item of items) {
    const eq = /^\s*((?:`(?:[^`]|``)*`|[A-Za-z_$][\w$]*)(?:\s*\.\s*(?:`(?:[^`]|``)*`|[A-Za-z_$][\w$]*)){0,2})\s*=(?!=)/.exec(item);
    if (!eq) return undefined; // SQLite names what it cannot read
    const parts = splitName(eq[1]!);
    const column = parts[parts.length - 1]!;
    const qualifier = parts.length > 1 ? parts[parts.length - 2]! : undefined;
    const db = parts.length > 2 ? parts[0] : undefined;
    const named = `${parts.join('.')}`;
    let target: TableRef | undefined;
    if (qualifier !== undefined) {
      target = refs.find((r) => r.alias === qualifier && (db === undefined || (!r.aliased && (r.database ?? database) === db)));
      if (!target || !defOf(target).columns.some((c) => c.name.toLowerCase() === column.toLowerCase())) throw mysqlErrors.unknownColumn(named);
    } else {
      const having = refs.filter((r) => defOf(r).columns.some((c) => c.name.toLowerCase() === column.toLowerCase()));
      if (having.length === 0) throw mysqlErrors.unknownColumn(column);
      // ER_NON_UNIQ_ERROR (1052)
      if (having.length > 1) throw new MySqlError(1052, '23000', `Column '${column}' in field list is ambiguous`);
      target = having[0]!;
    }
    assignments.push({ target, column, value: item.slice(eq[0].length) });
  }
  if (single) {
    const ref = refs[0]!;
    if (!ref.aliased && !assignments.some((a, i) => /\./.test(/^[^=]*/.exec(items[i]!)![0]))) return undefined;
    // SQLite's own `UPDATE t AS a SET c = …`: the SET columns unqualified
    const list = assignments.map((a) => `${q(a.column)} =${a.value}`).join(', ');
    const name = sql.slice(ref.from, ref.to);
    return { kind: 'single', text: `${head[0]}${name}${ref.aliased ? ` AS ${q(ref.alias)}` : ''} SET ${list}${tail < sql.length ? ` ${sql.slice(tail)}` : ''}` };
  }
  refuseOrderAndLimit(top, tail, 'UPDATE');
  const targets = refs.filter((r) => assignments.some((a) => a.target === r));
  if (targets.some((t) => lookup(t).copy)) throw writesTwoDatabases();
  const rowids = targets.map((t, i) => `${q(t.alias)}.rowid AS __r${i}`);
  const values = assignments.map((a, k) => `${storedValueOf(a.value, a.column, defOf(a.target), strict)} AS __v${k}`);
  const where = tail < sql.length ? ` ${sql.slice(tail)}` : '';
  const statements = [`CREATE TEMP TABLE __loupe_mt AS SELECT ${[...rowids, ...values].join(', ')} FROM ${refsText}${where}`];
  targets.forEach((t, i) => {
    const own = assignments.map((a, k) => ({ a, k })).filter(({ a }) => a.target === t);
    const table = q(t.table);
    statements.push(
      `UPDATE${head[1] ?? ''} ${table} SET ${[...own.map(({ a, k }) => `${q(a.column)} = m.__v${k}`), ...onUpdateAssignments(defOf(t), own.map(({ a, k }) => ({ column: a.column, compared: `m.__v${k}` })))].join(', ')} FROM (SELECT __r${i} AS __r, ${own.map(({ k }) => `__v${k}`).join(', ')}, min(rowid) FROM ${MATCHED} WHERE __r${i} IS NOT NULL GROUP BY __r${i}) AS m WHERE ${table}.rowid = m.__r`,
    );
  });
  statements.push(`DROP TABLE ${MATCHED}`);
  return { kind: 'multi', statements };
}

function planDelete(sql: string, top: string, at: number, database: string, lookup: Lookup): TableDmlPlan | undefined {
  let targetsText: string;
  let refsText: string;
  let refsAt: number;
  let tail: number;
  if (/^from\b/i.test(top.slice(at))) {
    const from = at + 4;
    const using = find(top, word('using'), from);
    tail = tailStart(top, using >= 0 ? using : from);
    if (using < 0) {
      // DELETE FROM t [AS] a …: SQLite's own form
      const refsTextSingle = sql.slice(from, tail);
      const refs = tableRefs(refsTextSingle, from);
      if (refs.length !== 1 || !isSingleTable(refsTextSingle) || !refs[0]!.aliased) return undefined;
      const ref = refs[0]!;
      return { kind: 'single', text: `DELETE FROM ${sql.slice(ref.from, ref.to)} AS ${q(ref.alias)}${tail < sql.length ? ` ${sql.slice(tail)}` : ''}` };
    }
    targetsText = sql.slice(from, using);
    refsAt = using + 5;
    refsText = sql.slice(refsAt, tail);
  } else {
    const from = find(top, word('from'), at);
    if (from < 0) return undefined;
    targetsText = sql.slice(at, from);
    refsAt = from + 4;
    tail = tailStart(top, refsAt);
    refsText = sql.slice(refsAt, tail);
  }
  const refs = tableRefs(refsText, refsAt);
  refuseOrderAndLimit(top, tail, 'DELETE');
  const targets: TableRef[] = [];
  for (const raw of splitTop(targetsText, topLevel(maskQuoted(targetsText)), 0, targetsText.length)) {
    const parts = splitName(raw.trim().replace(/\s*\.\s*\*$/, ''));
    const name = parts[parts.length - 1]!;
    const db = parts.length > 1 ? parts[0] : undefined;
    const ref = refs.find((r) => r.alias === name && (db === undefined || (!r.aliased && (r.database ?? database) === db)));
    // ER_UNKNOWN_TABLE (1109): "Unknown table '%s' in %s"
    if (!ref) throw new MySqlError(1109, '42S02', `Unknown table '${name}' in MULTI DELETE`);
    if (lookup(ref).copy) throw writesTwoDatabases();
    if (!targets.includes(ref)) targets.push(ref);
  }
  targets.sort((a, b) => a.from - b.from);
  const where = tail < sql.length ? ` ${sql.slice(tail)}` : '';
  const statements = [`CREATE TEMP TABLE __loupe_mt AS SELECT ${targets.map((t, i) => `${q(t.alias)}.rowid AS __r${i}`).join(', ')} FROM ${refsText}${where}`];
  targets.forEach((t, i) => statements.push(`DELETE FROM ${q(t.table)} WHERE rowid IN (SELECT __r${i} FROM ${MATCHED})`));
  statements.push(`DROP TABLE ${MATCHED}`);
  return { kind: 'multi', statements };
}

function defOf(ref: TableRef, database: string, tables: Map<string, TableDef>, copies: Map<string, TableDef>): { def: TableDef; copy: boolean } {
  const copy = ref.database === undefined ? copies.get(ref.table) : undefined;
  if (copy) return { def: copy, copy: true };
  const def = ref.database === undefined || ref.database === database ? tables.get(ref.table) : undefined;
  if (!def) throw mysqlErrors.noSuchTable(ref.database ?? database, ref.table);
  return { def, copy: false };
}

/** A statement that would change tables of two databases (the change log's transactions name one). */
export function writesTwoDatabases(): MySqlError {
  return mysqlErrors.notSupported('a statement that writes to two databases in the embedded source');
}

/** The top-level comma-separated items of sql[from, to). */
function splitTop(sql: string, top: string, from: number, to: number): string[] {
  const items: string[] = [];
  let start = from;
  for (let i = from; i < to; i++) {
    if (top[i] === ',') {
      items.push(sql.slice(start, i));
      start = i + 1;
    }
  }
  items.push(sql.slice(start, to));
  return items;
}

const MODIFIERS = '(?:\\s+(?:low_priority|high_priority|delayed|quick|ignore|or\\s+\\w+)(?![\\w$]))*';
const INSERT_HEAD = new RegExp(`^\\s*(?:insert|replace)${MODIFIERS}\\s+(?:into\\s+)?`, 'i');
const UPDATE_HEAD = new RegExp(`^\\s*update${MODIFIERS}\\s+`, 'i');
const DELETE_HEAD = new RegExp(`^\\s*delete${MODIFIERS}\\s+`, 'i');

/**
 * The table a write changes (the first one, for a multi-table UPDATE or DELETE), as the statement
 * names it, or undefined for a read: where a statement that reads other databases runs.
 */
export function writtenRef(text: string): TableRef | undefined {
  const top = topLevel(maskQuoted(text));
  const ins = INSERT_HEAD.exec(text);
  if (ins) return tableRefs(text.slice(ins[0].length), ins[0].length)[0];
  const upd = UPDATE_HEAD.exec(text);
  if (upd) {
    const set = find(top, word('set'), upd[0].length);
    if (set < 0) return undefined;
    const refs = tableRefs(text.slice(upd[0].length, set), upd[0].length);
    const lhs = /^\s*((?:`(?:[^`]|``)*`|[A-Za-z_$][\w$]*)(?:\s*\.\s*(?:`(?:[^`]|``)*`|[A-Za-z_$][\w$]*))*)/.exec(text.slice(set + 3));
    const parts = lhs ? splitName(lhs[1]!) : [];
    const qualifier = parts.length > 1 ? parts[parts.length - 2] : undefined;
    return refs.find((r) => r.alias === qualifier) ?? refs[0];
  }
  const del = DELETE_HEAD.exec(text);
  if (!del) return undefined;
  const at = del[0].length;
  let targets: string;
  let refs: TableRef[];
  if (/^from\b/i.test(top.slice(at))) {
    const using = find(top, word('using'), at + 4);
    if (using < 0) return tableRefs(text.slice(at + 4, tailStart(top, at + 4)), at + 4)[0];
    targets = text.slice(at + 4, using);
    refs = tableRefs(text.slice(using + 5, tailStart(top, using + 5)), using + 5);
  } else {
    const from = find(top, word('from'), at);
    if (from < 0) return undefined;
    targets = text.slice(at, from);
    refs = tableRefs(text.slice(from + 4, tailStart(top, from + 4)), from + 4);
  }
  const first = splitName(targets.split(',')[0]!.trim().replace(/\s*\.\s*\*$/, ''));
  return refs.find((r) => r.alias === first[first.length - 1]) ?? refs[0];
}
