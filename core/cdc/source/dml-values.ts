/**
 * The values an INSERT, REPLACE or UPDATE gives its columns, made what MySQL stores
 * (column-values.ts) before SQLite sees them, so that the table, the capture triggers' after-image
 * and SELECT all hold the stored value, and a value MySQL refuses fails the statement.
 *
 * A literal is stored here and now: the text changes only where the stored value differs
 * (1 → '1.00' in a DECIMAL(10,2)), so the usual statement runs as written. A literal the column
 * refuses, and any other expression, becomes `loupe_store(expr, column, row, strict)`, which
 * SQLite calls as it reaches the row, so errors come in MySQL's row order and name the row.
 *
 * MySQL's DEFAULT is written out as the column's default: in a VALUES row, `INSERT … () VALUES ()`,
 * `SET c = DEFAULT` (INSERT and UPDATE) and the DEFAULT(col) function. A column a VALUES insert
 * leaves out whose literal default is stored differently from how it was written (a DATETIME
 * DEFAULT '2024-01-02') is added with its stored default.
 *
 * INSERT … SELECT reads the selected rows through a CTE and stores each column with loupe_store.
 * An UPDATE with a table alias comes here as SQLite's `UPDATE t AS a SET …`; an UPDATE of several
 * tables (multi-table-dml.ts) stores each assigned value with storedValueOf as it reads the join.
 * Statements of other shapes (INSERT without INTO) run as written; the type-check triggers
 * (createTriggers) still refuse what SQLite cannot hold.
 */
import type { Database, SqlValue } from 'sql.js';
import { storeKind, storeValue, StoreError, type GivenValue, type StoreKind } from './column-values.js';
import { beyondDouble, isSimpleExpression } from './exact-integers.js';
import { rewriteExpressions } from './expression-syntax.js';
import { collecting, currentRow, Diagnostics, duplicateSkipped, silently, warn } from './diagnostics.js';
import { implicitDefault } from './implicit-defaults.js';
import { storedJson } from './json-functions.js';
import { isGivenDefault, q, unquoteIdent, type ColumnDef, type TableDef } from './mysql-ddl.js';
import { NOW_DEFAULT } from './mysql-type-display.js';
import { sqliteLiteral, stringValue } from './mysql-strings.js';
import { maskQuoted, replaceOutsideQuotes, spliceText, topLevel } from './sql-text.js';

const IDENT = '`[^`]+`|"[^"]+"|[A-Za-z_][\\w$]*';
const INSERT = new RegExp(`^\\s*((?:insert|replace)(?:\\s+or\\s+\\w+)?\\s+into)\\s+(${IDENT})\\s*`, 'i');
const UPDATE = new RegExp(`^\\s*(update(?:\\s+or\\s+\\w+)?)\\s+(${IDENT})(?:\\s+as\\s+(${IDENT}))?\\s+set\\s+`, 'i');

/** A column and its store rules, named in a rewritten statement by a number. */
interface Column {
  c: ColumnDef;
  k: StoreKind;
  /** The number loupe_store finds the column by (the same for the same definition). */
  key: number;
  /** Whether an INSERT that leaves the column out must give its default itself (worked out once). */
  givesDefault?: boolean;
}

/** Every column definition met, by its number; the rewritten statements are never kept, so the numbers live as long as the process. */
const columnsByKey: Column[] = [];
const keysByDefinition = new Map<string, number>();
const tableColumns = new WeakMap<TableDef, Column[]>();

