/**
 * MySQL's arithmetic written for SQLite: each expression of `+`, `-`, `*`, `/`, `%`, DIV and MOD
 * (outside quotes, names and comments), and each ROUND and TRUNCATE, becomes one
 * `loupe_calc('mode|steps', operands…)` (mysql-arithmetic.ts), so that exactness goes from operand
 * to result as in MySQL instead of through SQLite's doubles. Operators are read by MySQL's
 * precedence (operator-spans.ts): `*`, `/`, `%`, DIV and MOD are one left-associative level above
 * `+` and `-`; unary minus, `~`, `!`, `^`, BINARY and COLLATE bind tighter. Parenthesized
 * arithmetic and the first argument of ROUND/TRUNCATE are part of the same program; other calls
 * are operands (their own arithmetic gets its own program).
 *
 * The steps say what the text shows and the value cannot: a number literal as written (1.50 is 1.5
 * in SQLite; 1.5e0 is a DOUBLE), a string literal or a string column (read as a DOUBLE), a DECIMAL,
 * DOUBLE, integer, date/time or ENUM column (`kindOf`), SUM/MIN/MAX/AVG of a DECIMAL column.
 * Integer-only `+`, `-` and `*` are left to SQLite, which computes them as MySQL does. A SELECT's
 * own SUM or AVG item becomes a program too, so that it shows as MySQL's DECIMAL (decimal-display.ts).
 */
import { assigns, clauseBefore, endsOperand, matchClose, matchOpen, rewriteOperators, textOf, unaryEnd, unaryStart } from './operator-spans.js';
import { storeKind } from './column-values.js';
import { enumIndex, mentions, setBits } from './column-comparisons.js';
import type { ColumnDef, TableDef } from './mysql-ddl.js';
import { MAX_OPERANDS } from './mysql-arithmetic.js';
import { closingParen, hasCharOutsideQuotes, maskQuoted, selectList, spliceText, topLevelItems } from './sql-text.js';
import type { Token } from './sql-tokens.js';
import { beyondDouble } from './exact-integers.js';

/**
 * What a column is to arithmetic: `cN` DECIMAL of scale N, `i` integer, `b` BIGINT (an integer
 * that may lie beyond a double: handed to JavaScript as its digits, see exactInteger), `f` DOUBLE/FLOAT, `s`
 * string, `t` date/time, an ENUM's or a SET's members (read as its index or its bits, as MySQL does), `x` leave the
 * expression to SQLite (BIT, binary).
 */
export type ArithmeticKind = `c${number}` | 'i' | 'b' | 'f' | 's' | 't' | 'x' | { enum: string[] } | { set: string[] };

const WORDS = /\b(?:div|mod|round|truncate)\b/i;
/**
 * Each column's kind by lower-case name, over the tables the statement mentions; a name that two
 * of them use for columns of different kinds is unknown (seen from the value).
 */
export function columnKinds(text: string, tables: Map<string, TableDef>): (column: string) => ArithmeticKind | undefined {
  let kinds: Map<string, ArithmeticKind | undefined> | undefined;
  return (column) => {
    if (!kinds) {
      kinds = new Map();
      for (const def of tables.values()) {
        if (!mentions(text, def.name)) continue;
        for (const c of def.columns) {
          const name = c.name.toLowerCase();
          const kind = kindOf(c);
          kinds.set(name, kinds.has(name) && JSON.stringify(kinds.get(name)) !== JSON.stringify(kind) ? undefined : kind);
        }
      }
    }
    return kinds.get(column);
  };
}

function kindOf(c: ColumnDef): ArithmeticKind {
  const k = storeKind(c);
  switch (k.kind) {
    case 'decimal':
      return `c${k.scale}`;
    case 'int':
      return k.max - k.min > 1n << 53n ? 'b' : 'i';
    case 'year':
      return 'i';
    case 'real':
      return 'f';
    case 'text':
      return 's';
    case 'enum':
      return { enum: k.members };
    case 'set':
      return { set: k.members };
    case 'date':
    case 'datetime':
    case 'timestamp':
    case 'time':
      return 't';
    default:
      return 'x';
  }
}


const upper = (t: Token | undefined) => (t?.kind === 'word' ? t.text.toUpperCase() : '');
const isOp = (t: Token | undefined, ...ops: string[]) => t?.kind === 'op' && ops.includes(t.text);

