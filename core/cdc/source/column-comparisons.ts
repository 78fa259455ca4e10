/**
 * Columns the embedded source keeps as text, compared as MySQL compares their types.
 *
 * A DECIMAL is kept as the exact text MySQL shows ('91.50', column-values.ts), in a TEXT column,
 * so that no digit is lost. SQLite then compares such a column with a number as text
 * ('102.25' < 20, '10.00' <> 10) and sorts it as text, where MySQL compares numbers; an
 * UPDATE … WHERE price < 100 would change the wrong rows. sql.js exposes no way to give the column
 * a numeric collation, so the statement is rewritten: where a DECIMAL column is an operand of a
 * comparison (=, <>, <, <=, >, >=, <=>, BETWEEN, IN), an ORDER BY item, or an argument of MIN, MAX,
 * GREATEST or LEAST, it is read as a number, `CAST(col AS NUMERIC)`, whose numeric affinity also
 * makes SQLite read a quoted number on the other side as a number (price > '80'); MIN and MAX
 * give their result back in the column's scale. Elsewhere (the select list, CONCAT, assignments)
 * the column stays the text MySQL would show.
 *
 * A DATE, DATETIME, TIMESTAMP or TIME is kept as MySQL's canonical text ('2024-02-03 10:00:00'),
 * which sorts as the values do, but a literal compared with it is text as typed: MySQL converts
 * '2024-02-03 10:00', 20240203 or '7' (a TIME of 00:00:07) to the column's type first. A literal
 * on the other side of such a comparison is written as the column stores it; one the type does
 * not read (or with fractional seconds) is left as it is.
 *
 * A CHAR, VARCHAR or TEXT compared with a number is compared as a number (MySQL's double
 * comparison), where SQLite would compare the number as text ('abc' > 1). The column is read
 * with loupe_string_number, MySQL's reading of a string as a number: a statement that writes
 * fails on a string that is not a number (1292 "Truncated incorrect DOUBLE value"), as strict mode
 * makes the warning an error; a SELECT reads its leading number, 0 when there is none. The other
 * way round, a number column compared with quoted text that is no number (id = 'abc') gets the
 * text's number in a SELECT (SQLite would call any text greater than any number), and the same
 * 1292 in a write.
 *
 * An IN list whose items are not all of one type against the column (1 and 'a' against a string)
 * is compared item by item, each as `=` would compare it, in the list's order (MySQL's
 * Item_func_in: one comparator per comparison type, the column converted for a type when the
 * first item of that type is reached, the first match ending it). SQLite would give every item
 * the column's affinity ('1x' IN (1, 'a') false, where MySQL reads '1x' as 1), and a write must
 * fail on a row only when an item that reads the column as a number is reached for it.
 *
 * An ENUM is kept as its member's text (column-values.ts); MySQL compares it with a number by the
 * member's index (1-based, 0 for the '' of an invalid value) and sorts it by index, where SQLite
 * compares and sorts the text. The column is read as its index where compared with a number and
 * in ORDER BY (MIN and MAX, which MySQL ranks by text, are left alone).
 */
import type { Database, SqlValue } from 'sql.js';
import { bitCount, isBitOperand } from './bitwise.js';
import { storeKind, storeValue, withZeroDates } from './column-values.js';
import { q, unquoteIdent, type ColumnDef, type TableDef } from './mysql-ddl.js';
import { stringValue } from './mysql-strings.js';
import { closingParen, maskQuoted, selectItems, topLevel, topLevelItems } from './sql-text.js';
import { leadingNumber } from './string-number.js';

