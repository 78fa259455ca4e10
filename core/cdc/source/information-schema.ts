/**
 * INFORMATION_SCHEMA for the embedded source: SCHEMATA, TABLES, VIEWS, COLUMNS, STATISTICS,
 * TABLE_CONSTRAINTS, CHECK_CONSTRAINTS, KEY_COLUMN_USAGE and REFERENTIAL_CONSTRAINTS, with MySQL 8.0's columns in its order and upper-case
 * names (since 8.0 these are views whose column names come back upper-case whatever case the
 * query used). A query that names information_schema runs on a fresh in-memory SQLite database
 * holding these tables, made from the catalogue when the query comes.
 */
import type { SqlJsStatic } from 'sql.js';
import { charsetOf, keysInMySqlOrder, tableCollation, unquoteString, type ColumnDef, type TableDef } from './mysql-ddl.js';
import { mysqlErrors } from './mysql-error.js';
import { checkClause } from './check-constraints.js';
import { describeDefault, displayType } from './mysql-type-display.js';
import { withScratchTables } from './scratch-tables.js';
import { replaceOutsideQuotes } from './sql-text.js';

export interface SchemaTable {
  def: TableDef;
  rows: number;
  /** Set for a view (its columns are `def`'s): what TABLES and VIEWS show of it. */
  view?: { definition: string; checkOption: string; updatable: boolean; definer: string; security: string };
  /** The next AUTO_INCREMENT value, for tables that have one. */
  autoIncrement: number | null;
}

/** The catalogue the views are made from: database → its tables. */
export type SchemaCatalog = Map<string, SchemaTable[]>;

const CHARSET = 'utf8mb4';
const COLLATION = 'utf8mb4_0900_ai_ci';

interface View {
  name: string;
  columns: string[];
  rows: (catalog: SchemaCatalog) => unknown[][];
}

/** PRI, UNI or MUL as DESCRIBE and COLUMNS.COLUMN_KEY give them: the first index the column starts. */
/** ROW_FORMAT as InnoDB reports it: Dynamic unless the table asked for another. */
export const rowFormatOf = (def: TableDef): string => {
  const f = def.options?.rowFormat;
  return f && f !== 'DEFAULT' ? f[0] + f.slice(1).toLowerCase() : 'Dynamic';
};

/** CREATE_OPTIONS (and SHOW TABLE STATUS's Create_options): the ROW_FORMAT the table asked for. */
export const createOptionsOf = (def: TableDef): string => (def.options?.rowFormat ? `row_format=${def.options.rowFormat}` : '');

/** What information_schema.COLUMNS.PRIVILEGES and SHOW FULL COLUMNS say of every column: the root account's. */
export const COLUMN_PRIVILEGES = 'select,insert,update,references';

/** A column's collation (COLLATION_NAME, SHOW FULL COLUMNS): null for a column that holds no characters. */
export function columnCollation(c: ColumnDef, def?: TableDef): string | null {
  if (!typeFacts(c).textual) return null;
  return c.collation && c.collation !== 'binary' ? c.collation : def ? tableCollation(def) : COLLATION;
}

export function columnKey(def: TableDef, c: ColumnDef): string {
  if (def.primaryKey.includes(c.name)) return 'PRI';
  if (def.indexes.some((i) => i.unique && i.columns[0] === c.name)) return 'UNI';
  if (def.indexes.some((i) => i.columns[0] === c.name)) return 'MUL';
  return '';
}

const INTEGER_PRECISION: Record<string, [number, number]> = { tinyint: [3, 3], smallint: [5, 5], mediumint: [7, 8], int: [10, 10], bigint: [19, 20] };
const TEXT_LENGTH: Record<string, number> = { tinytext: 255, text: 65535, mediumtext: 16777215, longtext: 4294967295, tinyblob: 255, blob: 65535, mediumblob: 16777215, longblob: 4294967295 };

