/**
 * Text-level helpers for rewriting MySQL statements: find words and operators outside quoted
 * strings and names, and replace them there only.
 */

/** Where the string or quoted name starting at `i` ends (the index of its closing quote). */
function closingQuote(sql: string, i: number): number {
  const q = sql[i]!;
  for (let j = i + 1; j < sql.length; j++) {
    if (sql[j] === '\\' && q !== '`') j++;
    else if (sql[j] === q) return j;
  }
  return sql.length;
}

/** Whether any character outside quoted strings and names is one of `chars`; stops at the first. */
export function hasCharOutsideQuotes(sql: string, chars: string): boolean {
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') i = closingQuote(sql, i);
    else if (chars.includes(c)) return true;
  }
  return false;
}

/** The text with the insides of quoted strings and names blanked (same length, so indexes match). */
export function maskQuoted(sql: string): string {
  let out = '';
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const j = closingQuote(sql, i);
      out += c + ' '.repeat(Math.max(0, Math.min(j, sql.length) - i - 1)) + (j < sql.length ? c : '');
      i = j;
    } else out += c;
  }
  return out;
}

/** `re` (global) matched outside quotes; `fn` gets the original text of the match and its groups. */
export function replaceOutsideQuotes(sql: string, re: RegExp, fn: (match: string, ...groups: string[]) => string): string {
  const masked = maskQuoted(sql);
  const withIndices = re.flags.includes('d') ? re : new RegExp(re.source, `${re.flags}d`);
  let out = '';
  let last = 0;
  for (const m of masked.matchAll(withIndices)) {
    const at = m.index!;
    // the match and its groups read from the original text at the same places
    const groups = m.indices!.slice(1).map((span) => (span ? sql.slice(span[0], span[1]) : (undefined as unknown as string)));
    out += sql.slice(last, at) + fn(sql.slice(at, at + m[0].length), ...groups);
    last = at + m[0].length;
  }
  return out + sql.slice(last);
}

/**
 * The names MySQL gives the result columns of a SELECT: each top-level item of the select list
 * as typed, or undefined for an item with an alias, a `*`, or a statement that is no plain
 * SELECT. Used where the statement was rewritten for SQLite, which names columns after the text
 * it ran, and for string literals, which MySQL names after their text (`literalsOnly`: the other
 * items undefined).
 */
export function selectItemNames(sql: string, literalsOnly = false): (string | undefined)[] | undefined {
  return selectItems(sql)?.map((raw) => itemName(raw, literalsOnly));
}

/** The items of a SELECT's select list, as written (alias included); undefined for a statement that is no plain SELECT. */
export function selectItems(sql: string): string[] | undefined {
  return selectList(sql)?.items;
}

/** A SELECT's select list: where it starts, and its items as written (joined with commas, they are the list's text). */
export function selectList(sql: string): { from: number; items: string[] } | undefined {
  const masked = maskQuoted(sql);
  const head = /^\s*select\s+(?:(?:all|distinct|distinctrow|high_priority|straight_join|sql_small_result|sql_big_result|sql_buffer_result|sql_no_cache|sql_cache|sql_calc_found_rows)\s+)*/i.exec(masked);
  if (!head) return undefined;
  const items: string[] = [];
  let depth = 0;
  let from = head[0].length;
  let end = masked.length;
  for (let i = from; i < masked.length; i++) {
    const c = masked[i]!;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === ',') {
      items.push(sql.slice(from, i));
      from = i + 1;
    } else if (depth === 0 && /[a-z]/i.test(c) && !/[\w$]/.test(masked[i - 1] ?? ' ') && /^(from|where|group|having|order|limit|union|into|for|lock|window)\b/i.test(masked.slice(i))) {
      end = i;
      break;
    } else if (depth === 0 && c === ';') {
      end = i;
      break;
    }
  }
  items.push(sql.slice(from, end));
  return { from: head[0].length, items };
}