const IDENT = '`[^`]*`|"[^"]*"|[A-Za-z_][\\w$]*';
/** A column reference, optionally qualified; group 2 is the column. */
const REF = `(?:(?:${IDENT})\\s*\\.\\s*)?(${IDENT})`;
const REF_AT = new RegExp(`(?<![\\w$.\`"])${REF}(?![\\w$.\`"(])`, 'g');
const REF_ALONE = new RegExp(`^\\s*${REF}\\s*$`);
/** A select item that is a column, with its alias if any (group 1 the column, group 2 the alias). */
const RESULT_ITEM = new RegExp(`^\\s*${REF}(?:\\s+(?:as\\s+)?(${IDENT}))?\\s*$`, 'i');
/** An arithmetic operator after an operand, or one before it (a binary or a unary one). */
const ARITH_AFTER = /\s*(?:[-+*/%](?![>=*])|(?:div|mod)\b)/iy;
const ARITH_BEFORE = /(?:(?<![<>!=])[-+*/%]|(?<![\w$])(?:div|mod))$/i;
/** What a statement must hold for any rewrite here to apply. */
const COMPARES = /[<>=&|]|\b(?:between|in|order\s+by|min|max|greatest|least|loupe_bitnot|loupe_bitxor|loupe_bitand|loupe_bitor|loupe_shl|loupe_shr|bit_count)\b/i;
const TARGET = new RegExp(`^\\s*${REF}\\s*=(?!=)`);
const COMPARED_AFTER = /\s*(?:<=>|<>|!=|<=|>=|=(?!=)|<|>|(?:not\s+)?between\b|(?:not\s+)?in\s*\()/iy;
const COMPARED_BEFORE = /(?:<=>|<>|!=|<=|>=|=|<|>)\s*$/;
/**
 * A quoted or numeric literal at the start of the text (group 1 the space before it, group 2 the
 * literal), a whole operand: what follows ends the expression (a comparison last in a select
 * list is followed by FROM, one named by AS, one sorted by ASC/DESC).
 */
const LITERAL = /(\s*)('(?:[^'\\]|\\.|'')*'|-?\d+(?:\.\d+)?)(?=\s*(?:$|[),;]|(?:and|or|xor|order|group|limit|having|then|else|when|end|union|for|from|as|asc|desc|where|into|window)\b))/iy;
/** A literal and AND, between BETWEEN's two ends. */
const BETWEEN_FIRST = /\s*(?:'(?:[^'\\]|\\.|'')*'|-?\d+(?:\.\d+)?)\s*and\b/iy;
/** The sticky patterns here read the text at an index, without copying what follows it. */
const execAt = (re: RegExp, text: string, at: number) => {
  re.lastIndex = at;
  return re.exec(text);
};
/** A literal and a comparison operator at the end of the text. */
const NUMBER = '-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:e[+-]?\\d+)?';
const NUMBERS_BETWEEN = new RegExp(`\\s*${NUMBER}\\s+and\\s+${NUMBER}(?![\\w.])`, 'iy');
const NUMBER_ALONE = new RegExp(`^\\s*${NUMBER}\\s*$`);
const NUMBER_NEXT = new RegExp(`\\s*${NUMBER}(?![\\w.'"])`, 'y');
/** A numeric literal and a comparison operator at the end of the text. */
const NUMBER_BEFORE = new RegExp(`(?<![\\w.$'"])${NUMBER}\\s*(?:<=>|<>|!=|<=|>=|=|<|>)\\s*$`, 'i');
const LITERAL_BEFORE = /('(?:[^'\\]|\\.|'')*'|(?<![\w.$])-?\d+(?:\.\d+)?)\s*(?:<=>|<>|!=|<=|>=|=|<|>)\s*$/;

/** A column whose comparisons are rewritten: a DECIMAL (read as a number), a date/time type (its literals written as stored), a string or number (against the other), an ENUM (its index against numbers). */
export type ComparedColumn = { kind: 'decimal'; scale: number } | { kind: 'temporal'; column: ColumnDef } | { kind: 'string' } | { kind: 'number' } | { kind: 'enum' | 'set'; members: string[] };

/** The DECIMAL and date/time columns (by lower-case name) of the tables a statement names, leaving out names another of them uses for a column of another type. */
export function comparedColumnsIn(text: string, tables: Map<string, TableDef>): Map<string, ComparedColumn> | undefined {
  let found: Map<string, ComparedColumn> | undefined;
  // most statements name no table with such a column: only those tables are looked for first
  for (const def of tables.values()) {
    const compared = comparedOf(def);
    if (!compared.size || !mentions(text, def.name)) continue;
    for (const [c, how] of compared) {
      const name = c.name.toLowerCase();
      const seen = found?.get(name);
      const differs = seen && (seen.kind !== how.kind || (seen.kind === 'decimal' && seen.scale !== (how as { scale: number }).scale) || (seen.kind === 'temporal' && storeKind(seen.column).kind !== storeKind(c).kind) || ((seen.kind === 'enum' || seen.kind === 'set') && seen.members.join('\0') !== (how as { members: string[] }).members.join('\0')));
      if (differs) (found ??= new Map()).set(name, { kind: 'decimal', scale: -1 });
      else (found ??= new Map()).set(name, how);
    }
  }
  if (!found) return undefined;
  for (const def of tables.values()) {
    if (!mentions(text, def.name)) continue;
    const compared = comparedOf(def);
    for (const c of def.columns) if (!compared.has(c)) found.delete(c.name.toLowerCase());
  }
  // a name that is two different types in two tables is left alone
  for (const [name, how] of found) if (how.kind === 'decimal' && how.scale < 0) found.delete(name);
  return found.size ? found : undefined;
}

