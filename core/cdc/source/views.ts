/**
 * Views as MySQL 8.0 has them: CREATE [OR REPLACE] / ALTER VIEW parsed into a ViewDef, the texts
 * SHOW CREATE VIEW and INFORMATION_SCHEMA.VIEWS print, and the columns DESCRIBE shows. The
 * embedded source keeps each view as a SQLite view over the translated SELECT.
 */
import type { ColumnDef, TableDef } from './mysql-ddl.js';
import { splitQualified, unquoteIdent } from './mysql-ddl.js';
import { MySqlError, mysqlErrors } from './mysql-error.js';
import { maskQuoted, NAME_PATTERN as IDENT, selectItemNames } from './sql-text.js';
import { namedTables } from './table-refs.js';

export interface ViewDef {
  name: string;
  /** The column list written after the name, if any. */
  columnList?: string[];
  /** The view's column names: the list given, else the select list's names. */
  columns: string[];
  /** The SELECT as typed. */
  select: string;
  algorithm: 'UNDEFINED' | 'MERGE' | 'TEMPTABLE';
  /** `user`@`host`, as SHOW CREATE VIEW prints it. */
  definer: string;
  security: 'DEFINER' | 'INVOKER';
  checkOption: 'NONE' | 'CASCADED' | 'LOCAL';
}

export interface ParsedView {
  verb: 'create' | 'alter';
  orReplace: boolean;
  database?: string;
  def: Omit<ViewDef, 'columns'>;
}

const HEAD = new RegExp(
  `^(create|alter)\\s+(or\\s+replace\\s+)?(?:algorithm\\s*=\\s*(undefined|merge|temptable)\\s+)?(?:definer\\s*=\\s*(\\S+?)\\s+)?(?:sql\\s+security\\s+(definer|invoker)\\s+)?view\\s+((?:${IDENT})(?:\\s*\\.\\s*(?:${IDENT}))?)\\s*(?:\\(([^)]*)\\)\\s*)?as\\s+([\\s\\S]+)$`,
  'i',
);

/** Whether a statement is CREATE/ALTER … VIEW (its words before VIEW are the view clauses). */
export function isViewStatement(sql: string): boolean {
  return /^\s*(create(\s+or\s+replace)?|alter)\s+(algorithm\s*=\s*\w+\s+)?(definer\s*=\s*\S+\s+)?(sql\s+security\s+\w+\s+)?view\s/i.test(sql);
}

