/**
 * DECIMAL columns compared, sorted and ranked as numbers.
 *
 * The embedded source keeps a DECIMAL as the exact text MySQL shows ('91.50', column-values.ts),
 * in a TEXT column, so that no digit is lost. SQLite then compares such a column with a number as
 * text ('102.25' < 20, '10.00' <> 10) and sorts it as text, where MySQL compares numbers; an
 * UPDATE … WHERE price < 100 would change the wrong rows. sql.js exposes no way to give the column
 * a numeric collation, so the statement is rewritten: where a DECIMAL column is an operand of a
 * comparison (=, <>, <, <=, >, >=, <=>, BETWEEN, IN), an ORDER BY item, or an argument of MIN, MAX,
 * GREATEST or LEAST, it is read as a number, `CAST(col AS NUMERIC)`, whose numeric affinity also
 * makes SQLite read a quoted number on the other side as a number (price > '80'); MIN and MAX
 * give their result back in the column's scale. Elsewhere (the select list, CONCAT, assignments) the column stays the text
 * MySQL would show.
 */
import type { Database, SqlValue } from 'sql.js';
import { storeKind, storeValue } from './column-values.js';
import { unquoteIdent, type ColumnDef, type TableDef } from './mysql-ddl.js';
import { closingParen, maskQuoted } from './sql-text.js';