/** COLUMNS' type facts, from the type MySQL shows (`int unsigned`, `decimal(10,2)`, `varchar(255)`). */
function typeFacts(c: ColumnDef): { dataType: string; charLength: number | null; octetLength: number | null; precision: number | null; scale: number | null; datetimePrecision: number | null; textual: boolean } {
  const shown = displayType(c);
  const m = /^(\w+)(?:\(([^)]*)\))?/.exec(shown)!;
  const dataType = m[1]!;
  const args = (m[2] ?? '').split(',').map((a) => a.trim());
  const n = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : null);
  const out = { dataType, charLength: null as number | null, octetLength: null as number | null, precision: null as number | null, scale: null as number | null, datetimePrecision: null as number | null, textual: false };
  if (dataType === 'char' || dataType === 'varchar') Object.assign(out, { charLength: n(args[0]), octetLength: (n(args[0]) ?? 0) * 4, textual: true });
  else if (dataType === 'binary' || dataType === 'varbinary') Object.assign(out, { charLength: n(args[0]), octetLength: n(args[0]) });
  else if (dataType in TEXT_LENGTH) Object.assign(out, { charLength: TEXT_LENGTH[dataType]!, octetLength: TEXT_LENGTH[dataType]!, textual: dataType.endsWith('text') });
  else if (dataType === 'enum' || dataType === 'set') {
    // the members' values (a backslash kept doubled in the definition is one character), in characters
    const values = c.args.map(unquoteString);
    const longest = dataType === 'enum' ? Math.max(0, ...values.map((v) => [...v].length)) : [...values.join(',')].length;
    Object.assign(out, { charLength: longest, octetLength: longest * 4, textual: true });
  } else if (dataType in INTEGER_PRECISION) Object.assign(out, { precision: INTEGER_PRECISION[dataType]![/unsigned/.test(shown) && dataType === 'bigint' ? 1 : 0], scale: 0 });
  else if (dataType === 'decimal') Object.assign(out, { precision: n(args[0]), scale: n(args[1]) });
  else if (dataType === 'float') Object.assign(out, { precision: n(args[0]) ?? 12, scale: n(args[1]) });
  else if (dataType === 'double') Object.assign(out, { precision: n(args[0]) ?? 22, scale: n(args[1]) });
  else if (dataType === 'bit') out.precision = n(args[0]);
  else if (dataType === 'datetime' || dataType === 'timestamp' || dataType === 'time') out.datetimePrecision = n(args[0]) ?? 0;
  else if (dataType === 'json') out.textual = false;
  return out;
}