/** The operator at `i` as a step (`D` for DIV, `%` for MOD), if it is a binary arithmetic one. */
function binaryAt(t: Token[], i: number): string | undefined {
  const tok = t[i];
  if (!tok || !endsOperand(t[i - 1])) return undefined;
  if (tok.kind === 'op' && ['+', '-', '*', '/', '%'].includes(tok.text)) return tok.text;
  const w = upper(tok);
  return w === 'DIV' ? 'D' : w === 'MOD' ? '%' : undefined;
}
const MULTIPLICATIVE = new Set(['*', '/', '%', 'D']);
const isCall = (t: Token[], i: number, name: string) => upper(t[i]) === name && t[i + 1]?.kind === 'open' && !isOp(t[i - 1], '.');

/**
 * How the statement computes: `w` in a write (INSERT, UPDATE, REPLACE), whose values keep full
 * precision, `e` where division by zero fails it too (strict mode, no IGNORE: MySQL 8.0 manual,
 * "Server SQL Modes", ERROR_FOR_DIVISION_BY_ZERO: "for inserts and updates"), `t` where text
 * that is no number fails it (strict mode makes the truncation warning an error in any statement
 * that changes data).
 */
function modeOf(sql: string, strict: boolean, divisionByZero: boolean): string {
  // `z`: sql_mode without ERROR_FOR_DIVISION_BY_ZERO, where a division by zero is NULL without a word
  const z = divisionByZero ? '' : 'z';
  const verb = /^\s*(insert|update|replace|delete)\b/i.exec(sql)?.[1]?.toLowerCase();
  if (!verb) return z;
  // outside strict mode a write computes as under IGNORE
  const ignore = !strict || /^\s*\w+(?:\s+(?:low_priority|high_priority|delayed|quick))*\s+ignore\b/i.test(sql);
  if (verb === 'delete') return (ignore ? '' : 't') + z;
  return ignore ? `w${z}` : divisionByZero ? 'wet' : 'wtz';
}

const ENDS_VALUE = new Set(['WHERE', 'ORDER', 'LIMIT', 'FROM', 'ON', 'AS']);

/**
 * Whether tokens `from`…`to` are a whole value a write stores: the right side of SET's `col =`, an
 * item of a VALUES row, or an item of the select list of INSERT … SELECT. Such a value is given to
 * the column as its exact text, which the column rounds as MySQL rounds a DECIMAL (half away from
 * zero; a number would be rounded as a DOUBLE, half to even).
 */
function wholeValue(t: Token[], from: number, to: number): boolean {
  const after = t[to + 1];
  if (after && after.kind !== 'comma' && after.kind !== 'close' && !(after.kind === 'op' && after.text === ';') && !(after.kind === 'word' && ENDS_VALUE.has(after.text.toUpperCase()))) return false;
  const before = t[from - 1];
  if (!before) return false;
  if (before.kind === 'op' && before.text === '=') return assigns(t, from - 1);
  if (before.kind !== 'comma' && before.kind !== 'open' && !/^(?:select|distinct)$/i.test(before.kind === 'word' ? before.text : '')) return false;
  if (before.kind === 'word') return isStoredSelectList(t, from - 1);
  // a VALUES row: the parenthesis it is in follows VALUES, or a comma after the row before
  const clause = clauseBefore(t, from - 1);
  if (clause === 'SELECT') return isStoredSelectList(t, from - 1);
  if (clause) return false;
  let open = from - 1;
  for (let depth = 0; open >= 0; open--) {
    const tok = t[open]!;
    if (tok.kind === 'close') open = matchOpen(t, open);
    else if (tok.kind === 'open' && depth-- === 0) break;
  }
  const row = t[open - 1];
  return !!row && ((row.kind === 'word' && /^values?$/i.test(row.text)) || (row.kind === 'comma' && t[open - 2]?.kind === 'close'));
}

/** The open parenthesis around token `i` (-1 at the statement's top level). */
function enclosingOpen(t: Token[], i: number): number {
  for (let j = i - 1; j >= 0; j--) {
    const tok = t[j]!;
    if (tok.kind === 'close') j = matchOpen(t, j);
    else if (tok.kind === 'open') return j;
  }
  return -1;
}

