/**
 * MySQL's user variables (`SET @id = LAST_INSERT_ID(); INSERT … VALUES (@id)`), which live as
 * long as the session. SQLite reads `@name` as a named parameter, so a statement gets the
 * session's values bound to the names it uses; a variable never set is NULL, as in MySQL. Names
 * are case-insensitive (MySQL 8.0 manual, User-Defined Variables).
 */
import type { BindParams, SqlValue } from 'sql.js';
import { unquoteIdent } from './mysql-ddl.js';
import { maskQuoted, splitTopLevel } from './sql-text.js';

export type UserVariables = Map<string, SqlValue>;

const USED = /(?<![@\w$])@([A-Za-z_][\w$]*)/g;

/** The values for the `@name` parameters a statement uses, or undefined when it uses none. */
export function boundVariables(sql: string, vars: UserVariables): BindParams | undefined {
  if (!sql.includes('@')) return undefined;
  let params: Record<string, SqlValue> | undefined;
  for (const m of maskQuoted(sql).matchAll(USED)) (params ??= {})[`@${m[1]}`] = vars.get(m[1]!.toLowerCase()) ?? null;
  return params;
}

/** One assignment of a SET statement. */
export type SetItem = { user: string; expr: string } | { system: string; value: string; global: boolean };

/** The assignments of `SET a = 1, @b := expr, SESSION c = 'x'`, split at top-level commas. */
export function setItems(sql: string): SetItem[] {
  const body = sql.trim().replace(/;$/, '').replace(/^set\s+/i, '');
  const items: SetItem[] = [];
  for (const part of splitTopLevel(body)) {
    const user = /^\s*@(`[^`]+`|'[^']+'|"[^"]+"|[\w$.]+)\s*:?=\s*([\s\S]+?)\s*$/.exec(part);
    if (user) {
      items.push({ user: unquoteIdent(user[1]!.replace(/^['"]|['"]$/g, '')).toLowerCase(), expr: user[2]! });
      continue;
    }
    const system = /^\s*((?:session|local|global|persist)\s+|@@(?:session\.|local\.|global\.)?)?([\w$]+)\s*:?=\s*([\s\S]+?)\s*$/i.exec(part);
    if (system) items.push({ system: system[2]!.toLowerCase(), value: system[3]!.replace(/^'(.*)'$/s, '$1'), global: /global|persist/i.test(system[1] ?? '') });
  }
  return items;
}