const IDENT = '`[^`]*`|"[^"]*"|[A-Za-z_][\\w$]*';
/** A column reference, optionally qualified; group 2 is the column. */
const REF = `(?:(?:${IDENT})\\s*\\.\\s*)?(${IDENT})`;
const REF_AT = new RegExp(`(?<![\\w$.\`"])${REF}(?![\\w$.\`"(])`, 'g');
const REF_ALONE = new RegExp(`^\\s*${REF}\\s*$`);
const TARGET = new RegExp(`^\\s*${REF}\\s*=(?!=)`);
const COMPARED_AFTER = /^\s*(?:<=>|<>|!=|<=|>=|=(?!=)|<|>|(?:not\s+)?between\b|(?:not\s+)?in\s*\()/i;
const COMPARED_BEFORE = /(?:<=>|<>|!=|<=|>=|=|<|>)\s*$/;

/** The DECIMAL columns (name in lower case → scale) of the tables a statement names, leaving out names another of them uses for a column of another type. */
export function decimalColumnsIn(text: string, tables: Map<string, TableDef>): Map<string, number> | undefined {
  let found: Map<string, number> | undefined;
  // most statements name no table with a DECIMAL: only those tables are looked for first
  for (const def of tables.values()) {
    const decimals = decimalsOf(def);
    if (!decimals.size || !mentions(text, def.name)) continue;
    for (const [c, scale] of decimals) (found ??= new Map()).set(c.name.toLowerCase(), scale);
  }
  if (!found) return undefined;
  for (const def of tables.values()) {
    if (!mentions(text, def.name)) continue;
    const decimals = decimalsOf(def);
    for (const c of def.columns) if (!decimals.has(c)) found.delete(c.name.toLowerCase());
  }
  return found.size ? found : undefined;
}

const decimalCache = new WeakMap<TableDef, Map<ColumnDef, number>>();
function decimalsOf(def: TableDef): Map<ColumnDef, number> {
  let m = decimalCache.get(def);
  if (!m) {
    m = new Map();
    for (const c of def.columns) {
      const k = storeKind(c);
      if (k.kind === 'decimal') m.set(c, k.scale);
    }
    decimalCache.set(def, m);
  }
  return m;
}

/** Whether the text has `name` as a whole word (a superset of the statement naming it; a later step reads the names outside quotes). */
export function mentions(text: string, name: string): boolean {
  let at = text.indexOf(name);
  while (at >= 0) {
    if (!/[\w$]/.test(text[at - 1] ?? '') && !/[\w$]/.test(text[at + name.length] ?? '')) return true;
    at = text.indexOf(name, at + 1);
  }
  return false;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The statement with its DECIMAL columns read as numbers where they are compared, sorted or ranked; undefined when nothing changes. */
export function readDecimalsAsNumbers(sql: string, decimals: Map<string, number>): string | undefined {
  const masked = maskQuoted(sql);
  const scaleOf = (ref: string) => decimals.get(unquoteIdent(ref).toLowerCase());
  const edits: Edit[] = [];
  const asNumber = (start: number, end: number) => edits.push({ start, end, text: `CAST(${sql.slice(start, end)} AS NUMERIC)` });

  // MIN/MAX of a DECIMAL column: compared as numbers, shown in the column's scale
  for (const m of masked.matchAll(/(?<![\w$.])(min|max)\s*\(/gi)) {
    const open = m.index! + m[0].length - 1;
    const close = closingParen(masked, open);
    if (close < 0) continue;
    const arg = REF_ALONE.exec(sql.slice(open + 1, close));
    const scale = arg ? scaleOf(arg[1]!) : undefined;
    if (scale === undefined) continue;
    const call = `${m[1]}(CAST(${sql.slice(open + 1, close).trim()} AS NUMERIC))`;
    // a window function keeps its OVER clause right after the call
    const windowed = /^\s*over\b/i.test(masked.slice(close + 1));
    edits.push({ start: m.index!, end: close + 1, text: windowed ? call : `loupe_decimal(${call}, ${scale})` });
  }
  // GREATEST/LEAST: each argument that is a DECIMAL column
  for (const m of masked.matchAll(/(?<![\w$.])(greatest|least)\s*\(/gi)) {
    const open = m.index! + m[0].length - 1;
    const close = closingParen(masked, open);
    if (close < 0) continue;
    for (const [s, e] of topLevelItems(masked, open + 1, close)) {
      const arg = REF_ALONE.exec(sql.slice(s, e));
      if (arg && scaleOf(arg[1]!) !== undefined) asNumber(s + arg[0].search(/\S/), s + arg[0].trimEnd().length);
    }
  }
  // ORDER BY items that are a DECIMAL column
  for (const m of masked.matchAll(/(?<![\w$.])order\s+by\b/gi)) {
    const from = m.index! + m[0].length;
    for (const [s, e] of topLevelItems(masked, from, orderByEnd(masked, from))) {
      const item = /^(\s*)(.*?)(\s+(?:asc|desc))?\s*$/is.exec(sql.slice(s, e))!;
      const ref = REF_ALONE.exec(item[2]!);
      if (ref && scaleOf(ref[1]!) !== undefined) asNumber(s + item[1]!.length, s + item[1]!.length + item[2]!.length);
    }
  }
  // comparisons, outside the targets of SET
  const { targets, assignments } = setClauses(masked);
  for (const m of masked.matchAll(REF_AT)) {
    const start = m.index!;
    const end = start + m[0].length;
    // the column is the reference's last name, read from the statement (the mask blanks quoted names)
    if (scaleOf(sql.slice(end - m[1]!.length, end)) === undefined || targets.has(start)) continue;
    const before = masked.slice(0, start).trimEnd();
    const compared = COMPARED_AFTER.test(masked.slice(end)) || (COMPARED_BEFORE.test(before.slice(-3)) && !assignments.has(before.length - 1));
    if (compared) asNumber(start, end);
  }
  if (!edits.length) return undefined;
  return applyEdits(sql, edits);
}

/** The [start, end) of each comma-separated item between `from` and `to`, at that level of parentheses. */
function topLevelItems(masked: string, from: number, to: number): [number, number][] {
  const items: [number, number][] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < to; i++) {
    const c = masked[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      items.push([start, i]);
      start = i + 1;
    }
  }
  items.push([start, to]);
  return items;
}

/** Where an ORDER BY list starting at `from` ends: LIMIT, a closing parenthesis, a semicolon or the end. */
function orderByEnd(masked: string, from: number): number {
  let depth = 0;
  for (let i = from; i < masked.length; i++) {
    const c = masked[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return i;
    else if (c === ';' && depth === 0) return i;
    else if (depth === 0 && /[lfuw]/i.test(c!) && /^(?:limit|for|union|window)\b/i.test(masked.slice(i)) && !/[\w$]/.test(masked[i - 1] ?? '')) return i;
  }
  return masked.length;
}

/**
 * The columns SET assigns (UPDATE … SET and ON CONFLICT DO UPDATE SET), `col =` after SET or a
 * comma of that list: where each target starts, and where its `=` is.
 */
function setClauses(masked: string): { targets: Set<number>; assignments: Set<number> } {
  const targets = new Set<number>();
  const assignments = new Set<number>();
  for (const m of masked.matchAll(/(?<![\w$.])set\b/gi)) {
    const from = m.index! + m[0].length;
    let end = masked.length;
    const stop = /(?<![\w$.])(?:where|order\s+by|limit)\b|;/i.exec(masked.slice(from));
    if (stop) end = from + stop.index;
    for (const [s, e] of topLevelItems(masked, from, end)) {
      const target = TARGET.exec(masked.slice(s, e));
      if (!target) continue;
      targets.add(s + target[0].search(/\S/));
      assignments.add(s + target[0].length - 1);
    }
  }
  return { targets, assignments };
}

function applyEdits(sql: string, edits: Edit[]): string {
  edits.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let last = 0;
  for (const e of edits) {
    if (e.start < last) continue; // inside an edit already made (a column inside MIN/MAX)
    out += sql.slice(last, e.start) + e.text;
    last = e.end;
  }
  return out + sql.slice(last);
}

/** loupe_decimal(x, scale): a number shown as a DECIMAL of that scale ('206.50'), rounded as MySQL stores it. */
export function registerDecimalFunctions(db: Database): void {
  const columns = new Map<number, ColumnDef>();
  db.create_function('loupe_decimal', (value: SqlValue, scale: SqlValue) => {
    if (value === null) return null;
    const s = Number(scale);
    let c = columns.get(s);
    if (!c) columns.set(s, (c = { name: 'loupe_decimal', mysqlType: `decimal(65,${s})`, baseType: 'decimal', args: ['65', String(s)], unsigned: false, nullable: true, defaultExpr: null, autoIncrement: false, onUpdateNow: false }));
    return storeValue(c, storeKind(c), { value }, 1, false);
  });
}
