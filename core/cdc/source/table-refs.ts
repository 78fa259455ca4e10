/**
 * The tables a MySQL statement's table references name (`a AS x JOIN b y ON … , c`), with their
 * aliases and where they are in the text: what multi-table UPDATE/DELETE (multi-table-dml.ts),
 * reads across databases and LOCK TABLES need to know of a statement.
 */
import { unquoteIdent } from './mysql-ddl.js';
import { maskQuoted, topLevel } from './sql-text.js';

export interface TableRef {
  /** The database named with the table (`shop.items`), if any. */
  database?: string;
  table: string;
  /** The name the statement uses for it: its alias, or the table's own name. */
  alias: string;
  aliased: boolean;
  /** Where the table's name (with its database) is in the text given. */
  from: number;
  to: number;
}

const IDENT = '`(?:[^`]|``)*`|"(?:[^"]|"")*"|[A-Za-z_$][\\w$]*';
const FACTOR = new RegExp(`\\s*((?:${IDENT})(?:\\s*\\.\\s*(?:${IDENT}))?)(?:\\s+(?:as\\s+)?(${IDENT}))?`, 'iy');
/** Words that follow a table's name without being its alias. */
const NOT_ALIAS = /^(on|using|join|inner|cross|left|right|full|outer|natural|straight_join|where|set|order|group|having|limit|union|window|for|lock|partition|use|ignore|force|into|values|select)$/i;
const JOIN = /(?<![\w$])(?:straight_join|join)(?![\w$])/gi;

/**
 * The plain tables of a FROM-style list of table references (derived tables and table functions
 * are skipped; parenthesized joins are looked into). `offset` is added to the positions.
 */
export function tableRefs(text: string, offset = 0): TableRef[] {
  const masked = maskQuoted(text);
  const top = topLevel(masked);
  // a factor starts at the beginning, after a top-level comma and after JOIN
  const starts = [0];
  for (let i = 0; i < top.length; i++) if (top[i] === ',') starts.push(i + 1);
  for (const m of top.matchAll(JOIN)) starts.push(m.index! + m[0].length);
  starts.sort((a, b) => a - b);
  const out: TableRef[] = [];
  for (const s of starts) {
    const lead = /^\s*/.exec(text.slice(s))![0].length;
    if (text[s + lead] === '(') {
      const close = closing(masked, s + lead);
      const inner = text.slice(s + lead + 1, close);
      if (!/^\s*(select|with|values|table)\b/i.test(inner)) out.push(...tableRefs(inner, offset + s + lead + 1));
      continue;
    }
    FACTOR.lastIndex = s;
    const m = FACTOR.exec(text);
    if (!m) continue;
    const name = m[1]!;
    const parts = splitName(name);
    if (parts.length === 1 && /^(select|lateral|json_table|dual)$/i.test(parts[0]!)) continue;
    const alias = m[2] && !NOT_ALIAS.test(m[2]) ? unquoteIdent(m[2]) : undefined;
    const from = s + m[0].indexOf(name);
    const table = parts[parts.length - 1]!;
    out.push({ ...(parts.length > 1 ? { database: parts[0] } : {}), table, alias: alias ?? table, aliased: alias !== undefined, from: offset + from, to: offset + from + name.length });
  }
  return out;
}

/** `db . t` → ['db', 't'], unquoted. */
export function splitName(name: string): string[] {
  const parts: string[] = [];
  const re = new RegExp(IDENT, 'g');
  for (const m of name.matchAll(re)) parts.push(unquoteIdent(m[0]));
  return parts;
}

function closing(masked: string, open: number): number {
  let depth = 0;
  for (let j = open; j < masked.length; j++) {
    if (masked[j] === '(') depth++;
    else if (masked[j] === ')' && --depth === 0) return j;
  }
  return masked.length;
}

/** Whether the table references are one table (with or without an alias) and no join. */
export function isSingleTable(text: string): boolean {
  const top = topLevel(maskQuoted(text));
  return !top.includes(',') && !top.includes('(') && top.search(JOIN) < 0;
}

const CLAUSE_START = /(?<![\w$])(?:from|join|straight_join|into|using|(?<!key\s+)update)(?![\w$])/gi;
const CLAUSE_END = /(?<![\w$])(?:where|group|having|order|limit|union|on|using|set|values?|select|window|for|lock|into|partition|except|intersect|returning|natural|left|right|inner|cross|join|straight_join|full)(?![\w$])|[();]/gi;

/**
 * Every plain table a statement names after FROM, JOIN, INTO, UPDATE or USING, at any depth
 * (subqueries included). A loose reading: a word after `EXTRACT(x FROM` may be taken for a table,
 * which only makes the caller look for it.
 */
export function namedTables(text: string): TableRef[] {
  const masked = maskQuoted(text);
  const out = new Map<number, TableRef>();
  for (const m of masked.matchAll(CLAUSE_START)) {
    const start = m.index! + m[0].length;
    CLAUSE_END.lastIndex = start;
    // the list ends at the next clause word, or at a parenthesis (a subquery's own or a column list)
    let end = masked.length;
    for (let e = CLAUSE_END.exec(masked); e; e = CLAUSE_END.exec(masked)) {
      // `FROM (SELECT …)` and `USING (col)`: nothing here, the subquery's own FROM is found by itself
      if (e[0] === '(' && masked.slice(start, e.index).trim() === '') break;
      end = e.index;
      break;
    }
    if (end === masked.length && masked.slice(start).trim().startsWith('(')) continue;
    for (const r of tableRefs(text.slice(start, end), start)) out.set(r.from, r);
  }
  return [...out.values()].sort((a, b) => a.from - b.from);
}