/** `CREATE [OR REPLACE] [ALGORITHM=…] [DEFINER=…] [SQL SECURITY …] VIEW [db.]v [(col, …)] AS SELECT … [WITH [CASCADED|LOCAL] CHECK OPTION]`, and ALTER VIEW. */
export function parseViewStatement(sql: string, account: string): ParsedView {
  const text = sql.trim().replace(/;\s*$/, '');
  const m = HEAD.exec(text);
  if (!m || (m[1]!.toLowerCase() === 'alter' && m[2])) throw mysqlErrors.syntax(text.slice(0, 80));
  let select = m[8]!.trim();
  let checkOption: ViewDef['checkOption'] = 'NONE';
  const check = /\s+with\s+(?:(cascaded|local)\s+)?check\s+option$/i.exec(select);
  if (check) {
    checkOption = check[1]?.toLowerCase() === 'local' ? 'LOCAL' : 'CASCADED';
    select = select.slice(0, check.index).trim();
  }
  if (!/^(select\b|with\b|\()/i.test(select)) throw mysqlErrors.syntax(select.slice(0, 80));
  const { database, table } = splitQualified(m[6]!.replace(/\s*\.\s*/, '.'));
  const columnList = m[7] !== undefined ? m[7].split(',').map((c) => unquoteIdent(c.trim())) : undefined;
  return {
    verb: m[1]!.toLowerCase() as 'create' | 'alter',
    orReplace: !!m[2],
    ...(database ? { database } : {}),
    def: {
      name: table,
      ...(columnList ? { columnList } : {}),
      select,
      algorithm: (m[3]?.toUpperCase() ?? 'UNDEFINED') as ViewDef['algorithm'],
      definer: definerOf(m[4], account),
      security: (m[5]?.toUpperCase() ?? 'DEFINER') as ViewDef['security'],
      checkOption,
    },
  };
}

/** DEFINER = user[@host] | CURRENT_USER[()] as `user`@`host`; the default is the session's account. */
function definerOf(raw: string | undefined, account: string): string {
  const given = raw === undefined || /^current_user(\(\))?$/i.test(raw) ? account : raw;
  const at = given.lastIndexOf('@');
  const unquote = (s: string) => s.replace(/^[`'"](.*)[`'"]$/s, '$1');
  const user = unquote(at < 0 ? given : given.slice(0, at));
  const host = at < 0 ? '%' : unquote(given.slice(at + 1));
  return `\`${user}\`@\`${host}\``;
}

/** The view's column names: the list given (as many as the select list has), else the select list's own names. */
export function viewColumns(def: Omit<ViewDef, 'columns'>, sqliteNames: string[]): string[] {
  let names: string[];
  if (def.columnList) {
    // ER_VIEW_WRONG_LIST, worded as in MySQL 8.0's error message reference
    if (def.columnList.length !== sqliteNames.length) throw new MySqlError(1353, 'HY000', 'In definition of view, derived table or common table expression, SELECT list and column names list have different column counts');
    names = def.columnList;
  } else {
    const typed = selectItemNames(def.select);
    names = typed && typed.length === sqliteNames.length ? sqliteNames.map((n, i) => typed[i] ?? n) : sqliteNames;
  }
  const seen = new Set<string>();
  for (const n of names) {
    // ER_DUP_FIELDNAME: MySQL compares column names without regard to case
    if (seen.has(n.toLowerCase())) throw new MySqlError(1060, '42S21', `Duplicate column name '${n}'`);
    seen.add(n.toLowerCase());
  }
  return names;
}

const PLAIN_REF = /^(?:(`(?:[^`]|``)*`|[A-Za-z_$][\w$]*)\s*\.\s*)?(`(?:[^`]|``)*`|[A-Za-z_$][\w$]*|\*)(?:\s+(?:as\s+)?(`(?:[^`]|``)*`|[A-Za-z_$][\w$]*))?$/i;

interface Source {
  alias: string;
  table: string;
  def: TableDef;
}

/** The FROM tables of the view's SELECT with their definitions (all of its database), or undefined when one is unknown. */
function sourcesOf(def: Omit<ViewDef, 'columns'>, tables: Map<string, TableDef>): Source[] | undefined {
  const out: Source[] = [];
  for (const r of namedTables(def.select)) {
    const t = tables.get(r.table);
    if (!t || r.database) return undefined;
    out.push({ alias: r.alias, table: r.table, def: t });
  }
  return out;
}

/** The base column each view column shows, in order, where the select list item is a plain column (or `*`); undefined for an expression. */
function baseColumns(def: ViewDef, tables: Map<string, TableDef>): ({ source: Source; column: ColumnDef } | undefined)[] {
  const sources = sourcesOf(def, tables) ?? [];
  const items = selectItems(def.select);
  const out: ({ source: Source; column: ColumnDef } | undefined)[] = [];
  for (const item of items ?? []) {
    const m = PLAIN_REF.exec(item.trim());
    if (!m) {
      out.push(undefined);
      continue;
    }
    const qual = m[1] ? unquoteIdent(m[1]) : undefined;
    const from = sources.filter((s) => qual === undefined || s.alias === qual);
    if (m[2] === '*') {
      for (const s of from) for (const c of s.def.columns) out.push({ source: s, column: c });
      continue;
    }
    const name = unquoteIdent(m[2]!).toLowerCase();
    const found = from.map((s) => ({ source: s, column: s.def.columns.find((c) => c.name.toLowerCase() === name) })).find((x) => x.column);
    out.push(found ? { source: found.source, column: found.column! } : undefined);
  }
  return out.length === def.columns.length ? out : def.columns.map(() => undefined);
}

/** The top-level items of the select list (the text between SELECT and FROM), or undefined. */
function selectItems(select: string): string[] | undefined {
  const masked = maskQuoted(select);
  const head = /^\s*select\s+/i.exec(masked);
  if (!head) return undefined;
  const items: string[] = [];
  let depth = 0;
  let from = head[0].length;
  for (let i = from; i <= masked.length; i++) {
    const c = masked[i] ?? '';
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && (c === '' || c === ',' || (/[a-z]/i.test(c) && !/[\w$]/.test(masked[i - 1] ?? ' ') && /^(from|where|group|having|order|limit|union|into|for|window)\b/i.test(masked.slice(i))))) {
      items.push(select.slice(from, i));
      if (c !== ',') break;
      from = i + 1;
    }
  }
  return items;
}

/**
 * The view's columns as DESCRIBE and INFORMATION_SCHEMA.COLUMNS show them: a column taken from a
 * table keeps its type, nullability and default (no key, no auto_increment: MySQL shows none for a
 * view); an expression is shown with the type of its value (`sampled`: SQLite's typeof of the first row).
 */
export function viewColumnDefs(def: ViewDef, tables: Map<string, TableDef>, sampled: (string | undefined)[]): ColumnDef[] {
  const bases = baseColumns(def, tables);
  return def.columns.map((name, i) => {
    const base = bases[i];
    if (base) return { ...base.column, name, autoIncrement: false };
    const item = selectItems(def.select)?.[i] ?? '';
    const count = /^\s*count\s*\(/i.test(item);
    const type = count ? 'bigint' : sampled[i] === 'integer' ? 'bigint' : sampled[i] === 'real' ? 'double' : sampled[i] === 'blob' ? 'longblob' : 'longtext';
    return { name, mysqlType: type, baseType: type, args: [], unsigned: false, nullable: !count, defaultExpr: null, autoIncrement: false, onUpdateNow: false };
  });
}

const bq = (s: string) => `\`${s.replace(/`/g, '``')}\``;

/**
 * The SELECT as MySQL prints it back. MySQL rewrites the statement it parsed into a canonical
 * form; that is done here for the plain case (plain columns or `*` from one table, with an alias
 * or not): `select \`t\`.\`c\` AS \`c\`,… from \`t\``, with the database named when `qualify`
 * (INFORMATION_SCHEMA.VIEWS) or when it is not the current one. Any other SELECT is kept as typed.
 */
export function canonicalSelect(def: ViewDef, database: string, tables: Map<string, TableDef>, qualify: boolean): string {
  const masked = maskQuoted(def.select);
  const simple = /^\s*select\s+[\s\S]+?\s+from\s+(`(?:[^`]|``)*`|[A-Za-z_$][\w$]*)(?:\s+(?:as\s+)?(?!where\b|order\b|group\b|limit\b|having\b)(`(?:[^`]|``)*`|[A-Za-z_$][\w$]*))?\s*$/i.exec(masked);
  const items = selectItems(def.select);
  if (!simple || !items || !items.every((it) => PLAIN_REF.test(it.trim()))) return def.select;
  const refs = namedTables(def.select);
  if (refs.length !== 1 || refs[0]!.database) return def.select;
  const table = refs[0]!.table;
  const alias = refs[0]!.aliased ? refs[0]!.alias : undefined;
  if (!tables.has(table)) return def.select;
  const bases = baseColumns(def, tables);
  if (bases.some((b) => !b)) return def.select;
  const db = qualify ? `${bq(database)}.` : '';
  const ref = alias ? bq(alias) : `${db}${bq(table)}`;
  // the name each item has in the SELECT itself (its alias, else the column's own name)
  const names: string[] = [];
  for (const item of items) {
    const m = PLAIN_REF.exec(item.trim())!;
    if (m[2] === '*') names.push(...tables.get(table)!.columns.map((c) => c.name));
    else names.push(m[3] ? unquoteIdent(m[3]) : bases[names.length]!.column.name);
  }
  const list = bases.map((b, i) => `${ref}.${bq(b!.column.name)} AS ${bq(names[i]!)}`).join(',');
  return `select ${list} from ${db}${bq(table)}${alias ? ` ${bq(alias)}` : ''}`;
}

/** SHOW CREATE VIEW's Create View: `CREATE ALGORITHM=… DEFINER=… SQL SECURITY … VIEW \`v\` [(…)] AS select … [WITH … CHECK OPTION]`. */
export function showCreateView(def: ViewDef, database: string, tables: Map<string, TableDef>, currentDatabase: string | null): string {
  const name = currentDatabase === database ? bq(def.name) : `${bq(database)}.${bq(def.name)}`;
  const list = def.columnList ? ` (${def.columnList.map(bq).join(',')})` : '';
  const check = def.checkOption === 'NONE' ? '' : ` WITH ${def.checkOption} CHECK OPTION`;
  return `CREATE ALGORITHM=${def.algorithm} DEFINER=${def.definer} SQL SECURITY ${def.security} VIEW ${name}${list} AS ${canonicalSelect(def, database, tables, currentDatabase !== database)}${check}`;
}

/** IS_UPDATABLE by the rules of MySQL 8.0's manual (Updatable and Insertable Views): no aggregate, DISTINCT, GROUP BY, HAVING, UNION, TEMPTABLE, and a table to update. */
export function isUpdatable(def: ViewDef): boolean {
  const masked = maskQuoted(def.select);
  if (def.algorithm === 'TEMPTABLE' || !/\bfrom\b/i.test(masked)) return false;
  return !/\b(distinct|distinctrow|group\s+by|having|union)\b|\b(count|sum|avg|min|max|group_concat|json_arrayagg|json_objectagg|std|stddev|variance|bit_and|bit_or|bit_xor)\s*\(|\bover\s*\(/i.test(masked);
}

/** A stored view definition whose column names are the view's. */
export function withColumns(def: Omit<ViewDef, 'columns'>, columns: string[]): ViewDef {
  return { ...def, columns };
}