function columnsOf(def: TableDef): Column[] {
  let cols = tableColumns.get(def);
  if (!cols) {
    cols = def.columns.map((c) => {
      const json = JSON.stringify(c);
      let key = keysByDefinition.get(json);
      if (key === undefined) {
        key = columnsByKey.push({ c, k: storeKind(c), key: columnsByKey.length }) - 1;
        keysByDefinition.set(json, key);
      }
      return columnsByKey[key]!;
    });
    tableColumns.set(def, cols);
  }
  return cols;
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The SQL functions the rewritten statements call. */
export function registerStoreFunctions(db: Database): void {
  db.create_function('loupe_row', (rowid: SqlValue) => currentRow(Number(rowid)));
  db.create_function('loupe_duplicate', (message: SqlValue) => {
    duplicateSkipped(String(message));
    return null;
  });
  db.create_function('loupe_store', (v: SqlValue, key: SqlValue, row: SqlValue, strict: SqlValue) => {
    const col = columnsByKey[Number(key)];
    if (!col) return v;
    return storeValue(col.c, col.k, { value: v }, Number(row), strict === 1);
  });
  // a JSON column's value (json(): its text as MySQL stores JSON)
  db.create_function('loupe_json', (v: SqlValue, column: SqlValue) => {
    if (v === null) return null;
    if (typeof v !== 'string') throw new StoreError(3140, `Invalid JSON text: "not a JSON text, may need CAST" at position 0 in value for column '${String(column)}'.`);
    return storedJson(v, String(column));
  });
  // a NULL (or a left-out column without a DEFAULT) where MySQL stores the column's implicit default, with its warning
  db.create_function('loupe_not_null', (v: SqlValue, key: SqlValue, code: SqlValue, row: SqlValue) => {
    if (v !== null) return v;
    const col = columnsByKey[Number(key)]!;
    if (Number(code) === 1048) warn(1048, `Column '${col.c.name}' cannot be null`);
    else if (Number(row) === 1) warn(1364, `Field '${col.c.name}' doesn't have a default value`);
    return implicitDefault(col.k) ?? null;
  });
  // an INTEGER beyond 2^53 as its digits (wrapExact): given as a literal's digits are
  db.create_function('loupe_store_digits', (digits: SqlValue, key: SqlValue, row: SqlValue, strict: SqlValue) => {
    const col = columnsByKey[Number(key)]!;
    return storeValue(col.c, col.k, { value: Number(digits), numeric: String(digits) }, Number(row), strict === 1);
  });
  db.create_function('loupe_no_default', (name: SqlValue) => {
    throw new StoreError(1364, `Field '${String(name)}' doesn't have a default value`);
  });
}

/**
 * How a write stores what a column refuses. Strict mode without IGNORE fails the statement; IGNORE,
 * or a sql_mode without strict mode, stores the nearest value with a warning, and a NULL for a NOT
 * NULL column as the column's implicit default (1048), which outside strict mode only a statement
 * of several rows does: MySQL refuses a single row's NULL in any mode.
 */
export interface WriteMode {
  /** Strict mode and no IGNORE: a refused value is the statement's error. */
  strict: boolean;
  /** INSERT/UPDATE … IGNORE. */
  ignore: boolean;
  /** 0 for the AUTO_INCREMENT column takes the next value, as NULL does (sql_mode without NO_AUTO_VALUE_ON_ZERO). */
  zeroGeneratesId: boolean;
}

/** The statement with its column values as MySQL stores them, or undefined when it is left as it is. */
export function rewriteStoredValues(text: string, tables: Map<string, TableDef>, mode: WriteMode): string | undefined {
  const strict = mode.strict;
  const ins = INSERT.exec(text);
  if (ins) {
    const def = tables.get(unquoteIdent(ins[2]!));
    return def ? rewriteInsert(text, ins, def, mode) : undefined;
  }
  const upd = UPDATE.exec(text);
  if (upd) {
    const def = tables.get(unquoteIdent(upd[2]!));
    if (!def) return undefined;
    const start = upd[0].length;
    const list = scanList(text, start, UPDATE_END);
    if (!list) return undefined;
    // an error or warning names the row the UPDATE is on (its ordinal, counted by rowid)
    const set = rewriteAssignments(list.items, def, strict, `loupe_row(${upd[3] ?? upd[2]}.rowid)`, !strict);
    return set === undefined ? undefined : `${text.slice(0, start)}${set}${list.end < text.length ? ' ' : ''}${text.slice(list.end)}`;
  }
  return undefined;
}

/** The SQL for `raw` given to a column of `def` by an assignment (`SET c = raw`), as the column stores it. */
export function storedValueOf(raw: string, column: string, def: TableDef, strict: boolean): string {
  const col = columnsOf(def).find((x) => x.c.name.toLowerCase() === column.toLowerCase());
  return col ? valueFor(raw, col, def, 1, strict) : raw;
}

/** Where an UPDATE's assignments end. */
const UPDATE_END = /(?:where|order\s+by|limit)\b/iy;

function rewriteInsert(text: string, head: RegExpExecArray, def: TableDef, mode: WriteMode): string | undefined {
  const strict = mode.strict;
  const all = columnsOf(def);
  let at = head[0].length;
  let named: Column[] = all;
  let listed = false;
  if (text[at] === '(' && !/^\(\s*(select|with)\b/i.test(text.slice(at, at + 20))) {
    const group = scanList(text, at + 1);
    if (!group || text[group.end] !== ')') return undefined;
    const names = group.items.map((n) => unquoteIdent(n.trim()).toLowerCase());
    named = [];
    if (names.length > 1 || names[0] !== '') {
      for (const n of names) {
        const col = all.find((x) => x.c.name.toLowerCase() === n);
        if (!col) return undefined; // SQLite names the unknown column
        named.push(col);
      }
    }
    listed = true;
    at = group.end + 1;
  }
  // outside strict mode (or under IGNORE) a NOT NULL column left out without a DEFAULT takes its
  // implicit default, with warning 1364 once, before any row's (check_that_all_fields_are_given_values)
  const omitted = listed ? all.filter((x) => !named.includes(x) && ((x.givesDefault ??= needsStoredDefault(x)) || (!strict && lacksDefault(x)))) : [];
  for (const x of omitted) if (!strict && lacksDefault(x)) warn(1364, `Field '${x.c.name}' doesn't have a default value`);
  VALUES.lastIndex = at;
  const values = VALUES.exec(text);
  if (!values) {
    // INSERT … SELECT: the selected row goes through loupe_store column by column
    const rest = text.slice(at);
    if (!/^\s*(select|with|\()/i.test(rest) || named.length === 0) return undefined;
    const conflict = topLevel(maskQuoted(rest)).search(/(?<![\w$])on\s+conflict\b/i);
    const source = (conflict < 0 ? rest : rest.slice(0, conflict)).trim();
    const tail = conflict < 0 ? '' : upsert(rest.slice(conflict), def, strict);
    return insertSelect(head, def, named, omitted, source, mode, tail);
  }
  // a NULL for a NOT NULL column: the implicit default under IGNORE, and outside strict mode in a statement of several rows
  const nulls = mode.ignore || (!strict && countRows(text, at + values[0].length) > 1);
  // VALUES (…), (…): each row's values, DEFAULT and literals stored here; the text changes only
  // where a value does (a splice), and for the columns left out that give their defaults
  const splices: { from: number; to: number; text: string }[] = [];
  const every = named.length === 0;
  if (every) splices.push({ from: head[0].length, to: at, text: ` (${all.map((x) => q(x.c.name)).join(', ')}) ` });
  // the columns left out come first, so that their defaults' warnings (1364) come before the rows' own, as MySQL checks them first
  else if (omitted.length) splices.push({ from: head[0].length + 1, to: head[0].length + 1, text: `${omitted.map((x) => q(x.c.name)).join(', ')}, ` });
  let i = at + values[0].length;
  for (let row = 1; ; row++) {
    if (text[i] !== '(') return undefined;
    const group = scanList(text, i + 1);
    if (!group || text[group.end] !== ')') return undefined;
    const { items, end } = group;
    if (every) {
      // `()` with no columns named: every column takes its default
      if (items.length !== 1 || items[0]!.trim() !== '') return undefined; // SQLite says 1136
      splices.push({ from: i + 1, to: end, text: all.map((x) => defaultFor(x, row, strict)).join(', ') });
    } else {
      if (items.length !== named.length) return undefined; // SQLite says 1136
      if (omitted.length) splices.push({ from: i + 1, to: i + 1, text: `${omitted.map((x) => defaultFor(x, row, strict, false)).join(', ')}, ` });
      let from = i + 1;
      // a value may name a column of the row (VALUES (10, n * 2.5)): the value set before it
      const earlier = new Map<string, string>();
      for (let j = 0; j < items.length; j++) {
        const raw = items[j]!;
        const given = withRowColumns(raw, def, earlier, row, strict);
        const stored = idValue(valueFor(given, named[j]!, def, row, strict, nulls), named[j]!, mode);
        if (stored !== raw) splices.push({ from, to: from + raw.length, text: stored });
        // an AUTO_INCREMENT value is made after the others: one left to it reads as 0
        earlier.set(named[j]!.c.name.toLowerCase(), named[j]!.c.autoIncrement && /^\s*(?:null|0)\s*$/i.test(raw) ? '0' : stored);
        from += raw.length + 1;
      }
    }
    i = end + 1;
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text[i] !== ',') break;
    i++;
    while (i < text.length && /\s/.test(text[i]!)) i++;
  }
  const rest = text.slice(i);
  const tail = /^on\s+conflict\b/i.test(rest) ? upsert(rest, def, strict) : rest;
  if (tail !== rest) splices.push({ from: i, to: text.length, text: tail });
  if (splices.length === 0) return undefined;
  return spliceText(text, splices);
}

const VALUES = /\s*values?\s*/iy;

const COLUMN_REF = /(?<![\w$.`@])(?:(`(?:[^`]|``)+`|[A-Za-z_][\w$]*)\s*\.\s*)?(`(?:[^`]|``)+`|[A-Za-z_][\w$]*)(?![\w$.`]|\s*\()/g;

/**
 * A VALUES item's references to the table's columns (MySQL: "an expression can refer to any
 * column that was set earlier in a value list"): a column the row set before it is that value as
 * stored, any other column its default, as MySQL reads a column not yet assigned.
 */
function withRowColumns(raw: string, def: TableDef, earlier: Map<string, string>, row: Row, strict: boolean): string {
  if (literal(raw.trim()) !== undefined) return raw;
  const masked = maskQuoted(raw);
  if (!/[A-Za-z_`]/.test(masked)) return raw;
  const splices: { from: number; to: number; text: string }[] = [];
  for (const m of masked.matchAll(COLUMN_REF)) {
    const before = masked.slice(0, m.index!);
    // a type (CAST(x AS DATE)), a collation, an interval's unit (INTERVAL 1 DAY): no column
    if (/(?<![\w$])(?:as|collate)\s+$/i.test(before) || /(?<![\w$])interval\s+[^,()]+\s+$/i.test(before)) continue;
    const table = m[1] === undefined ? undefined : raw.slice(m.index!, m.index! + m[1].length);
    if (table !== undefined && unquoteIdent(table).toLowerCase() !== def.name.toLowerCase()) continue;
    const key = unquoteIdent(raw.slice(m.index! + m[0].length - m[2]!.length, m.index! + m[0].length)).toLowerCase();
    let value = earlier.get(key);
    if (value === undefined) {
      const col = columnsOf(def).find((x) => x.c.name.toLowerCase() === key);
      if (!col) continue;
      value = col.c.autoIncrement ? '0' : defaultFor(col, row, strict, false);
    }
    splices.push({ from: m.index!, to: m.index! + m[0].length, text: `(${value})` });
  }
  return splices.length ? spliceText(raw, splices) : raw;
}

/** `ON CONFLICT DO UPDATE SET …` with its values stored as their columns do. */
function upsert(tail: string, def: TableDef, strict: boolean): string {
  const set = /^on\s+conflict\s+do\s+update\s+set\s+/i.exec(tail);
  if (!set) return tail;
  const list = scanList(tail, set[0].length, UPDATE_END);
  const assigned = list && rewriteAssignments(list.items, def, strict, 1, !strict);
  return assigned === undefined || !list ? tail : `${set[0]}${assigned}${tail.slice(list.end)}`;
}

/**
 * The comma-separated items from `from` up to the `)` that closes the list, the end of the text,
 * or (at the top level) a word `stop` matches: each item's text, and where the list ends. Quotes
 * and nested parentheses are skipped whole. Undefined for an unterminated quote.
 */
function scanList(text: string, from: number, stop?: RegExp): { items: string[]; end: number } | undefined {
  const items: string[] = [];
  let depth = 0;
  let start = from;
  let i = from;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "'" || ch === '"' || ch === '`') {
      const close = closingQuote(text, i);
      if (close < 0) return undefined;
      i = close;
    } else if (ch === '(') depth++;
    else if (ch === ')') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && ch === ',') {
      items.push(text.slice(start, i));
      start = i + 1;
    } else if (stop && depth === 0 && /[a-z]/i.test(ch) && !/[\w$]/.test(text[i - 1] ?? ' ')) {
      stop.lastIndex = i;
      if (stop.test(text)) break;
    }
  }
  items.push(text.slice(start, i));
  return { items, end: i };
}