const comparedCache = new WeakMap<TableDef, Map<ColumnDef, ComparedColumn>>();
function comparedOf(def: TableDef): Map<ColumnDef, ComparedColumn> {
  let m = comparedCache.get(def);
  if (!m) {
    m = new Map();
    for (const c of def.columns) {
      const k = storeKind(c);
      if (k.kind === 'decimal') m.set(c, { kind: 'decimal', scale: k.scale });
      else if (k.kind === 'date' || k.kind === 'datetime' || k.kind === 'timestamp' || k.kind === 'time') m.set(c, { kind: 'temporal', column: c });
      else if (k.kind === 'text') m.set(c, { kind: 'string' });
      else if (k.kind === 'int' || k.kind === 'real' || k.kind === 'year') m.set(c, { kind: 'number' });
      else if (k.kind === 'enum' || k.kind === 'set') m.set(c, { kind: k.kind, members: k.members });
    }
    comparedCache.set(def, m);
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

/**
 * The statement with its DECIMALs read as numbers, and the literals compared with its dates and
 * times as stored, where they are compared (DECIMALs also where sorted or ranked); undefined when
 * nothing changes. `ignoring`: an UPDATE or DELETE with IGNORE, where strict mode's errors are warnings.
 */
export function compareAsMySql(sql: string, columns: Map<string, ComparedColumn>, ignoring = false): string | undefined {
  // most writes (INSERT … VALUES) compare nothing
  if (!COMPARES.test(sql)) return undefined;
  const masked = maskQuoted(sql);
  const columnOf = (ref: string) => columns.get(unquoteIdent(ref).toLowerCase());
  const scaleOf = (ref: string) => {
    const c = columnOf(ref);
    return c?.kind === 'decimal' ? c.scale : undefined;
  };
  const edits: Edit[] = [];
  // strict mode makes a write fail where a string does not read as a number
  const strict = /^\s*(?:update|delete|insert|replace)\b/i.test(sql) && !ignoring && !/^\s*\w+\s+or\s+ignore\b/i.test(sql) ? 1 : 0;
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
    // a window function keeps its OVER clause right after the call; a comparison (HAVING MAX(p) >
    // 50) compares the number, where the text in the column's scale would compare as text
    const windowed = /^\s*over\b/i.test(masked.slice(close + 1));
    edits.push({ start: m.index!, end: close + 1, text: windowed || isCompared(masked, m.index!, close) ? call : `loupe_decimal(${call}, ${scale})` });
  }
  // GREATEST/LEAST: each argument that is a DECIMAL column; COALESCE, IFNULL and IF's results
  // (IF's condition aside) only where the call is compared (COALESCE(price, 0) > 5), where the
  // column's text would compare as text: left as text where it is only shown
  for (const m of masked.matchAll(/(?<![\w$.])(greatest|least|coalesce|ifnull|if)\s*\(/gi)) {
    const open = m.index! + m[0].length - 1;
    const close = closingParen(masked, open);
    if (close < 0) continue;
    const fn = m[1]!.toLowerCase();
    if (fn !== 'greatest' && fn !== 'least' && !isCompared(masked, m.index!, close)) continue;
    const items = topLevelItems(masked, open + 1, close);
    for (const [s, e] of fn === 'if' ? items.slice(1) : items) {
      const arg = REF_ALONE.exec(sql.slice(s, e));
      if (arg && scaleOf(arg[1]!) !== undefined) asNumber(s + arg[0].search(/\S/), s + arg[0].trimEnd().length);
    }
  }
  // ORDER BY items that are a DECIMAL column (sorted as numbers), an ENUM (by index) or a SET (by its bits); a compound
  // SELECT's ORDER BY names result columns, which SQLite takes no expression of
  const compound = /(?<![\w$.])(?:union|intersect|except)\b/i.test(masked);
  const top = compound ? topLevel(masked) : '';
  for (const m of masked.matchAll(/(?<![\w$.])order\s+by\b/gi)) {
    const from = m.index! + m[0].length;
    // the ORDER BY of a compound SELECT as a whole: its DECIMAL result columns sorted as numbers
    // from a query around it, where SQLite takes expressions (and MySQL's ORDER BY 1 names the first)
    if (compound && top.slice(m.index!, from) === masked.slice(m.index!, from) && /(?<![\w$.])(?:union|intersect|except)\b/i.test(top.slice(0, m.index!))) {
      // the first SELECT's items name the result's columns: a DECIMAL column, under its alias if it has one
      const results = (selectItems(sql) ?? []).map((raw) => {
        const m = RESULT_ITEM.exec(raw);
        return m ? { name: unquoteIdent(m[2] ?? m[1]!), decimal: columnOf(m[1]!)?.kind === 'decimal' } : undefined;
      });
      let wrapped = false;
      for (const [s, e] of topLevelItems(masked, from, orderByEnd(masked, from))) {
        const item = /^(\s*)(.*?)(\s+(?:asc|desc))?\s*$/is.exec(sql.slice(s, e))!;
        const ref = REF_ALONE.exec(item[2]!);
        const result = /^\d+$/.test(item[2]!) ? results[Number(item[2]) - 1] : ref ? results.find((r) => r?.name.toLowerCase() === unquoteIdent(ref[1]!).toLowerCase()) : undefined;
        if (!result?.decimal) continue;
        const at = s + item[1]!.length;
        edits.push({ start: at, end: at + item[2]!.length, text: `CAST(${q(result.name)} AS NUMERIC)` });
        wrapped = true;
      }
      if (wrapped) edits.push({ start: 0, end: 0, text: 'SELECT * FROM (' }, { start: m.index!, end: m.index!, text: ') AS loupe_compound ' });
      continue;
    }
    for (const [s, e] of topLevelItems(masked, from, orderByEnd(masked, from))) {
      const item = /^(\s*)(.*?)(\s+(?:asc|desc))?\s*$/is.exec(sql.slice(s, e))!;
      const ref = REF_ALONE.exec(item[2]!);
      const column = ref ? columnOf(ref[1]!) : undefined;
      const at = s + item[1]!.length;
      if (column?.kind === 'decimal') asNumber(at, at + item[2]!.length);
      else if ((column?.kind === 'enum' || column?.kind === 'set') && !compound) edits.push({ start: at, end: at + item[2]!.length, text: memberNumber(item[2]!, column) });
    }
  }
  // comparisons, outside the targets of SET
  const { targets, assignments } = setClauses(masked);
  for (const m of masked.matchAll(REF_AT)) {
    const start = m.index!;
    const end = start + m[0].length;
    // the column is the reference's last name, read from the statement (the mask blanks quoted names)
    const column = columnOf(sql.slice(end - m[1]!.length, end));
    if (!column || targets.has(start)) continue;
    // an ENUM or SET read by a bit operator or BIT_COUNT is its number, as in arithmetic
    if ((column.kind === 'enum' || column.kind === 'set') && isBitOperand(masked, start, end)) {
      edits.push({ start, end, text: memberNumber(sql.slice(start, end), column) });
      continue;
    }
    const last = lastNonBlank(masked, start);
    const before = masked.slice(Math.max(0, last - 5), last + 1);
    const after = execAt(COMPARED_AFTER, masked, end);
    const preceded = COMPARED_BEFORE.test(before.slice(-3)) && !assignments.has(last);
    const ref = sql.slice(start, end);
    const mixed = (column.kind === 'string' || column.kind === 'enum' || column.kind === 'set') && after && /\($/.test(after[0]) ? mixedList(sql, masked, end + after[0].length) : undefined;
    if (mixed) {
      // the IN list and the column before it become one comparison per item
      const pairs = mixed.items.map((item) => (item.kind === 'null' ? 'NULL' : item.kind === 'text' ? `${ref} = ${item.text}` : `${column.kind === 'enum' || column.kind === 'set' ? memberNumber(ref, column) : `loupe_string_number(${ref}, ${strict})`} = ${item.text}`));
      const any = `(${pairs.join(' OR ')})`;
      edits.push({ start, end: mixed.close + 1, text: /^\s*not\b/i.test(after![0]) ? `(NOT ${any})` : any });
      continue;
    }
    // CASE col WHEN … : the column compared with each WHEN's operand
    if ((column.kind === 'temporal' || column.kind === 'decimal') && /(?<![\w$.])case$/i.test(before)) {
      if (column.kind === 'decimal') asNumber(start, end);
      else {
        for (const at of simpleCaseOperands(masked, end)) {
          const lit = literalAt(sql, at);
          const stored = lit ? storedLiteral(column.column, lit.text) : undefined;
          if (stored !== undefined) edits.push({ ...lit!, text: stored });
        }
      }
      continue;
    }
    const withNumber = () => numberAfter(sql, masked, end, after) || (preceded && NUMBER_BEFORE.test(sql.slice(0, start)));
    if (column.kind === 'enum' || column.kind === 'set') {
      if (withNumber()) edits.push({ start, end, text: memberNumber(ref, column) });
      continue;
    }
    if (column.kind === 'string') {
      // compared with a number, or (in a write, which strict mode refuses it in) an operand of arithmetic
      const arithmetic = strict === 1 && (execAt(ARITH_AFTER, masked, end) !== null || ARITH_BEFORE.test(before));
      if (arithmetic || withNumber()) edits.push({ start, end, text: `loupe_string_number(${ref}, ${strict})` });
      continue;
    }
    if (column.kind === 'decimal' && (after || preceded)) asNumber(start, end);
    for (const lit of literalOperands(sql, masked, start, end, after, preceded)) {
      if (column.kind === 'temporal') {
        const stored = storedLiteral(column.column, lit.text);
        if (stored !== undefined) edits.push({ ...lit, text: stored });
      } else if (lit.text.startsWith("'") && !leadingNumber(unquoted(lit.text)).whole) {
        // a number against text that is no number: MySQL reads the text as a double, which strict
        // mode refuses in a write when a row is compared (loupe_string_number runs for each row)
        edits.push({ ...lit, text: strict ? `loupe_string_number(${lit.text}, 1)` : String(stringNumber(unquoted(lit.text), 0)) });
      }
    }
  }
  // a quoted literal in a write's arithmetic that is no number: strict mode's 1292 for each row it is computed for, as for a column
  if (strict) {
    for (const m of masked.matchAll(/'[^']*'/g)) {
      const literal = sql.slice(m.index!, m.index! + m[0].length);
      const last = lastNonBlank(masked, m.index!);
      if (!leadingNumber(unquoted(literal)).whole && (execAt(ARITH_AFTER, masked, m.index! + m[0].length) !== null || ARITH_BEFORE.test(masked.slice(Math.max(0, last - 5), last + 1)))) {
        edits.push({ start: m.index!, end: m.index! + m[0].length, text: `loupe_string_number(${literal}, 1)` });
      }
    }
  }
  if (!edits.length) return undefined;
  return applyEdits(sql, edits);
}

/** The literal operand starting at `at` (after blanks), where it is one: its place and text. */
function literalAt(sql: string, at: number): Edit | undefined {
  const lit = execAt(LITERAL, sql, at);
  return lit ? { start: at + lit[1]!.length, end: at + lit[1]!.length + lit[2]!.length, text: lit[2]! } : undefined;
}

/** Whether the call from `start` to its closing parenthesis at `close` is an operand of a comparison. */
function isCompared(masked: string, start: number, close: number): boolean {
  return execAt(COMPARED_AFTER, masked, close + 1) !== null || COMPARED_BEFORE.test(masked.slice(Math.max(0, start - 4), start));
}

/** Where each WHEN's operand starts in a simple CASE whose operand ends at `from`, up to its END (nested CASEs and parentheses skipped). */
function simpleCaseOperands(masked: string, from: number): number[] {
  const out: number[] = [];
  let depth = 0;
  let nested = 0;
  for (const m of masked.slice(from).matchAll(/[()]|(?<![\w$.])(?:case|when|end)(?![\w$])/gi)) {
    const word = m[0].toLowerCase();
    if (word === '(') depth++;
    else if (word === ')' && --depth < 0) break;
    else if (depth > 0) continue;
    else if (word === 'case') nested++;
    else if (word === 'end' && nested-- === 0) break;
    else if (word === 'when' && nested === 0) out.push(from + m.index! + m[0].length);
  }
  return out;
}

/** The index of the last character before `at` that is not a blank (-1 when there is none): the end of what precedes a token, without copying the text before it. */
function lastNonBlank(text: string, at: number): number {
  let i = at - 1;
  while (i >= 0 && /\s/.test(text[i]!)) i--;
  return i;
}

/** The literals on the other side of a column's comparison: after its operator (both ends of BETWEEN, the items of IN), or before it. */
function literalOperands(sql: string, masked: string, start: number, end: number, after: RegExpExecArray | null, preceded: boolean): Edit[] {
  const found: Edit[] = [];
  const literal = (at: number) => {
    const lit = literalAt(sql, at);
    if (lit) found.push(lit);
  };
  if (after) {
    const opEnd = end + after[0].length;
    if (/between$/i.test(after[0])) {
      literal(opEnd);
      const and = execAt(BETWEEN_FIRST, sql, opEnd);
      if (and) literal(opEnd + and[0].length);
    } else if (/\($/.test(after[0])) {
      const close = closingParen(masked, opEnd - 1);
      if (close > 0) for (const [s] of topLevelItems(masked, opEnd, close)) literal(s);
    } else literal(opEnd);
  }
  if (preceded) {
    const lit = LITERAL_BEFORE.exec(sql.slice(0, start));
    if (lit) found.push({ start: lit.index, end: lit.index + lit[1]!.length, text: lit[1]! });
  }
  return found;
}

/**
 * A quoted literal's value. The statement's literals are SQLite's by the time it is read here
 * (rewriteStringLiterals, mysql-strings.ts, turns each backslash into char(92)), so only the doubled
 * quotes are left to undo; stringValue undoes those, and is the one reader of MySQL's escapes.
 */
const unquoted = stringValue;

/** Whether the other side of the comparison after a column is a number: a numeric literal, both ends of BETWEEN, or every item of IN (…). */
function numberAfter(sql: string, masked: string, end: number, after: RegExpExecArray | null): boolean {
  if (!after) return false;
  const opEnd = end + after[0].length;
  if (/between$/i.test(after[0])) return execAt(NUMBERS_BETWEEN, sql, opEnd) !== null;
  if (/\($/.test(after[0])) {
    const close = closingParen(masked, opEnd - 1);
    return close > 0 && topLevelItems(masked, opEnd, close).every(([s, e]) => NUMBER_ALONE.test(sql.slice(s, e)));
  }
  return execAt(NUMBER_NEXT, sql, opEnd) !== null;
}

interface ListItem {
  kind: 'number' | 'text' | 'null';
  text: string;
}

/**
 * The items of the IN list opened just before `open` when they are literals of both kinds, numbers
 * and quoted text (NULLs aside, which match nothing), with where the list closes; undefined for a
 * list of one kind or with any other item.
 */
function mixedList(sql: string, masked: string, open: number): { items: ListItem[]; close: number } | undefined {
  const close = closingParen(masked, open - 1);
  if (close < 0) return undefined;
  const items: ListItem[] = [];
  for (const [s, e] of topLevelItems(masked, open, close)) {
    const text = sql.slice(s, e).trim();
    if (NUMBER_ALONE.test(text)) items.push({ kind: 'number', text });
    else if (QUOTED_ALONE.test(text)) items.push({ kind: 'text', text });
    else if (/^null$/i.test(text)) items.push({ kind: 'null', text });
    else return undefined;
  }
  return items.some((i) => i.kind === 'number') && items.some((i) => i.kind === 'text') ? { items, close } : undefined;
}
const QUOTED_ALONE = /^'(?:[^'\\]|\\.|'')*'$/s;

/**
 * An ENUM's index (Field_enum::val_int): 1 for its first member, 0 for the '' an invalid value
 * stores, NULL for NULL. A member with a backslash or a control character is written as bytes, as
 * no later rewrite should read it as an escape.
 */
export function enumIndex(ref: string, members: string[]): string {
  return `CASE ${ref} ${members.map((m, i) => `WHEN ${memberLiteral(m)} THEN ${i + 1}`).join(' ')} WHEN '' THEN 0 END`;
}

const memberLiteral = (m: string) => ([...m].some((ch) => ch === '\\' || ch.charCodeAt(0) < 32) ? `CAST(X'${Buffer.from(m, 'utf8').toString('hex')}' AS TEXT)` : `'${m.replace(/'/g, "''")}'`);

/**
 * A SET's number (Field_set::val_int): the bits of the members it holds, the first member bit 0
 * (SET('a','b','c') holding 'a,c' is 5), NULL for NULL. A SET is stored as its members joined
 * with commas, in the definition's order.
 */
export function setBits(ref: string, members: string[]): string {
  if (!members.length) return `(CASE WHEN ${ref} IS NULL THEN NULL ELSE 0 END)`;
  return `(CASE WHEN ${ref} IS NULL THEN NULL ELSE ${members.map((m, i) => `(instr(',' || ${ref} || ',', ',' || ${memberLiteral(m)} || ',') > 0) * ${2 ** i}`).join(' + ')} END)`;
}

/** An ENUM's index or a SET's bits: what MySQL reads either as in numeric context. */
export const memberNumber = (ref: string, column: { kind: 'enum' | 'set'; members: string[] }) => (column.kind === 'enum' ? enumIndex(ref, column.members) : setBits(ref, column.members));

/** MySQL's reading of a string as a number (the leading number, spaces around it allowed), for a comparison with a number. */
export function stringNumber(value: SqlValue, strict: SqlValue): number | null {
  if (value === null) return null;
  if (typeof value === 'number') return value;
  const text = typeof value === 'string' ? value : Buffer.from(value).toString('utf8');
  const { value: n, whole } = leadingNumber(text);
  if (!whole && strict) throw new Error(`ERROR1292:Truncated incorrect DOUBLE value: '${text}'`);
  return n;
}

/** MySQL's reading of a literal as the column's type, written as the column stores it; undefined when it does not read as one. */
function storedLiteral(c: ColumnDef, literal: string): string | undefined {
  const value: string | number = literal.startsWith("'") ? unquoted(literal) : Number(literal);
  const kind = storeKind(c);
  // fractional seconds round to the column's precision when stored, but compare in full
  if (/\.\d/.test(String(value)) && kind.kind !== 'date') return undefined;
  let stored: SqlValue;
  try {
    stored = withZeroDates(() => storeValue(c, kind, { value }, 1, true));
    // a DATE against a time of day compares as a DATETIME: '2024-02-03' < '2024-02-03 10:00:00'
    if (kind.kind === 'date' && typeof value === 'string' && /\d\s*[ T]\s*\d{1,2}:\d/.test(value)) {
      const asDatetime = { ...c, mysqlType: 'datetime', baseType: 'datetime', args: [] };
      const full = storeValue(asDatetime, storeKind(asDatetime), { value }, 1, true);
      if (typeof full === 'string' && !full.endsWith(' 00:00:00')) stored = full;
    }
  } catch {
    return undefined;
  }
  return typeof stored === 'string' ? `'${stored.replace(/'/g, "''")}'` : undefined;
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

/**
 * loupe_string_number(s, strict) (stringNumber), and loupe_decimal(x, scale): a number shown as a
 * DECIMAL of that scale ('206.50'), rounded as MySQL stores it.
 */
export function registerComparisonFunctions(db: Database): void {
  db.create_function('loupe_string_number', stringNumber);
  // BIT_COUNT beside the step that reads an ENUM or SET argument of it as its number
  db.create_function('bit_count', bitCount);
  const columns = new Map<number, ColumnDef>();
  db.create_function('loupe_decimal', (value: SqlValue, scale: SqlValue) => {
    if (value === null) return null;
    const s = Number(scale);
    let c = columns.get(s);
    if (!c) columns.set(s, (c = { name: 'loupe_decimal', mysqlType: `decimal(65,${s})`, baseType: 'decimal', args: ['65', String(s)], unsigned: false, nullable: true, defaultExpr: null, autoIncrement: false, onUpdateNow: false }));
    return storeValue(c, storeKind(c), { value }, 1, false);
  });
}