const VIEWS: View[] = [
  {
    name: 'SCHEMATA',
    columns: ['CATALOG_NAME', 'SCHEMA_NAME', 'DEFAULT_CHARACTER_SET_NAME', 'DEFAULT_COLLATION_NAME', 'SQL_PATH', 'DEFAULT_ENCRYPTION'],
    rows: (catalog) => [...['information_schema', ...catalog.keys()]].map((db) => ['def', db, db === 'information_schema' ? 'utf8mb3' : CHARSET, db === 'information_schema' ? 'utf8mb3_general_ci' : COLLATION, null, 'NO']),
  },
  {
    name: 'TABLES',
    columns: ['TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'TABLE_TYPE', 'ENGINE', 'VERSION', 'ROW_FORMAT', 'TABLE_ROWS', 'AVG_ROW_LENGTH', 'DATA_LENGTH', 'MAX_DATA_LENGTH', 'INDEX_LENGTH', 'DATA_FREE', 'AUTO_INCREMENT', 'CREATE_TIME', 'UPDATE_TIME', 'CHECK_TIME', 'TABLE_COLLATION', 'CHECKSUM', 'CREATE_OPTIONS', 'TABLE_COMMENT'],
    // a view: TABLE_TYPE VIEW, no engine or storage facts, TABLE_COMMENT 'VIEW' (MySQL 8.0 manual, The INFORMATION_SCHEMA TABLES Table)
    rows: (catalog) => [...catalog].flatMap(([db, tables]) => tables.map((t) => (t.view ? ['def', db, t.def.name, 'VIEW', null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, 'VIEW'] : ['def', db, t.def.name, 'BASE TABLE', 'InnoDB', 10, rowFormatOf(t.def), t.rows, 0, 0, 0, 0, 0, t.autoIncrement, null, null, null, tableCollation(t.def), null, createOptionsOf(t.def), t.def.options?.comment ?? '']))),
  },
  {
    // MySQL 8.0 manual, The INFORMATION_SCHEMA VIEWS Table; DEFINER as user@host, unquoted
    name: 'VIEWS',
    columns: ['TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'VIEW_DEFINITION', 'CHECK_OPTION', 'IS_UPDATABLE', 'DEFINER', 'SECURITY_TYPE', 'CHARACTER_SET_CLIENT', 'COLLATION_CONNECTION'],
    rows: (catalog) =>
      [...catalog].flatMap(([db, tables]) =>
        tables.flatMap(({ def, view }) => (view ? [['def', db, def.name, view.definition, view.checkOption, view.updatable ? 'YES' : 'NO', view.definer.replace(/`/g, ''), view.security, CHARSET, COLLATION]] : [])),
      ),
  },
  {
    name: 'COLUMNS',
    columns: ['TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'COLUMN_NAME', 'ORDINAL_POSITION', 'COLUMN_DEFAULT', 'IS_NULLABLE', 'DATA_TYPE', 'CHARACTER_MAXIMUM_LENGTH', 'CHARACTER_OCTET_LENGTH', 'NUMERIC_PRECISION', 'NUMERIC_SCALE', 'DATETIME_PRECISION', 'CHARACTER_SET_NAME', 'COLLATION_NAME', 'COLUMN_TYPE', 'COLUMN_KEY', 'EXTRA', 'PRIVILEGES', 'COLUMN_COMMENT', 'GENERATION_EXPRESSION', 'SRS_ID'],
    rows: (catalog) =>
      [...catalog].flatMap(([db, tables]) =>
        tables.flatMap(({ def }) =>
          def.columns.map((c, i) => {
            const f = typeFacts(c);
            const { default: dflt, extra } = describeDefault(c);
            return ['def', db, def.name, c.name, i + 1, dflt, c.nullable ? 'YES' : 'NO', f.dataType, f.charLength, f.octetLength, f.precision, f.scale, f.datetimePrecision, f.textual ? charsetOf(columnCollation(c, def)!) : null, columnCollation(c, def), displayType(c), columnKey(def, c), extra, COLUMN_PRIVILEGES, c.comment ?? '', '', null];
          }),
        ),
      ),
  },
  {
    name: 'STATISTICS',
    columns: ['TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'NON_UNIQUE', 'INDEX_SCHEMA', 'INDEX_NAME', 'SEQ_IN_INDEX', 'COLUMN_NAME', 'COLLATION', 'CARDINALITY', 'SUB_PART', 'PACKED', 'NULLABLE', 'INDEX_TYPE', 'COMMENT', 'INDEX_COMMENT', 'IS_VISIBLE', 'EXPRESSION'],
    rows: (catalog) =>
      [...catalog].flatMap(([db, tables]) =>
        tables.flatMap(({ def, rows }) =>
          keysInMySqlOrder(def).flatMap((ix) =>
            ix.columns.map((col, i) => {
              const c = def.columns.find((x) => x.name === col);
              return ['def', db, def.name, ix.unique ? 0 : 1, db, ix.name, i + 1, col, ix.descending?.[i] ? 'D' : 'A', rows, ix.prefixes?.[i] ?? null, null, c?.nullable ? 'YES' : '', 'BTREE', '', '', 'YES', null];
            }),
          ),
        ),
      ),
  },
  {
    name: 'TABLE_CONSTRAINTS',
    columns: ['CONSTRAINT_CATALOG', 'CONSTRAINT_SCHEMA', 'CONSTRAINT_NAME', 'TABLE_SCHEMA', 'TABLE_NAME', 'CONSTRAINT_TYPE', 'ENFORCED'],
    rows: (catalog) =>
      [...catalog].flatMap(([db, tables]) =>
        tables.flatMap(({ def }) => [
          ...keysInMySqlOrder(def)
            .filter((ix) => ix.unique)
            .map((ix) => ['def', db, ix.name, db, def.name, ix.name === 'PRIMARY' ? 'PRIMARY KEY' : 'UNIQUE', 'YES']),
          ...(def.foreignKeys ?? []).map((fk) => ['def', db, fk.name, db, def.name, 'FOREIGN KEY', 'YES']),
          ...(def.checks ?? []).map((c) => ['def', db, c.name, db, def.name, 'CHECK', c.enforced ? 'YES' : 'NO']),
        ]),
      ),
  },
  {
    // MySQL 8.0.16: the CHECK constraints, their clause as SHOW CREATE TABLE prints it
    name: 'CHECK_CONSTRAINTS',
    columns: ['CONSTRAINT_CATALOG', 'CONSTRAINT_SCHEMA', 'CONSTRAINT_NAME', 'CHECK_CLAUSE'],
    rows: (catalog) => [...catalog].flatMap(([db, tables]) => tables.flatMap(({ def }) => (def.checks ?? []).map((c) => ['def', db, c.name, checkClause(c)]))),
  },
  {
    name: 'KEY_COLUMN_USAGE',
    columns: ['CONSTRAINT_CATALOG', 'CONSTRAINT_SCHEMA', 'CONSTRAINT_NAME', 'TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'COLUMN_NAME', 'ORDINAL_POSITION', 'POSITION_IN_UNIQUE_CONSTRAINT', 'REFERENCED_TABLE_SCHEMA', 'REFERENCED_TABLE_NAME', 'REFERENCED_COLUMN_NAME'],
    rows: (catalog) =>
      [...catalog].flatMap(([db, tables]) =>
        tables.flatMap(({ def }) =>
          [
            ...keysInMySqlOrder(def)
              .filter((ix) => ix.unique)
              .flatMap((ix) => ix.columns.map((col, i) => ['def', db, ix.name, 'def', db, def.name, col, i + 1, null, null, null, null])),
            ...(def.foreignKeys ?? []).flatMap((fk) => fk.columns.map((col, i) => ['def', db, fk.name, 'def', db, def.name, col, i + 1, i + 1, db, fk.refTable, fk.refColumns[i] ?? null])),
          ],
        ),
      ),
  },
  {
    name: 'REFERENTIAL_CONSTRAINTS',
    columns: ['CONSTRAINT_CATALOG', 'CONSTRAINT_SCHEMA', 'CONSTRAINT_NAME', 'UNIQUE_CONSTRAINT_CATALOG', 'UNIQUE_CONSTRAINT_SCHEMA', 'UNIQUE_CONSTRAINT_NAME', 'MATCH_OPTION', 'UPDATE_RULE', 'DELETE_RULE', 'TABLE_NAME', 'REFERENCED_TABLE_NAME'],
    rows: (catalog) =>
      [...catalog].flatMap(([db, tables]) =>
        tables.flatMap(({ def }) =>
          (def.foreignKeys ?? []).map((fk) => {
            // the parent's key the constraint refers to: its primary key or a unique index on exactly those columns
            const parent = tables.find((t) => t.def.name === fk.refTable)?.def;
            const key = parent ? keysInMySqlOrder(parent).find((ix) => ix.unique && ix.columns.join('\0') === fk.refColumns.join('\0')) : undefined;
            return ['def', db, fk.name, 'def', db, key?.name ?? null, 'NONE', fk.onUpdate, fk.onDelete, def.name, fk.refTable];
          }),
        ),
      ),
  },
];

/** The names of the INFORMATION_SCHEMA tables there are (SHOW TABLES in it). */
export const INFORMATION_SCHEMA_TABLES = VIEWS.map((v) => v.name);

/** The table's indexes with the primary key first, named PRIMARY, as InnoDB lists them. */

const QUALIFIED = /`?information_schema`?\s*\.\s*(`[^`]+`|\w+)/gi;

/** Whether a statement reads INFORMATION_SCHEMA (names it as a qualifier, or runs in it). */
export function readsInformationSchema(sql: string, database: string | null): boolean {
  return database?.toLowerCase() === 'information_schema' || new RegExp(QUALIFIED.source, 'i').test(sql);
}

/** Runs a read of INFORMATION_SCHEMA; the result's column names are the views' (upper-case) where the query names a column plainly. */
export function queryInformationSchema(SQL: SqlJsStatic, catalog: SchemaCatalog, sql: string): { columns: string[]; rows: unknown[][] } {
  const tables = VIEWS.map((v) => ({ name: v.name, columns: v.columns, rows: v.rows(catalog) }));
  return withScratchTables(SQL, tables, (db) => {
    const text = replaceOutsideQuotes(sql.trim().replace(/;\s*$/, ''), QUALIFIED, (_m, name: string) => {
      const view = name.replace(/`/g, '').toUpperCase();
      if (!VIEWS.some((v) => v.name === view)) throw mysqlErrors.noSuchTable('information_schema', name.replace(/`/g, ''));
      return `"${view}"`;
    });
    let res;
    try {
      res = db.exec(text);
    } catch (err) {
      const msg = (err as Error).message;
      const table = /no such table: (\S+)/.exec(msg);
      if (table) throw mysqlErrors.noSuchTable('information_schema', table[1]!);
      const col = /no such column: (\S+)/.exec(msg);
      if (col) throw mysqlErrors.unknownColumn(col[1]!);
      throw mysqlErrors.syntax(text.slice(0, 80));
    }
    const last = res[res.length - 1];
    return { columns: last?.columns ?? [], rows: last?.values ?? [] };
  });
}