function itemName(raw: string, literalsOnly: boolean): string | undefined {
  const item = raw.trim();
  // a string literal is named after its text: SELECT 'a''b' is the column a'b
  const literal = /^'((?:[^'\\]|\\.|'')*)'$|^"((?:[^"\\]|\\.|"")*)"$/s.exec(item);
  if (literal) return (literal[1] ?? literal[2]!).replace(/''|""/g, (x) => x[0]!).replace(/\\(.)/gs, '$1');
  if (literalsOnly) return undefined;
  const m = maskQuoted(item);
  if (m === '*' || /\.\s*\*$/.test(m)) return undefined;
  if (/\sas\s+(`[^`]*`|"[^"]*"|'[^']*'|\w+)$/i.test(m)) return undefined;
  // a qualified column (`c.name`, `db.t.name`) is named after the column alone
  const column = /^(?:(?:`[^`]*`|[A-Za-z_][\w$]*)\s*\.\s*){1,2}(`[^`]*`|[A-Za-z_][\w$]*)$/.exec(item);
  if (column) return column[1]!.replace(/^`(.*)`$/s, '$1');
  // `expr name`: a last word that is a name, after a complete expression (not after an operator)
  const words = m.split(/\s+/);
  const last = words[words.length - 1]!;
  const prev = words[words.length - 2];
  if (prev !== undefined && /^(`.*`|[A-Za-z_][\w$]*)$/.test(last) && !NOT_ALIASES.has(last.toUpperCase()) && !OPERATOR_WORDS.has(prev.toUpperCase()) && !/[-+*/%=<>!|&^~,(]$/.test(prev)) return undefined;
  return item;
}

/** Words that end an expression without being an alias. */
const NOT_ALIASES = new Set(['NULL', 'TRUE', 'FALSE', 'UNKNOWN', 'END', 'ASC', 'DESC', 'MICROSECOND', 'SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR']);
/** Words after which the next word is an operand, not an alias. */
const OPERATOR_WORDS = new Set(['AND', 'COLLATE', 'OR', 'XOR', 'NOT', 'IS', 'IN', 'LIKE', 'RLIKE', 'REGEXP', 'BETWEEN', 'DIV', 'MOD', 'THEN', 'ELSE', 'WHEN', 'CASE', 'INTERVAL', 'DISTINCT', 'BINARY', 'ESCAPE', 'SOUNDS']);

/** Index of the `)` that closes the `(` at `open` (in masked text), or -1. */
export function closingParen(masked: string, open: number): number {
  let depth = 0;
  for (let j = open; j < masked.length; j++) {
    if (masked[j] === '(') depth++;
    else if (masked[j] === ')' && --depth === 0) return j;
  }
  return -1;
}

/** The text with what is inside nested parentheses blanked (same length): what is left is its top level. */
export function topLevel(masked: string): string {
  let depth = 0;
  let out = '';
  for (const c of masked) {
    if (c === ')') depth--;
    out += depth > 0 ? ' ' : c;
    if (c === '(') depth++;
  }
  return out;
}

/** The [start, end) of each comma-separated item of masked text between `from` and `to`, at the level of parentheses `from` is at. */
export function topLevelItems(masked: string, from = 0, to = masked.length): [number, number][] {
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

/** The comma-separated items of a list, split outside quotes and parentheses. */
export const splitTopLevel = (list: string): string[] => topLevelItems(maskQuoted(list)).map(([s, e]) => list.slice(s, e));

/** The text with each span [from, to) replaced by its text; the spans in order and apart (an insertion has from = to). */
export function spliceText(text: string, splices: readonly { from: number; to: number; text: string }[]): string {
  let out = '';
  let last = 0;
  for (const sp of splices) {
    out += text.slice(last, sp.from) + sp.text;
    last = sp.to;
  }
  return out + text.slice(last);
}

/** A MySQL name as a regular expression's source: backquoted (a doubled backquote inside) or bare. */
export const NAME_PATTERN = '`(?:[^`]|``)*`|[A-Za-z0-9_$]+';

/** A name as NAME_PATTERN reads it, without its backquotes. */
export const unquotedName = (name: string): string => (name.startsWith('`') ? name.slice(1, -1).replace(/``/g, '`') : name);
