/**
 * INSERT, REPLACE, UPDATE and DELETE through a view, as MySQL 8.0 does them for a view over one
 * table (manual, "Updatable and Insertable Views"): the statement is merged into one on the base
 * table, with the view's column names read as the expressions they stand for and the view's WHERE
 * added to the statement's, so that the change events are the base table's rows, as MySQL's
 * binary log has them. A view that MySQL cannot update answers its errors (1288, 1471, 1348);
 * WITH CHECK OPTION is checked on each row written (1369, embedded-source.ts): a view's own WHERE,
 * and, under CASCADED, those of the views it reads too (MySQL 8.0 manual, "The View WITH CHECK
 * OPTION Clause").
 */
import { MySqlError, mysqlErrors } from './mysql-error.js';
import { unquoteIdent } from './mysql-ddl.js';
import { maskQuoted, NAME_PATTERN as IDENT, selectItems, splitTopLevel } from './sql-text.js';
import { significant, tokenize, type Token } from './sql-tokens.js';
import type { ViewDef } from './views.js';
import { isUpdatable } from './views.js';

/** A name as MySQL text. */
const q = (name: string) => `\`${name.replace(/`/g, '``')}\``;
const TARGET = `((?:${IDENT})(?:\\s*\\.\\s*(?:${IDENT}))?)`;
const INSERT_HEAD = new RegExp(`^\\s*(insert|replace)((?:\\s+(?:low_priority|delayed|high_priority|ignore))*)\\s+(?:into\\s+)?${TARGET}`, 'i');
const UPDATE_HEAD = new RegExp(`^\\s*(update)((?:\\s+(?:low_priority|ignore))*)\\s+${TARGET}(?=\\s+set\\b)`, 'i');
const DELETE_HEAD = new RegExp(`^\\s*(delete)((?:\\s+(?:low_priority|quick|ignore))*)\\s+from\\s+${TARGET}(?=\\s+(?:where|order|limit)\\b|\\s*;?\\s*$)`, 'i');

/** The table a single-table INSERT, REPLACE, UPDATE or DELETE writes, as written (maybe `db.t`), and where its name ends. */
export function writeTarget(sql: string): { verb: 'INSERT' | 'UPDATE' | 'DELETE'; target: string; head: string; end: number } | undefined {
  const masked = maskQuoted(sql);
  const m = INSERT_HEAD.exec(masked) ?? UPDATE_HEAD.exec(masked) ?? DELETE_HEAD.exec(masked);
  if (!m) return undefined;
  const word = m[1]!.toUpperCase();
  return { verb: word === 'REPLACE' ? 'INSERT' : (word as 'INSERT' | 'UPDATE' | 'DELETE'), target: sql.slice(m.index + m[0].length - m[3]!.length, m.index + m[0].length), head: sql.slice(0, m.index + m[0].length - m[3]!.length), end: m.index + m[0].length };
}

/** A view over one table: the table, each view column's expression over it, and the view's condition. */
export interface MergedView {
  table: string;
  /** By lower-case view column: the base column it is, or an expression (not updatable). */
  columns: Map<string, { column?: string; expr: string }>;
  where?: string;
}

const VIEW_SELECT = new RegExp(`^\\s*select\\s+([\\s\\S]+?)\\s+from\\s+(${IDENT})(?:\\s+(?:as\\s+)?(?!where\\b|order\\b)(${IDENT}))?(?:\\s+where\\s+([\\s\\S]+?))?(?:\\s+order\\s+by\\s+[\\s\\S]+)?\\s*$`, 'i');

/**
 * The view's SELECT merged over its one table, or undefined when it reads more than one table or
 * a derived one (MySQL updates some of those; the embedded source does not).
 */