/** The index of the quote that closes the string or name opened at `i`, or -1. */
function closingQuote(text: string, i: number): number {
  const quote = text[i]!;
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\' && quote !== '`') j++;
    else if (text[j] === quote) {
      if (text[j + 1] === quote) j++;
      else return j;
    }
  }
  return -1;
}

/** `INSERT INTO t (cols) SELECT …` with each selected column through loupe_store. */
function insertSelect(head: RegExpExecArray, def: TableDef, named: Column[], omitted: Column[], source: string, mode: WriteMode, tail: string): string {
  const strict = mode.strict;
  const alias = named.map((_c, i) => `__loupe_c${i}`);
  // an error or warning names the selected row it comes from; INSERT … SELECT counts as several rows
  const stored = [...omitted.map((col) => defaultFor(col, '__loupe_row', strict, false)), ...named.map((col, i) => idValue(notNull(col.c.baseType === 'json' ? json(q(alias[i]!), col, def) : wrap(q(alias[i]!), col, '__loupe_row', strict), col, !strict), col, mode))];
  const cols = [...omitted, ...named].map((x) => q(x.c.name)).join(', ');
  return `${head[1]} ${head[2]} (${cols}) WITH __loupe_src(${alias.map((a) => q(a)).join(', ')}) AS (${source}) SELECT ${stored.join(', ')} FROM (SELECT *, row_number() OVER () AS __loupe_row FROM __loupe_src)${tail ? ` WHERE true ${tail}` : ''}`;
}

/** `a = expr`, `b = DEFAULT` … with each value stored as its column does. */
function rewriteAssignments(parts: string[], def: TableDef, strict: boolean, row: Row = 1, nulls = false): string | undefined {
  const all = columnsOf(def);
  const out: string[] = [];
  const assigned: { col: Column; compared: string }[] = [];
  for (const p of parts) {
    const eq = ASSIGNMENT.exec(p);
    if (!eq) return undefined;
    const name = unquoteIdent(eq[2]!).toLowerCase();
    const col = all.find((x) => x.c.name.toLowerCase() === name);
    if (!col) return undefined;
    const value = valueFor(p.slice(eq[0].length), col, def, row, strict, nulls);
    out.push(`${eq[1]} = ${value}`);
    // the new value as compared with the old: as stored when a literal, else as computed (so that
    // loupe_store's warnings are not given twice)
    assigned.push({ col, compared: value.includes('loupe_store') ? `(${p.slice(eq[0].length).trim()})` : value });
  }
  out.push(...onUpdateNow(all, assigned));
  return out.join(', ');
}

/** The ON UPDATE CURRENT_TIMESTAMP assignments for an UPDATE of `def` giving these columns these values (as SQL compared with the row's). */
export function onUpdateAssignments(def: TableDef, assigned: { column: string; compared: string }[]): string[] {
  const all = columnsOf(def);
  return onUpdateNow(all, assigned.flatMap((a) => all.filter((x) => x.c.name.toLowerCase() === a.column.toLowerCase()).map((col) => ({ col, compared: a.compared }))));
}

/**
 * ON UPDATE CURRENT_TIMESTAMP: a column the assignments leave out takes the time when any value
 * they give differs from the row's (compared byte for byte, as MySQL compares the records: 'abc'
 * to 'ABC' is a change); a row they leave as it was keeps it, and so does a column they assign.
 */
function onUpdateNow(all: Column[], assigned: { col: Column; compared: string }[]): string[] {
  const left = all.filter((x) => x.c.onUpdateNow && !assigned.some((a) => a.col === x));
  if (!left.length || !assigned.length) return [];
  const changed = assigned.map((a) => `${a.compared} IS NOT ${q(a.col.c.name)} COLLATE BINARY`).join(' OR ');
  return left.map((x) => `${q(x.c.name)} = CASE WHEN ${changed} THEN ${now(x)} ELSE ${q(x.c.name)} END`);
}

const ASSIGNMENT = new RegExp(`^\\s*((?:(?:${IDENT})\\.)?(${IDENT}))\\s*=(?!=)`, 'i');

/** A column's value as SQL: DEFAULT written out, a literal stored, anything else wrapped. */
function valueFor(raw: string, col: Column, def: TableDef, row: Row, strict: boolean, nulls = false): string {
  return notNull(storedFor(raw, col, def, row, strict), col, nulls);
}

/** `stored` as a NOT NULL column takes a NULL: its implicit default, with warning 1048 (a literal other than NULL needs nothing). */
function notNull(stored: string, col: Column, nulls: boolean): string {
  if (!nulls || col.c.nullable || col.c.autoIncrement || implicitDefault(col.k) === undefined) return stored;
  const lit = literal(stored.trim());
  return lit && lit.value !== null ? stored : `loupe_not_null(${stored}, ${col.key}, 1048, 1)`;
}

/** A NOT NULL column without a DEFAULT (not AUTO_INCREMENT), which a row leaving it out must give a value. */
const lacksDefault = (col: Column) => !col.c.nullable && !col.c.autoIncrement && col.k.kind !== 'enum' && !isGivenDefault(col.c.defaultExpr) && implicitDefault(col.k) !== undefined;

/** The AUTO_INCREMENT column's value: 0 takes the next value, as NULL does, unless sql_mode has NO_AUTO_VALUE_ON_ZERO. */
function idValue(stored: string, col: Column, mode: WriteMode): string {
  if (!mode.zeroGeneratesId || !col.c.autoIncrement) return stored;
  const lit = literal(stored.trim());
  if (lit && lit.value !== 0) return stored;
  return `nullif(${stored}, 0)`;
}

/** How many rows a VALUES list starting at `from` has. */
function countRows(text: string, from: number): number {
  let rows = 0;
  for (let i = from; text[i] === '('; rows++) {
    const group = scanList(text, i + 1);
    if (!group) break;
    i = group.end + 1;
    while (/\s/.test(text[i] ?? '')) i++;
    if (text[i] !== ',') return rows + 1;
    i++;
    while (/\s/.test(text[i] ?? '')) i++;
  }
  return rows;
}

function storedFor(raw: string, col: Column, def: TableDef, row: Row, strict: boolean): string {
  const text = raw.trim();
  if (keptAsWritten(text, col.k)) return raw;
  if (/^default$/i.test(text)) return defaultFor(col, row, strict);
  // 0x41 is a binary string to MySQL (mysqldump --hex-blob writes a BLOB's value so) and an
  // integer to SQLite: for a string or binary column it is the bytes, as x'41' is
  const hex = /^0x([0-9a-f]+)$/i.exec(text);
  if (hex && BYTE_KINDS.has(col.k.kind)) return storedFor(`x'${hex[1]!.length % 2 ? '0' : ''}${hex[1]}'`, col, def, row, strict);
  // a JSON column stores its text as MySQL's JSON (3140 naming `table.column` for text that is none)
  if (col.c.baseType === 'json') return json(/^default$/i.test(text) ? defaultFor(col, row, strict) : withDefaults(text, def, strict), col, def);
  if (col.k.kind === 'none') return withDefaults(raw, def, strict);
  const lit = literal(text);
  if (lit) return storedLiteral(text, lit, col, row, strict);
  return wrap(withDefaults(text, def, strict), col, row, strict);
}

/** The columns a hex literal gives bytes (column-values.ts reads them as text for a string column). */
const BYTE_KINDS = new Set<StoreKind['kind']>(['text', 'enum', 'set', 'binary', 'none']);

/** The quick answer for the values most statements give: a short plain string for a VARCHAR, an integer within range. */
function keptAsWritten(text: string, k: StoreKind): boolean {
  if (k.kind === 'text' && !k.char && !k.bytes) return text.length - 2 <= k.max && text.charCodeAt(0) === 39 && text.indexOf("'", 1) === text.length - 1 && !text.includes('\\');
  if (k.kind === 'int' && /^-?\d{1,15}$/.test(text)) {
    const n = Number(text);
    return n >= k.minNumber && n <= k.maxNumber;
  }
  return false;
}

/** A row's number: known when the statement is rewritten (a VALUES row), or SQL that gives it for each row. */
type Row = number | string;

const json = (expr: string, col: Column, def: TableDef) => (/^null$/i.test(expr.trim()) ? expr : `loupe_json(${expr}, ${sqlString(`${def.name}.${col.c.name}`)})`);

const wrap = (expr: string, col: Column, row: Row, strict: boolean) =>
  isSimpleExpression(expr) ? wrapExact(expr, col, row, strict) : `loupe_store(${expr}, ${col.key}, ${row}, ${strict ? 1 : 0})`;

/**
 * sql.js gives a JavaScript function an INTEGER as a double, so loupe_store would get a BIGINT
 * beyond 2^53 rounded (4611686018427387907 → …88000). Such an INTEGER goes to
 * loupe_store_digits as its digits instead, read as a literal's are. The expression is written
 * twice, so only a simple one (exact-integers.ts): a column, a literal, or arithmetic of them
 * (`v`, `v + 1`, INSERT … SELECT's columns). An expression with a call or a variable still goes
 * to loupe_store as a double.
 */
const wrapExact = (expr: string, col: Column, row: Row, strict: boolean) =>
  `(CASE WHEN ${beyondDouble(expr)} THEN loupe_store_digits(CAST(${expr} AS TEXT), ${col.key}, ${row}, ${strict ? 1 : 0}) ELSE loupe_store(${expr}, ${col.key}, ${row}, ${strict ? 1 : 0}) END)`;

/** DEFAULT(col) in an expression: the column's default. */
function withDefaults(text: string, def: TableDef, strict: boolean): string {
  if (!/\bdefault\s*\(/i.test(text)) return text;
  return replaceOutsideQuotes(text, new RegExp(`\\bdefault\\s*\\(\\s*(${IDENT})\\s*\\)`, 'gi'), (m, name: string) => {
    const col = columnsOf(def).find((x) => x.c.name.toLowerCase() === unquoteIdent(name).toLowerCase());
    return col ? `(${defaultFor(col, 1, strict)})` : m;
  });
}

/** The column's default as SQL: NULL, the next AUTO_INCREMENT value (NULL), CURRENT_TIMESTAMP, an expression, or a literal as stored. */
function defaultFor(col: Column, row: Row, strict: boolean, warns = true): string {
  const { c } = col;
  const e = c.defaultExpr;
  if (c.autoIncrement) return 'NULL';
  if (!isGivenDefault(e)) {
    if (c.nullable) return 'NULL';
    // an ENUM NOT NULL has its first member as its default (MySQL 8.0 manual, The ENUM Type)
    if (col.k.kind === 'enum' && col.k.members.length) return toSql(col.k.members[0]!);
    // outside strict mode (or under IGNORE) the implicit default, with warning 1364 for each DEFAULT
    // written (a column left out warned once, as the statement was read)
    return !strict && implicitDefault(col.k) !== undefined ? `loupe_not_null(NULL, ${col.key}, 1364, ${warns ? 1 : 0})` : `loupe_no_default(${sqlString(c.name)})`;
  }
  if (NOW_DEFAULT.test(e)) return wrap(now(col), col, row, strict);
  // an expression default is MySQL's expression: its arithmetic and functions as a statement's are (10 / 3 is 3.3333)
  if (e.startsWith('(')) return wrap(rewriteExpressions(e.replace(/\bnow\s*\(\s*\)/gi, "datetime('now')"), {}), col, row, strict);
  const lit = literal(e) ?? { value: e };
  return storedLiteral(e, lit, col, row, strict);
}

/** CURRENT_TIMESTAMP for the column: with milliseconds where it keeps fractional seconds (SQLite's clock has no finer ones). */
function now(col: Column): string {
  if (col.k.kind === 'date') return "date('now')";
  return 'fsp' in col.k && col.k.fsp > 0 ? "strftime('%Y-%m-%d %H:%M:%f', 'now')" : "datetime('now')";
}

/**
 * Whether a column left out of an INSERT must be given its default here: a literal default stored
 * differently from how SQLite keeps it as written, or CURRENT_TIMESTAMP with fractional seconds.
 */
function needsStoredDefault(col: Column): boolean {
  const e = col.c.defaultExpr;
  if (col.k.kind === 'enum' && !col.c.nullable && !isGivenDefault(e)) return col.k.members.length > 0;
  if (e !== null && NOW_DEFAULT.test(e)) return 'fsp' in col.k && col.k.fsp > 0 && col.k.kind !== 'time';
  // an expression default (DEFAULT (UUID())) is stored as a value given would be: cut, clipped or refused
  if (e !== null && e.startsWith('(')) return col.k.kind !== 'none' && !col.c.autoIncrement;
  if (!isGivenDefault(e) || NOW_DEFAULT.test(e) || col.c.autoIncrement || col.k.kind === 'none') return false;
  const lit = literal(e);
  if (!lit) return false;
  try {
    return toSql(silently(() => storeValue(col.c, col.k, lit, 1, true))) !== e;
  } catch {
    return false;
  }
}

/** The literal a value's text is (a number keeps its digits, a string its text), or undefined for an expression. */
function literal(text: string): GivenValue | undefined {
  if (/^'(?:[^'\\]|'')*'$/.test(text)) return { value: text.slice(1, -1).replace(/''/g, "'") };
  // a default as CREATE TABLE wrote it, with MySQL's escapes or in double quotes
  if (/^'(?:[^'\\]|\\.|'')*'$|^"(?:[^"\\]|\\.|"")*"$/s.test(text)) return { value: stringValue(text) };
  // x'41' (and _binary '…', 0x41 and B'…' as charset-introducers.ts and valueFor write them): bytes
  if (/^x'(?:[0-9a-f]{2})*'$/i.test(text)) return { value: Buffer.from(text.slice(2, -1), 'hex') };
  // an integer is the same number to MySQL and SQLite
  if (/^-?\d{1,15}$/.test(text)) return { value: Number(text) };
  if (/^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(text)) return { value: Number(text), numeric: text };
  if (/^[+-]?(?:\d+\.?\d*|\.\d+)e[+-]?\d+$/i.test(text)) return { value: Number(text) };
  if (/^true$/i.test(text)) return { value: 1, numeric: '1' };
  if (/^false$/i.test(text)) return { value: 0, numeric: '0' };
  return undefined;
}

/** A literal as the column stores it, as SQL; one the column refuses is left to loupe_store, so that it fails in its row's turn. */
function storedLiteral(text: string, lit: GivenValue, col: Column, row: Row, strict: boolean): string {
  try {
    const store = () => storeValue(col.c, col.k, lit, typeof row === 'number' ? row : 1, strict);
    let sql: string;
    if (typeof row === 'number') sql = toSql(store());
    else {
      // for each row of an UPDATE: a literal the column takes as it is is stored once, here; one that
      // raises a note or a warning is stored for each row, so that each row raises it, naming its row
      const probe = new Diagnostics();
      sql = toSql(collecting(probe, store));
      if (probe.count) return wrap(text, col, row, strict);
    }
    // the same text for the same value keeps the statement as written
    return sql === text ? text : sql;
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    return wrap(text, col, row, strict);
  }
}

/** A value as an SQLite literal. */
export function toSql(v: SqlValue): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return String(v);
  // a backslash is joined in, so that the rewrites after this one do not read it as an escape
  if (typeof v === 'string') return sqliteLiteral(v);
  return `x'${Buffer.from(v).toString('hex')}'`;
}
