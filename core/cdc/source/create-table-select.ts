/**
 * CREATE TABLE … [AS] SELECT (MySQL 8.0 manual, "CREATE TABLE ... SELECT Statement"): a table
 * whose columns are the SELECT's, then the SELECT's rows inserted into it. A column the SELECT
 * takes from a table keeps its type, NULL or NOT NULL, CHARACTER SET, COLLATION, COMMENT and
 * DEFAULT; not AUTO_INCREMENT (a former one is NOT NULL DEFAULT '0', as MySQL and MariaDB make
 * it) nor any key. Columns defined in the CREATE TABLE part come first, and a SELECT column of
 * the same name takes that definition. A SELECT column computed by an expression needs MySQL's
 * type inference for expressions (and a UNION's columns that of the union's types), which the
 * embedded source does not have: it answers 1235.
 */
import { mysqlErrors } from './mysql-error.js';
import { showCreateTable, unquoteIdent, type ColumnDef, type TableDef } from './mysql-ddl.js';
import { closingParen, maskQuoted, NAME_PATTERN as IDENT, selectItems, splitTopLevel } from './sql-text.js';
import { namedTables } from './table-refs.js';

const HEAD = new RegExp(`^\\s*create\\s+table\\s+(if\\s+not\\s+exists\\s+)?((?:${IDENT})(?:\\s*\\.\\s*(?:${IDENT}))?)\\s*`, 'i');
/** Table options (ENGINE=…, DEFAULT CHARSET=…, COMMENT='…'), then IGNORE or REPLACE, then AS. */
const BEFORE_SELECT = /^((?:(?:default\s+)?(?:engine|charset|character\s+set|collate|comment|auto_increment|row_format)\s*=?\s*(?:'[^']*'|\S+)\s*)*)(?:(ignore|replace)\s+)?(?:as\s+)?(?=select\b|with\b|\()/i;

export interface CreateTableSelect {
  /** `CREATE TABLE name (definitions)` when definitions were given, for parseCreateTable. */
  definitions?: string;
  target: string;
  ifNotExists: boolean;
  duplicates?: 'IGNORE' | 'REPLACE';
  select: string;
}

/** The parts of CREATE TABLE … SELECT, or undefined for any other statement. */
export function parseCreateTableSelect(sql: string): CreateTableSelect | undefined {
  const text = sql.trim().replace(/;\s*$/, '');
  const masked = maskQuoted(text);
  const head = HEAD.exec(masked);
  if (!head) return undefined;
  const targetAt = head[0].indexOf(head[2]!);
  const target = text.slice(targetAt, targetAt + head[2]!.length);
  const ifNotExists = !!head[1];
  let at = head[0].length;
  // `CREATE TABLE t (SELECT …)`: the SELECT in parentheses; `(LIKE t)` is no SELECT
  if (/^\(\s*(?:select|with)\b/i.test(masked.slice(at))) return { target, ifNotExists, select: text.slice(at) };
  let definitions: string | undefined;
  if (masked[at] === '(') {
    const close = closingParen(masked, at);
    if (close < 0) return undefined;
    definitions = `CREATE TABLE ${target} ${text.slice(at, close + 1)}`;
    at = close + 1;
    while (/\s/.test(masked[at] ?? '')) at++;
  }
  const before = BEFORE_SELECT.exec(masked.slice(at));
  if (!before) return undefined;
  return {
    ...(definitions ? { definitions } : {}),
    target,
    ifNotExists,
    ...(before[2] ? { duplicates: before[2].toUpperCase() as 'IGNORE' | 'REPLACE' } : {}),
    select: text.slice(at + before[0].length),
  };
}

/**
 * The new table as a CREATE TABLE statement (for parseCreateTable): the columns defined in the
 * CREATE TABLE part and not selected, then each column of the SELECT (named `columns`, as the
 * SELECT answered them) with its definition from that part or as the table column it reads,
 * then that part's keys and constraints.
 */
export function selectedTable(name: string, c: CreateTableSelect, columns: string[], tableOf: (table: string, database?: string) => TableDef | undefined): string {
  const given = c.definitions ? splitTopLevel(/\(([\s\S]*)\)\s*$/.exec(c.definitions)![1]!) : [];
  const definedColumn = (item: string) => {
    const m = /^\s*(`(?:[^`]|``)*`|[A-Za-z_][\w$]*)/.exec(item);
    return m && !/^(?:primary|key|index|unique|constraint|foreign|check|fulltext|spatial)$/i.test(m[1]!) ? unquoteIdent(m[1]!).toLowerCase() : undefined;
  };
  const defined = new Map(given.flatMap((item) => (definedColumn(item) ? [[definedColumn(item)!, item.trim()] as const] : [])));
  const keys = given.filter((item) => !definedColumn(item)).map((item) => item.trim());

  const sources = namedTables(c.select)
    .map((r) => ({ alias: r.alias.toLowerCase(), def: tableOf(r.table, r.database) }))
    .filter((s): s is { alias: string; def: TableDef } => !!s.def);
  const inner = /^\s*\(([\s\S]*)\)\s*$/.exec(c.select)?.[1] ?? c.select;
  // a UNION's columns have the types the union of its parts makes, no table's
  if (/(?<![\w$])(?:union|intersect|except)(?![\w$])/i.test(maskQuoted(inner).replace(/\([^()]*\)/g, ''))) throw mysqlErrors.notSupported('CREATE TABLE … SELECT of a UNION, INTERSECT or EXCEPT in the embedded source');
  const items = (selectItems(inner) ?? []).flatMap((item) => {
    const star = /^\s*(?:(`(?:[^`]|``)*`|[A-Za-z_][\w$]*)\s*\.\s*)?\*\s*$/.exec(item);
    if (!star) return [item];
    const from = star[1] ? sources.filter((s) => s.alias === unquoteIdent(star[1]!).toLowerCase()) : sources;
    return from.flatMap((s) => s.def.columns.map((col) => `\`${s.alias}\`.\`${col.name}\``));
  });
  const selected = columns.map((column, i) => {
    const explicit = defined.get(column.toLowerCase());
    if (explicit) return explicit;
    const source = columnRead(items[i], sources);
    if (!source) throw mysqlErrors.notSupported(`CREATE TABLE … SELECT of an expression ('${(items[i] ?? column).trim()}') in the embedded source; select table columns, or give the column's definition`);
    return columnLine(copied(source, column));
  });
  const chosen = new Set(columns.map((n) => n.toLowerCase()));
  const first = [...defined].filter(([n]) => !chosen.has(n)).map(([, item]) => item);
  return `CREATE TABLE \`${name.replace(/`/g, '``')}\` (${[...first, ...selected, ...keys].join(', ')})`;
}