const SET_OPERATORS = new Set(['UNION', 'EXCEPT', 'INTERSECT']);
/** Words before a parenthesized query whose rows are not the ones a write stores. */
const READ_ONLY_QUERY = new Set(['AS', 'FROM', 'JOIN', 'IN', 'EXISTS', 'ANY', 'SOME', 'ALL', 'LATERAL', 'WHERE', 'ON', 'HAVING', 'AND', 'OR', 'NOT', 'XOR']);

/**
 * Whether the select list the item before token `i` belongs to gives the rows an INSERT … SELECT
 * stores (or the value a SET assigns): not a CTE's body, a derived table or a subquery that is
 * compared. Only those values are handed over as exact text; elsewhere the text would be compared
 * as text (`WITH RECURSIVE seq(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM seq WHERE k < 5)` in an
 * INSERT stopped at k = 2, since '2' < 5 is false in SQLite).
 */
function isStoredSelectList(t: Token[], i: number): boolean {
  for (let open = enclosingOpen(t, i + 1); open >= 0; open = enclosingOpen(t, open)) {
    const before = t[open - 1];
    if (!before || before.kind === 'open') continue;
    const word = upper(before);
    if (SET_OPERATORS.has(word) || ((word === 'ALL' || word === 'DISTINCT') && SET_OPERATORS.has(upper(t[open - 2])))) continue;
    if (isOp(before, '=') && assigns(t, open - 1)) return true;
    if (READ_ONLY_QUERY.has(word) || before.kind === 'op') return false;
    if (before.kind === 'comma' && clauseBefore(t, open - 1) === 'FROM') return false;
  }
  return true;
}

/** A program being built: its steps, the operands' texts, and whether anything in it needs MySQL's rules. */
interface Build {
  steps: string[];
  args: string[];
  needed: boolean;
  declined: boolean;
  /** Whether a BIGINT column is an operand: an integer result beyond 2^53 comes back as its digits. */
  wide?: boolean;
}

/**
 * A BIGINT column as a JavaScript function's argument: its digits when the value lies beyond
 * ±(2^53 − 1) (sql.js passes every argument as a double, which would round
 * 4611686018427387907 to 4611686018427387904), the INTEGER otherwise. mysql-arithmetic.ts reads
 * digits with the hint `i` as that exact integer.
 */
export const exactInteger = (column: string): string => `CASE WHEN ${beyondDouble(column)} THEN CAST(${column} AS TEXT) ELSE ${column} END`;

/** The end of the chain of operands and binary operators that starts at `s`, or -1. */
function chainEnd(t: Token[], s: number): number {
  let e = unaryEnd(t, s);
  while (e >= 0 && binaryAt(t, e + 1)) {
    const next = unaryEnd(t, e + 2);
    if (next < 0) return -1;
    e = next;
  }
  return e;
}

/** Compiles the chain `s`…`e` (operands and binary operators) into postfix steps, by precedence. */
function chain(sql: string, t: Token[], s: number, e: number, b: Build, kindOf: (ref: string) => ArithmeticKind | undefined): void {
  const ops: string[] = [];
  const flush = (level: 'all' | 'mul') => {
    while (ops.length && (level === 'all' || MULTIPLICATIVE.has(ops[ops.length - 1]!))) b.steps.push(ops.pop()!);
  };
  let i = s;
  for (;;) {
    const end = unaryEnd(t, i);
    operand(sql, t, i, end, b, kindOf);
    if (end >= e) break;
    const op = binaryAt(t, end + 1)!;
    // integers are added, subtracted and multiplied in SQLite as in MySQL; never divided, and a
    // modulo or DIV by zero is MySQL's warning (or error in a strict write)
    if (op !== '+' && op !== '-' && op !== '*') b.needed = true;
    // left-associative: an operator of the same or a higher level before this one is applied first
    flush(MULTIPLICATIVE.has(op) ? 'mul' : 'all');
    ops.push(op);
    i = end + 2;
  }
  flush('all');
}

