/**
 * MySQL 8.0.19's row alias in INSERT … ON DUPLICATE KEY UPDATE, which replaces the VALUES()
 * function (deprecated in 8.0.20):
 *
 *   INSERT INTO t1 (a,b,c) VALUES (1,2,3),(4,5,6) AS new ON DUPLICATE KEY UPDATE c = new.a+new.b;
 *   INSERT INTO t1 (a,b,c) VALUES (1,2,3),(4,5,6) AS new(m,n,p) ON DUPLICATE KEY UPDATE c = m+n;
 *   INSERT INTO t1 SET a=1,b=2,c=3 AS new ON DUPLICATE KEY UPDATE c = new.a+new.b;
 *
 * (MySQL 8.0 manual, INSERT … ON DUPLICATE KEY UPDATE). The alias is taken out and each reference
 * to the row, `new.a` or a column alias `m`, becomes `VALUES(a)`, which the rest of the
 * translation already makes SQLite's `excluded.a`.
 */
import { unquoteIdent, type TableDef } from './mysql-ddl.js';
import { maskQuoted, replaceOutsideQuotes, splitTopLevel, topLevel } from './sql-text.js';

const IDENT = '`[^`]+`|[A-Za-z_][\\w$]*';
const HEAD = new RegExp(`^\\s*insert(?:\\s+or\\s+ignore)?\\s+(?:into\\s+)?(${IDENT})\\s*(?:\\(([^)]*)\\))?\\s*(values?|set)\\b`, 'i');
const SET_TARGET = new RegExp(`^\\s*(${IDENT})\\s*=`);
const ALIAS = new RegExp(`\\s+as\\s+(${IDENT})\\s*(?:\\(([^)]*)\\))?\\s*$`, 'i');

/** The statement with its row alias written as VALUES(), or undefined when it has none. */
export function rewriteRowAlias(sql: string, tables: Map<string, TableDef>): string | undefined {
  if (!/\bduplicate\b/i.test(sql)) return undefined;
  const head = HEAD.exec(sql);
  if (!head) return undefined;
  const masked = maskQuoted(sql);
  const odku = /(?<=\s)on\s+duplicate\s+key\s+update\b/i.exec(topLevel(masked));
  if (!odku) return undefined;
  const alias = ALIAS.exec(masked.slice(0, odku.index));
  if (!alias) return undefined;
  const aliasAt = alias.index;
  const name = unquoteIdent(sql.slice(aliasAt, odku.index).trim().replace(/^as\s+/i, '').replace(/\s*\(.*$/s, ''));
  // the row's columns, in the order the column aliases name them
  const isSet = head[3]!.toLowerCase() === 'set';
  const columns = isSet
    ? setColumns(sql.slice(head[0].length, aliasAt))
    : head[2] !== undefined
      ? head[2].split(',').map((c) => unquoteIdent(c.trim()))
      : (tables.get(unquoteIdent(head[1]!))?.columns.map((c) => c.name) ?? []);
  const aliases = alias[2] !== undefined ? sql.slice(aliasAt, odku.index).replace(/^[^(]*\(/s, '').replace(/\)\s*$/, '').split(',').map((c) => unquoteIdent(c.trim())) : undefined;
  const real = (col: string) => {
    if (!aliases) return col;
    const i = aliases.findIndex((a) => a.toLowerCase() === col.toLowerCase());
    return i >= 0 ? columns[i] : undefined;
  };
  const target = new Set([...columns, ...(tables.get(unquoteIdent(head[1]!))?.columns.map((c) => c.name) ?? [])].map((c) => c.toLowerCase()));
  let tail = replaceOutsideQuotes(sql.slice(odku.index), new RegExp(`(?<![\\w$.\`])(${IDENT})\\s*\\.\\s*(${IDENT})`, 'g'), (all, q, col) => {
    if (unquoteIdent(q).toLowerCase() !== name.toLowerCase()) return all;
    const c = real(unquoteIdent(col));
    return c === undefined ? all : `VALUES(\`${c}\`)`;
  });
  if (aliases) {
    // a column alias on its own names the row's column, unless the table has a column of that name
    tail = replaceOutsideQuotes(tail, new RegExp(`(?<![\\w$.\`])(${IDENT})(?![\\w$\`(]|\\s*\\.)`, 'g'), (all, id) => {
      const col = unquoteIdent(id);
      if (target.has(col.toLowerCase()) || !aliases.some((a) => a.toLowerCase() === col.toLowerCase())) return all;
      return `VALUES(\`${real(col)}\`)`;
    });
  }
  return `${sql.slice(0, aliasAt)} ${tail}`;
}

/** The columns of `a = 1, b = 'x'`, in order. */
function setColumns(list: string): string[] {
  return splitTopLevel(list).flatMap((item) => {
    const m = SET_TARGET.exec(item);
    return m ? [unquoteIdent(m[1]!)] : [];
  });
}