export function mergedView(view: ViewDef, tableColumns: (table: string) => string[] | undefined): MergedView | undefined {
  const masked = maskQuoted(view.select);
  const m = VIEW_SELECT.exec(masked);
  if (!m || /\b(join|straight_join|select)\b|,/i.test(masked.slice(m.index + 7 + m[1]!.length).replace(/\bwhere\b[\s\S]*$/i, '')) || /\blimit\b/i.test(masked)) return undefined;
  const table = unquoteIdent(view.select.slice(masked.indexOf(m[2]!, m.index + 7 + m[1]!.length), masked.indexOf(m[2]!, m.index + 7 + m[1]!.length) + m[2]!.length));
  const base = tableColumns(table);
  if (!base) return undefined;
  const qualifiers = new Set([table.toLowerCase(), ...(m[3] ? [unquoteIdent(m[3]).toLowerCase()] : [])]);
  const unqualified = (text: string) => dropQualifiers(text, qualifiers);
  const items = selectItems(view.select) ?? [];
  const columns = new Map<string, { column?: string; expr: string }>();
  const names = view.columns;
  let n = 0;
  for (const item of items) {
    const expr = unqualified(withoutAlias(item)).trim();
    if (expr === '*') {
      for (const c of base) columns.set((names[n++] ?? c).toLowerCase(), { column: c, expr: q(c) });
      continue;
    }
    const single = /^(?:`(?:[^`]|``)*`|[A-Za-z_][\w$]*)$/.test(expr) ? base.find((c) => c.toLowerCase() === unquoteIdent(expr).toLowerCase()) : undefined;
    const name = names[n++];
    if (name !== undefined) columns.set(name.toLowerCase(), single ? { column: single, expr: q(single) } : { expr: `(${expr})` });
  }
  const whereStart = m[4] === undefined ? -1 : masked.indexOf(m[4], m.index + 7 + m[1]!.length);
  return { table, columns, ...(m[4] !== undefined ? { where: unqualified(view.select.slice(whereStart, whereStart + m[4].length)) } : {}) };
}

const NOT_ALIASES = new Set(['END', 'NULL', 'TRUE', 'FALSE', 'UNKNOWN']);

/** A select item without its alias (`expr AS a`, `expr a`). */
function withoutAlias(item: string): string {
  const t = tokenize(item).filter(significant);
  const last = t.at(-1);
  const before = t.at(-2);
  if (!last || !before || (last.kind !== 'word' && last.kind !== 'name' && last.kind !== 'string')) return item;
  if (before.kind === 'word' && before.text.toUpperCase() === 'AS') return item.slice(0, before.start);
  const operandEnds = before.kind === 'name' || before.kind === 'number' || before.kind === 'string' || before.kind === 'close' || (before.kind === 'word' && !NOT_ALIASES.has(before.text.toUpperCase()));
  return operandEnds && last.kind !== 'string' && !(last.kind === 'word' && NOT_ALIASES.has(last.text.toUpperCase())) ? item.slice(0, last.start) : item;
}

/** `t.c` → `c` for the given qualifiers (lower-case), outside quotes. */
function dropQualifiers(text: string, qualifiers: Set<string>): string {
  const t = tokenize(text);
  let out = '';
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!;
    if ((tok.kind === 'word' || tok.kind === 'name') && qualifiers.has(unquoteIdent(tok.text).toLowerCase()) && t[i + 1]?.kind === 'op' && t[i + 1]!.text === '.') {
      i++;
      continue;
    }
    out += tok.text;
  }
  return out;
}

const ENDS_WHERE = new Set(['ORDER', 'LIMIT']);

/**
 * The statement written through the view, as one on its base table (in `database` when that is
 * not the statement's own), or MySQL's error for a view that cannot take it.
 */
export function writeThroughView(sql: string, at: NonNullable<ReturnType<typeof writeTarget>>, view: ViewDef, merged: MergedView | undefined, database: string | undefined): string {
  const nonUpdatable = () => new MySqlError(at.verb === 'INSERT' ? 1471 : 1288, 'HY000', `The target table ${view.name} of the ${at.verb} is ${at.verb === 'INSERT' ? 'not insertable-into' : 'not updatable'}`);
  if (!isUpdatable(view)) throw nonUpdatable();
  if (!merged) throw mysqlErrors.notSupported(`${at.verb} through the view '${view.name}', which reads more than one table, in the embedded source`);
  const target = database ? `${q(database)}.${q(merged.table)}` : q(merged.table);
  const rest = sql.slice(at.end);
  const column = (name: string) => merged.columns.get(unquoteIdent(name).toLowerCase());
  const base = (name: string) => {
    const c = column(name);
    if (!c) throw mysqlErrors.unknownColumn(unquoteIdent(name), 'field list');
    if (!c.column) throw new MySqlError(1348, 'HY000', `Column '${unquoteIdent(name)}' is not updatable`);
    return q(c.column);
  };
  if (at.verb === 'INSERT') {
    // a view with a column that is no base column takes no INSERT at all
    if ([...merged.columns.values()].some((c) => !c.column)) throw nonUpdatable();
    return at.head + target + insertRest(rest, view, base, (text) => viewNames(text, view, column));
  }
  const t = tokenize(rest);
  let out = '';
  let depth = 0;
  let setTarget = at.verb === 'UPDATE';
  let whereAt = -1;
  let endAt = -1;
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!;
    if (tok.kind === 'open') depth++;
    if (tok.kind === 'close') depth--;
    if (depth === 0 && tok.kind === 'word') {
      const w = tok.text.toUpperCase();
      if (w === 'WHERE' && whereAt < 0) whereAt = out.length + tok.text.length;
      if (ENDS_WHERE.has(w) && endAt < 0) endAt = out.length;
      if (w === 'SET') {
        out += tok.text;
        setTarget = true;
        continue;
      }
    }
    if (tok.kind === 'comma' && depth === 0 && whereAt < 0 && at.verb === 'UPDATE') setTarget = true;
    if (!significant(tok)) {
      out += tok.text;
      continue;
    }
    if (setTarget && (tok.kind === 'word' || tok.kind === 'name')) {
      setTarget = false;
      // SET v.c = … : the view's own qualifier
      if (t[i + 1]?.kind === 'op' && t[i + 1]!.text === '.') {
        i += 2;
        out += base(t[i]!.text);
      } else out += base(tok.text);
      continue;
    }
    setTarget = false;
    out += viewName(t, i, view, column) ?? tok.text;
    if (t[i + 1]?.kind === 'op' && t[i + 1]!.text === '.' && isViewQualifier(tok, view)) i++;
  }
  if (!merged.where) return at.head + target + out;
  const end = endAt < 0 ? out.replace(/\s*;\s*$/, '').length : endAt;
  if (whereAt < 0) return `${at.head}${target}${out.slice(0, end).trimEnd()} WHERE (${merged.where}) ${out.slice(end)}`.trimEnd();
  return `${at.head}${target}${out.slice(0, whereAt)} (${merged.where}) AND (${out.slice(whereAt, end).trim()}) ${out.slice(end)}`.trimEnd();
}

const isViewQualifier = (tok: Token, view: ViewDef) => (tok.kind === 'word' || tok.kind === 'name') && unquoteIdent(tok.text).toLowerCase() === view.name.toLowerCase();

/** The text for token `i` when it names a view column (`c` or `v.c`): its expression over the base table. */
function viewName(t: Token[], i: number, view: ViewDef, column: (name: string) => { expr: string } | undefined): string | undefined {
  const tok = t[i]!;
  if (tok.kind !== 'word' && tok.kind !== 'name') return undefined;
  if (isViewQualifier(tok, view) && t[i + 1]?.kind === 'op' && t[i + 1]!.text === '.') return '';
  const before = t.slice(0, i).filter(significant).at(-1);
  if (before?.kind === 'op' && before.text === '.' && !isViewQualifier(t.slice(0, i).filter(significant).at(-2)!, view)) return undefined;
  const next = t.slice(i + 1).find(significant);
  if (next?.kind === 'open') return undefined;
  return column(tok.text)?.expr;
}

/** A condition over the view's columns as one over its base table's (for CHECK OPTION of a view over this view). */
export function overBase(condition: string, view: ViewDef, merged: MergedView): string {
  return viewNames(condition, view, (name) => merged.columns.get(unquoteIdent(name).toLowerCase()));
}

function viewNames(text: string, view: ViewDef, column: (name: string) => { expr: string } | undefined): string {
  const t = tokenize(text);
  let out = '';
  for (let i = 0; i < t.length; i++) {
    out += viewName(t, i, view, column) ?? t[i]!.text;
    if (t[i + 1]?.kind === 'op' && t[i + 1]!.text === '.' && isViewQualifier(t[i]!, view)) i++;
  }
  return out;
}

/** An INSERT's text after the view's name: its column list (or all the view's) as base columns, SET's names, ON DUPLICATE KEY UPDATE's names. */
function insertRest(rest: string, view: ViewDef, base: (name: string) => string, names: (text: string) => string): string {
  const masked = maskQuoted(rest);
  const odku = /\bon\s+duplicate\s+key\s+update\b/i.exec(masked);
  const head = odku ? rest.slice(0, odku.index) : rest;
  const tail = odku ? rest.slice(odku.index, odku.index + odku[0].length) + names(rest.slice(odku.index + odku[0].length)) : '';
  const list = /^\s*\(([^()]*)\)/.exec(maskQuoted(head));
  if (list && !/^\s*select\b/i.test(list[1]!)) {
    const cols = head.slice(list.index + list[0].indexOf('(') + 1, list.index + list[0].lastIndexOf(')'));
    return ` (${cols.split(',').map((c) => base(c.trim())).join(', ')})${head.slice(list.index + list[0].length)}${tail}`;
  }
  const set = /^\s*set\b/i.exec(head);
  if (set) {
    const assignments = splitTopLevel(head.slice(set[0].length).replace(/;\s*$/, ''));
    return ` SET${assignments.map((a) => a.replace(/^(\s*)((?:`(?:[^`]|``)*`|[A-Za-z_][\w$]*))\s*=/, (_all, space: string, c: string) => `${space}${base(c)} =`)).join(',')}${tail}`;
  }
  return ` (${view.columns.map((c) => base(c)).join(', ')})${head}${tail}`;
}