/** One operand (`s`…`e`, a unary expression): its prefix signs, then a literal, a parenthesized chain, ROUND/TRUNCATE, or a value passed in. */
function operand(sql: string, t: Token[], s: number, e: number, b: Build, kindOf: (ref: string) => ArithmeticKind | undefined): void {
  let negate = false;
  while (s < e && isOp(t[s], '-', '+')) {
    if (t[s]!.text === '-') negate = !negate;
    s++;
  }
  const tok = t[s]!;
  if (s === e && tok.kind === 'number' && !/^0[xb]/i.test(tok.text)) {
    if (/[.e]/i.test(tok.text)) b.needed = true;
    b.steps.push(`#${tok.text}`);
  } else if (tok.kind === 'open' && matchClose(t, s) === e && e > s + 1 && chainEnd(t, s + 1) === e - 1) {
    chain(sql, t, s + 1, e - 1, b, kindOf);
  } else if ((isCall(t, s, 'ROUND') || isCall(t, s, 'TRUNCATE')) && matchClose(t, s + 1) === e && roundCall(sql, t, s, e, b, kindOf)) {
    // compiled by roundCall
  } else {
    let hint: string;
    const single = s === e || (s + 2 === e && isOp(t[s + 1], '.'));
    let text = textOf(sql, t, s, e);
    if (single && tok.kind === 'string') hint = 's';
    else if (single && (tok.kind === 'name' || tok.kind === 'word')) {
      const kind = kindOf(t[e]!.text.replace(/^`|`$/g, '').toLowerCase());
      if (kind === 'x') b.declined = true;
      if (typeof kind === 'object') {
        // an ENUM in arithmetic is its member's index (Field_enum::val_int), a SET its bits (Field_set::val_int)
        text = 'enum' in kind ? enumIndex(text, kind.enum) : setBits(text, kind.set);
        hint = 'i';
        b.needed = true;
      } else if (kind === 'b') {
        text = exactInteger(text);
        hint = 'i';
        b.wide = true;
      } else hint = kind?.startsWith('c') ? 'c' : (kind ?? '');
    } else hint = aggregateHint(sql, t, s, e, kindOf);
    if (hint !== 'i') b.needed = true;
    b.steps.push(`$${b.args.length}:${hint}`);
    b.args.push(text);
  }
  if (negate) b.steps.push('n');
}

/**
 * SUM, MIN, MAX or AVG of a DECIMAL column: SQLite answers a double, MySQL a DECIMAL of the
 * column's scale (AVG's plus div_precision_increment), which the hint `dN` reads it as. Of a
 * program of exact operands only: the double nearest to an exact value (exact-aggregates.ts),
 * which the hint `c` reads back exactly (the decimals it shows are its own: 21.70 reads as 21.7).
 */
function aggregateHint(sql: string, t: Token[], s: number, e: number, kindOf: (ref: string) => ArithmeticKind | undefined): string {
  const fn = upper(t[s]);
  if (!['SUM', 'MIN', 'MAX', 'AVG'].includes(fn) || t[s + 1]?.kind !== 'open' || matchClose(t, s + 1) !== e) return '';
  let i = s + 2;
  if (upper(t[i]) === 'DISTINCT') i++;
  const last = e - 1;
  // an expression: its program, compiled before this one
  if (upper(t[i]) === 'LOUPE_CALC' && t[i + 1]?.kind === 'open' && matchClose(t, i + 1) === last && t[i + 2]?.kind === 'string' && (fn === 'MIN' || fn === 'MAX' || !/^\s*(?:over|filter)\b/i.test(sql.slice(t[e]!.end)))) {
    const program = t[i + 2]!.text.slice(1, -1);
    const scale = exactScale(program.slice(program.indexOf('|') + 1).split(' '), argumentKinds(t, i + 3, last, kindOf));
    return scale === undefined ? '' : `d${Math.min(scale + (fn === 'AVG' ? 4 : 0), 30)}`;
  }
  // the argument: one column, qualified or not
  if (!(i === last || (i + 2 === last && isOp(t[i + 1], '.'))) || (t[last]!.kind !== 'name' && t[last]!.kind !== 'word')) return '';
  const kind = kindOf(t[last]!.text.replace(/^`|`$/g, '').toLowerCase());
  if (typeof kind !== 'string' || !kind.startsWith('c')) return '';
  return `d${Number(kind.slice(1)) + (fn === 'AVG' ? 4 : 0)}`;
}