/** A column's definition as SHOW CREATE TABLE prints it (which CREATE TABLE reads back). */
function columnLine(c: ColumnDef): string {
  const text = showCreateTable({ name: 't', columns: [c], primaryKey: [], indexes: [] });
  return text.slice(text.indexOf('\n') + 1, text.lastIndexOf('\n')).trim().replace(/,$/, '');
}

const REF = /^\s*(?:(`(?:[^`]|``)*`|[A-Za-z_][\w$]*)\s*\.\s*)?(`(?:[^`]|``)*`|[A-Za-z_][\w$]*)(?:\s+(?:as\s+)?(?:`(?:[^`]|``)*`|'[^']*'|"[^"]*"|[A-Za-z_][\w$]*))?\s*$/i;

/** The table column a select item is (`c`, `t.c`, with an alias or not), if it is one. */
function columnRead(item: string | undefined, sources: { alias: string; def: TableDef }[]): ColumnDef | undefined {
  const m = item === undefined ? null : REF.exec(item);
  if (!m) return undefined;
  const column = unquoteIdent(m[2]!).toLowerCase();
  const from = m[1] ? sources.filter((s) => s.alias === unquoteIdent(m[1]!).toLowerCase()) : sources;
  const found = from.flatMap((s) => s.def.columns.filter((c) => c.name.toLowerCase() === column));
  return found.length === 1 ? found[0] : undefined;
}

/** The column as CREATE TABLE … SELECT makes it: no AUTO_INCREMENT (a former one NOT NULL DEFAULT '0'). */
function copied(c: ColumnDef, name: string): ColumnDef {
  const out: ColumnDef = { ...structuredClone(c), name, autoIncrement: false };
  if (c.autoIncrement) out.defaultExpr = "'0'";
  return out;
}