/** The kind of each argument of a call from `from` (the comma after its first) to its closing parenthesis `close`: a column's, or unknown. */
function argumentKinds(t: Token[], from: number, close: number, kindOf: (ref: string) => ArithmeticKind | undefined): (ArithmeticKind | undefined)[] {
  const kinds: (ArithmeticKind | undefined)[] = [];
  let start = from + 1;
  for (let k = from + 1; k <= close; k++) {
    const tok = t[k];
    if (tok?.kind === 'open') k = matchClose(t, k);
    else if (k === close || tok?.kind === 'comma') {
      const end = k - 1;
      const column = (start === end || (start + 2 === end && isOp(t[start + 1], '.'))) && (t[end]!.kind === 'name' || t[end]!.kind === 'word');
      kinds.push(column ? kindOf(t[end]!.text.replace(/^`|`$/g, '').toLowerCase()) : undefined);
      start = k + 1;
    }
  }
  return kinds;
}

/**
 * The decimals a program's result shows when all its operands are exact (MySQL's Item result
 * scales: + - % the larger, * the sum, / the left plus div_precision_increment, ROUND/TRUNCATE
 * the places asked, DIV none); undefined for any other.
 */
function exactScale(steps: string[], kinds: (ArithmeticKind | undefined)[]): number | undefined {
  const stack: number[] = [];
  const places: (number | undefined)[] = [];
  for (const st of steps) {
    if (st.startsWith('$')) {
      const [index, hint] = st.slice(1).split(':');
      const kind = kinds[Number(index)];
      if (hint === 'i') stack.push(0);
      else if (hint === 'c' && typeof kind === 'string' && kind.startsWith('c')) stack.push(Number(kind.slice(1)));
      else return undefined;
      places.push(undefined);
    } else if (st.startsWith('#')) {
      if (/e/i.test(st)) return undefined;
      stack.push(st.includes('.') ? st.length - st.indexOf('.') - 1 : 0);
      places.push(/^#\d+$/.test(st) ? Number(st.slice(1)) : undefined);
    } else if (st === 'n') continue;
    else if (st === 'R1' || st === 'R2' || st === 'T2') {
      const d = st === 'R1' ? 0 : places.pop();
      if (st !== 'R1') stack.pop();
      if (d === undefined) return undefined;
      stack.pop();
      places.pop();
      stack.push(d);
      places.push(undefined);
    } else {
      const y = stack.pop()!;
      const x = stack.pop()!;
      places.pop();
      places.pop();
      stack.push(st === '*' ? x + y : st === '/' ? x + 4 : st === 'D' ? 0 : Math.max(x, y));
      places.push(undefined);
    }
  }
  return stack.length === 1 ? Math.min(stack[0]!, 30) : undefined;
}

/** ROUND(x[, d]) or TRUNCATE(x, d) at `s`…`e`, each argument a chain; false (nothing added) when an argument is not one. */
function roundCall(sql: string, t: Token[], s: number, e: number, b: Build, kindOf: (ref: string) => ArithmeticKind | undefined): boolean {
  const args: [number, number][] = [];
  let from = s + 2;
  while (from < e) {
    const end = chainEnd(t, from);
    if (end < 0 || (t[end + 1]?.kind !== 'comma' && end + 1 !== e)) return false;
    args.push([from, end]);
    from = end + 2;
  }
  const truncate = upper(t[s]) === 'TRUNCATE';
  if (args.length < (truncate ? 2 : 1) || args.length > 2) return false;
  for (const [from, end] of args) chain(sql, t, from, end, b, kindOf);
  b.steps.push(truncate ? 'T2' : `R${args.length}`);
  b.needed = true;
  return true;
}

const AGGREGATE_ITEM = /^(?<lead>\s*)(?<aggregate>(?<fn>sum|avg)\s*\(\s*(?<distinct>distinct\s+)?(?<column>(?:(?:`[^`]*`|[A-Za-z_][\w$]*)\s*\.\s*)?(?<name>`[^`]*`|[A-Za-z_][\w$]*))\s*\)(?<over>\s*over\s*(?:\([^()]*\)|[A-Za-z_]\w*))?)(?<alias>\s+(?:as\s+)?(?:`[^`]*`|'[^']*'|"[^"]*"|[A-Za-z_][\w$]*))?(?<tail>\s*)$/i;

/**
 * A SELECT's own items that are SUM or AVG of a DECIMAL or integer column, over a window or not:
 * MySQL answers a DECIMAL (SUM at the column's scale, AVG at it plus div_precision_increment:
 * SUM(price) is '3.99', AVG(n) '2.5000'), SQLite a double (a running SUM of 0.10 and 0.20 is
 * 0.30000000000000004). Each becomes a program of its one value at that scale, which
 * the select list shows as MySQL does (decimal-display.ts).
 */
function shownAggregates(sql: string, kindOf: (column: string) => ArithmeticKind | undefined): string {
  if (!/^\s*select\b/i.test(sql) || !/\b(?:sum|avg)\s*\(/i.test(sql)) return sql;
  const list = selectList(sql);
  if (!list) return sql;
  const { items } = list;
  let changed = false;
  const out = items.map((item, i) => {
    const g = AGGREGATE_ITEM.exec(item)?.groups;
    const kind = g ? kindOf(g.name!.replace(/^`|`$/g, '').toLowerCase()) : undefined;
    const scale = kind === 'i' || kind === 'b' ? 0 : typeof kind === 'string' && kind.startsWith('c') ? Number(kind.slice(1)) : undefined;
    if (!g || scale === undefined) return item;
    changed = true;
    const fn = g.fn!.toLowerCase() as 'sum' | 'avg';
    const alias = g.alias ?? '';
    // over a window the sum stays SQLite's (sql.js registers no window functions), shown as any column's
    if (kind === 'b' && !g.over) return `${g.lead}${exactBigintAggregate(fn, g.column!, !!g.distinct, i)}${alias}${g.tail}`;
    return `${g.lead}loupe_calc('a${i}:|$0:d${scale + (fn === 'avg' ? 4 : 0)}', ${g.aggregate})${alias}${g.tail}`;
  });
  return changed ? sql.slice(0, list.from) + out.join(',') + sql.slice(list.from + items.join(',').length) : sql;
}

/**
 * SUM or AVG of a BIGINT column, exact: SQLite's SUM reaches loupe_calc as a double (the sum
 * 4611686018427387909 as 4611686018427388000) and fails past 2^63 ("integer overflow"), where
 * MySQL's is a DECIMAL(41,0) (AVG's has div_precision_increment decimals more). SQLite adds the
 * values' high 32 bits and their low 32 bits apart, each far from overflowing, and loupe_calc
 * puts the two sums together exactly (hi · 2^32 + lo, divided by the count for AVG), given as
 * their digits (hint `c`: a DECIMAL of scale 0). Both sums stay SQLite's own, so that this costs
 * no JavaScript call per row. DISTINCT values go through exact-aggregates.ts one by one instead.
 */
function exactBigintAggregate(fn: 'sum' | 'avg', column: string, distinct: boolean, item: number): string {
  if (distinct) return numeric(`loupe_${fn}(DISTINCT loupe_calc('a${item}:x|$0:i', ${exactInteger(column)}))`);
  const halves = `CAST(SUM(${column} >> 32) AS TEXT), CAST(SUM(${column} & 4294967295) AS TEXT)`;
  return numeric(fn === 'sum' ? `loupe_calc('a${item}:|$0:c #4294967296 * $1:c +', ${halves})` : `loupe_calc('a${item}:|$0:c #4294967296 * $1:c + $2:c /', ${halves}, COUNT(${column}))`);
}

/**
 * An exact aggregate as a number to SQLite: beyond a double it comes back as its DECIMAL text
 * (aggregateValue), which `HAVING s < 0` or `ORDER BY s` would compare as text (text sorts after
 * every number). CAST makes an integer within 64 bits the exact INTEGER, and anything else the
 * double nearest to it; a number passes as it is.
 */
const numeric = (aggregate: string): string => `CAST(${aggregate} AS NUMERIC)`;

/**
 * Whether the operator at `i` is inside a parenthesized chain that an operator after it takes as
 * its operand, as in `(a + b) / c`: that operator's program holds it, so that the sum stays exact
 * on its way to the division (a program's result handed to another is a double).
 */
function inOperandGroup(t: Token[], i: number): boolean {
  let open = i;
  for (let depth = 0; open >= 0; open--) {
    const tok = t[open]!;
    if (tok.kind === 'close') depth++;
    else if (tok.kind === 'open' && depth-- === 0) break;
  }
  if (open < 0) return false;
  let close = matchClose(t, open);
  if (close < 0 || endsOperand(t[open - 1]) || chainEnd(t, open + 1) !== close - 1) return false;
  // ((a + b)) * c: the outermost of the parentheses around it
  while (t[open - 1]?.kind === 'open' && t[close + 1]?.kind === 'close' && matchClose(t, open - 1) === close + 1) {
    open--;
    close++;
  }
  return binaryAt(t, close + 1) !== undefined;
}

/**
 * The statement with its arithmetic as loupe_calc calls; one without arithmetic is returned as it
 * is, unparsed. `kindOf` tells a column's kind by its lower-case name.
 */
export function rewriteArithmetic(statement: string, kindOf: (column: string) => ArithmeticKind | undefined = () => undefined, strict = true, divisionByZero = true): string {
  const sql = shownAggregates(EXACT_CALLS.test(statement) ? exactIntegerCalls(statement, kindOf) : statement, kindOf);
  // an INSERT of many rows of text (the usual write) is scanned once, without a copy
  if (!hasCharOutsideQuotes(sql, '+-*/%') && !(WORDS.test(sql) && WORDS.test(maskQuoted(sql)))) return sql;
  const mode = modeOf(sql, strict, divisionByZero);
  // each program after the first names its place, so that two alike read their own shown scale (shownScale)
  let programs = 0;
  const rewritten = rewriteOperators(
    sql,
    (tok, t, i) => (binaryAt(t, i) !== undefined && !inOperandGroup(t, i)) || isCall(t, i, 'ROUND') || isCall(t, i, 'TRUNCATE'),
    (text, t, k) => {
      // the whole expression: from the operand before its first operator to the chain's end; a call
      // inside a chain left to SQLite (an ENUM operand) is compiled alone, keeping the chain's order
      const call = !binaryAt(t, k);
      const from = call ? k : unaryStart(t, k - 1);
      if (from < 0 || (!call && binaryAt(t, from - 1))) return undefined;
      const to = call && binaryAt(t, k - 1) ? unaryEnd(t, k) : chainEnd(t, from);
      if (to < 0 || to < k) return undefined;
      const b: Build = { steps: [], args: [], needed: false, declined: false };
      chain(text, t, from, to, b, kindOf);
      // SUM and AVG of integers are DECIMALs too (exact-aggregates.ts takes the program's values)
      if (aggregateArgument(t, from, to)) b.needed = true;
      if (!b.needed || b.declined || b.args.length > MAX_OPERANDS) return undefined;
      const place = programs++;
      const flags = `${place ? `${place}:` : ''}${mode}${mode.includes('w') && wholeValue(t, from, to) ? 'v' : ''}`;
      const program = `loupe_calc('${flags}|${b.steps.join(' ')}'${b.args.map((a) => `, ${a}`).join('')})`;
      // an integer result beyond 2^53 comes back as its digits (mysql-arithmetic.ts), which the
      // CAST makes the INTEGER again (a number passes unchanged); not SUM's or AVG's argument,
      // whose exact text exact-aggregates.ts reads, nor a write's value
      const wide = b.wide && !/[wt]/.test(mode) && !aggregateArgument(t, from, to);
      return { from, to, text: wide ? `CAST(${program} AS NUMERIC)` : program };
    },
  );
  return /\b(?:sum|avg)\s*\(/i.test(rewritten) ? exactAggregates(rewritten) : rewritten;
}

const EXACT_CALLS = /\b(?:concat|greatest|least)\s*\(/i;
const COLUMN_REF = /^(?:(?:`[^`]*`|[A-Za-z_][\w$]*)\s*\.\s*)?(`[^`]*`|[A-Za-z_][\w$]*)$/;

/**
 * CONCAT, GREATEST and LEAST of BIGINT columns, which are JavaScript functions (mysql-functions.ts)
 * and would get a value beyond 2^53 as a double: CONCAT(v, '') gave '4611686018427388000'. CONCAT
 * is given such a column as its digits (exactInteger), which are the text MySQL writes;
 * GREATEST and LEAST of integer columns and integer literals only are SQLite's max and min,
 * which compare the INTEGERs as MySQL does (and are NULL when an argument is).
 */
function exactIntegerCalls(sql: string, kindOf: (column: string) => ArithmeticKind | undefined): string {
  const masked = maskQuoted(sql);
  const edits: { from: number; to: number; text: string }[] = [];
  for (const m of masked.matchAll(/\b(concat|greatest|least)(\s*)\(/gi)) {
    if (/[.\w$]/.test(masked[m.index - 1] ?? '')) continue;
    const open = m.index + m[0].length - 1;
    const close = closingParen(masked, open);
    if (close < 0) continue;
    const items = topLevelItems(masked, open + 1, close).map(([from, to]) => {
      const text = sql.slice(from, to);
      const lead = text.length - text.trimStart().length;
      const trimmed = text.trim();
      const ref = COLUMN_REF.exec(trimmed);
      const kind = ref ? kindOf(ref[1]!.replace(/^`|`$/g, '').toLowerCase()) : undefined;
      return { from: from + lead, to: from + lead + trimmed.length, text: trimmed, kind };
    });
    if (!items.some((it) => it.kind === 'b')) continue;
    if (m[1]!.toLowerCase() === 'concat') {
      for (const it of items) if (it.kind === 'b') edits.push({ from: it.from, to: it.to, text: exactInteger(it.text) });
    } else if (items.every((it) => it.kind === 'b' || it.kind === 'i' || /^-?\d{1,18}$/.test(it.text))) {
      edits.push({ from: m.index, to: m.index + m[1]!.length, text: m[1]!.toLowerCase() === 'greatest' ? 'max' : 'min' });
    }
  }
  return edits.length ? spliceText(sql, edits.sort((a, b) => a.from - b.from)) : sql;
}

/** Whether tokens `from`…`to` are the whole argument of SUM or AVG (DISTINCT allowed). */
function aggregateArgument(t: Token[], from: number, to: number): boolean {
  const open = upper(t[from - 1]) === 'DISTINCT' ? from - 2 : from - 1;
  if (t[open]?.kind !== 'open' || matchClose(t, open) !== to + 1) return false;
  const name = open - 1;
  return (upper(t[name]) === 'SUM' || upper(t[name]) === 'AVG') && !isOp(t[name - 1], '.');
}

const SUM_OR_AVG = /\b(sum|avg)(\s*\(\s*)(distinct\s+)?(?=loupe_calc\(')/gi;

/** Whether the text at `at` is inside the arguments of a loupe_calc call. */
function argumentOfCalc(masked: string, at: number): boolean {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    if (masked[i] === ')') depth++;
    else if (masked[i] === '(' && depth-- === 0) return masked.slice(Math.max(0, i - 'loupe_calc'.length), i) === 'loupe_calc';
  }
  return false;
}

/**
 * SUM and AVG whose argument is one program: `loupe_sum`/`loupe_avg` (exact-aggregates.ts), given
 * the program's exact values (mode `x`), so that SUM(price * qty) adds DECIMALs as MySQL does. Not
 * a window (`OVER`), nor an aggregate with FILTER.
 */
function exactAggregates(sql: string): string {
  const masked = maskQuoted(sql);
  const edits: { from: number; to: number; text: string }[] = [];
  for (const m of masked.matchAll(SUM_OR_AVG)) {
    const at = m.index;
    if (masked[at - 1] === '.') continue;
    const open = at + m[1]!.length + m[2]!.indexOf('(');
    const close = closingParen(masked, open);
    const call = at + m[0].length;
    const callClose = closingParen(masked, call + 'loupe_calc'.length);
    if (close < 0 || callClose < 0 || masked.slice(callClose + 1, close).trim() !== '' || /^\s*(?:over|filter)\b/i.test(masked.slice(close + 1))) continue;
    const bar = sql.indexOf('|', call);
    const head = `loupe_${m[1]!.toLowerCase()}${m[2]}${m[3] ?? ''}${sql.slice(call, bar)}x`;
    // an operand of another program: that program reads the exact text as it is
    if (argumentOfCalc(masked, at)) {
      edits.push({ from: at, to: bar, text: head });
      continue;
    }
    // the program as it runs, for the select list to find the exact text of its sums
    // (exactTextOf); an aggregate with DISTINCT takes one argument only
    const quote = sql.indexOf("'", call);
    const program = `${sql.slice(quote, bar)}x${sql.slice(bar, masked.indexOf("'", quote + 1) + 1)}`;
    edits.push({ from: at, to: close + 1, text: numeric(`${head}${sql.slice(bar, close)}${m[3] ? '' : `, ${program}`})`) });
  }
  return spliceText(sql, edits);
}
