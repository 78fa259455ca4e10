/**
 * ALTER TABLE for the embedded source: what a list of MySQL alter specifications makes of a
 * table's definition, and the SQLite statements that make the table so. The rows are checked
 * first where MySQL would refuse them (a NULL under NOT NULL, text under a numeric type, a
 * duplicate under a new unique key), with MySQL's errors.
 */
import type { Database, SqlValue } from 'sql.js';
import { counterStatements, counters } from './auto-increment.js';
import { sqlModeNow, storeErrorState, storeKind, storeValue, StoreError, type StoreKind } from './column-values.js';
import { implicitDefault } from './implicit-defaults.js';
import { toSql } from './dml-values.js';
import { checkParent, childRowError, hasOrphan } from './foreign-keys.js';
import { addForeignKey, aliasesRowid, checkDefault, checkKeyParts, identList, isGivenDefault, keyPartSql, keyParts, ignoresCase, inheritCollation, isCollated, Lexer, parseTableOptions, parseCreateTable, parseForeignKey, q, sqliteCreateIndex, sqliteIndexName, sqliteRebuildTable, sqliteType, unquoteIdent, unquoteString, type ColumnDef, type TableDef } from './mysql-ddl.js';
import { MySqlError, mysqlErrors } from './mysql-error.js';
import { alterCheck, refuseIfChecked, type CheckDef } from './check-constraints.js';

/** What an ALTER TABLE needs besides the table: the database's other tables and the session. */
export interface AlterContext {
  database: string;
  tables: Map<string, TableDef>;
  /** The session's foreign_key_checks. */
  foreignKeyChecks: boolean;
}

export interface AlterPlan {
  next: TableDef;
  sqlite: string[];
  /** A column's data type changed: MySQL copies the table and reports its rows as affected. */
  rowsCopied: boolean;
  /** CHECK constraints added or enforced: the rows must keep them once the table is altered. */
  verify: CheckDef[];
}

/**
 * Whether a key of `table` is an SQLite index of its own: unique keys of tables created by an
 * earlier version are part of SQLite's table definition instead.
 */
export function hasOwnIndex(db: Database, table: string, key: string): boolean {
  return db.exec(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?`, [sqliteIndexName(table, key)]).length > 0;
}

/** The plan for `ALTER TABLE <def.name> <specs>` (specifications separated by commas). */
export function planAlterTable(db: Database, def: TableDef, specs: string, ctx: AlterContext): AlterPlan {
  const next: TableDef = structuredClone(def);
  const sqlite: string[] = [];
  // columns MODIFY/CHANGE/ALTER COLUMN changed: the table is rebuilt, each column copied from its source
  const sources = new Map<string, string>();
  // columns whose type changed: copied as the new column stores their values
  const converted = new Map<string, ColumnDef>();
  let rebuild = false;
  let rowsCopied = false;
  let droppedPrimaryKey = false;
  const verify: CheckDef[] = [];
  let autoIncrement: number | undefined;
  let keysOnOffOnly = true;
  for (const written of specs.split(/,(?![^(]*\))/).map((s) => s.trim())) {
    // InnoDB has no such switch and lets it pass (a note, 1031): what mysqldump writes around its INSERTs
    if (/^(?:disable|enable)\s+keys$/i.test(written)) continue;
    keysOnOffOnly = false;
    const options = tableOptions(written);
    if (options) {
      if (options.convertTo) rebuild = convertTo(next, options.convertTo) || rebuild;
      // the options the table keeps (a new DEFAULT COLLATE is for the columns added later)
      else next.options = parseTableOptions(written, next.options ?? {});
      continue;
    }
    // FIRST / AFTER col of an added or changed column: the column moves there once the spec is applied
    const { spec, placement } = placementOf(written);
    const auto = /^auto_increment\s*(?:=\s*)?(\d+)$/i.exec(spec);
    if (auto) {
      autoIncrement = Number(auto[1]);
      continue;
    }
    const addFk = /^add\s+(?:constraint\s+(?!foreign\b)(`[^`]+`|\w+)\s+|constraint\s+)?foreign\s+(?=key\b)/i.exec(spec);
    if (addFk) {
      const lx = new Lexer(spec);
      lx.pos = addFk[0].length;
      const pending = parseForeignKey(lx, addFk[1] ? unquoteIdent(addFk[1]) : undefined);
      const indexes = next.indexes.length;
      const fk = addForeignKey(next, pending);
      const taken = [...ctx.tables.values()].flatMap((t) => (t.name === def.name ? [] : (t.foreignKeys ?? []).map((k) => k.name.toLowerCase())));
      // InnoDB's constraint names are unique in the database (ER_FK_DUP_NAME)
      if (taken.includes(fk.name.toLowerCase())) throw new MySqlError(1826, 'HY000', `Duplicate foreign key constraint name '${fk.name}'`);
      if (ctx.foreignKeyChecks) {
        const parent = fk.refTable === def.name ? next : ctx.tables.get(fk.refTable);
        checkParent(next, fk, parent);
        // MySQL copies the table and names its copy (`#sql-…`) in this error; the embedded source names the table
        if (hasOrphan(db, next, fk, parent !== undefined)) throw new MySqlError(1452, '23000', childRowError(ctx.database, def.name, fk));
      }
      for (const ix of next.indexes.slice(indexes)) sqlite.push(sqliteCreateIndex(def.name, ix, next));
      continue;
    }
    if (alterCheck(spec, next, verify)) continue;
    const dropFk = /^drop\s+foreign\s+key\s+(`[^`]+`|\w+)$/i.exec(spec);
    if (dropFk) {
      const name = unquoteIdent(dropFk[1]!);
      const fks = next.foreignKeys ?? [];
      if (!fks.some((k) => k.name.toLowerCase() === name.toLowerCase())) throw new MySqlError(1091, '42000', `Can't DROP '${name}'; check that column/key exists`);
      // the constraint's index stays (MySQL 8.0 manual, Dropping Foreign Key Constraints)
      next.foreignKeys = fks.filter((k) => k.name.toLowerCase() !== name.toLowerCase());
      continue;
    }
    const modify = /^modify\s+(?:column\s+)?(`[^`]+`|\w+)(\s.+)$/is.exec(spec);
    const change = /^change\s+(?:column\s+)?(`[^`]+`|\w+)\s+((?:`[^`]+`|\w+)\s.+)$/is.exec(spec);
    const alterDefault = /^alter\s+(?:column\s+)?(`[^`]+`|\w+)\s+(?:set\s+default\s+(.+)|drop\s+default)$/is.exec(spec);
    if (modify || change) {
      const from = unquoteIdent((modify ?? change)![1]!);
      const col = changeColumn(db, next, sources, converted, from, modify ? `${modify[1]}${modify[2]}` : change![2]!);
      rowsCopied = col.copied || rowsCopied;
      if (placement) place(next, col.name, placement);
      rebuild = true;
      continue;
    }
    if (alterDefault) {
      const name = unquoteIdent(alterDefault[1]!);
      const col = next.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
      if (!col) throw mysqlErrors.unknownColumn(name, def.name);
      col.defaultExpr = alterDefault[2]?.trim() ?? null;
      checkDefault(col);
      rebuild = true;
      continue;
    }
    const keySpec = /^add\s+(?:constraint\s+(?:(`[^`]+`|\w+)\s+)?(?=unique\b))?(unique\s+)?(?:(?:index|key)\s+)?(?:(`[^`]+`|\w+)\s*)?\(([^)]*(?:\([^)]*\)[^)]*)*)\)$/is.exec(spec);
    const dropKey = /^drop\s+(?:index|key)\s+(`[^`]+`|\w+)$/i.exec(spec);
    const add = /^add\s+(?:column\s+)?(.+)$/is.exec(spec);
    if (keySpec && /^add\s+(constraint|unique|index|key)\b/i.test(spec)) {
      sqlite.push(addKey(db, def.name, next, keySpec[2] !== undefined, keySpec[3] ?? keySpec[1], keySpec[4]!));
      continue;
    }
    const renameKey = /^rename\s+(?:index|key)\s+(`[^`]+`|\w+)\s+to\s+(`[^`]+`|\w+)$/i.exec(spec);
    if (renameKey) {
      sqlite.push(...renameIndex(db, next, unquoteIdent(renameKey[1]!), unquoteIdent(renameKey[2]!)));
      continue;
    }
    const addPk = /^add\s+(?:constraint\s+(?:(?!primary\b)(?:`[^`]+`|\w+)\s+)?)?primary\s+key\s*(?:using\s+\w+\s*)?\(([^)]*(?:\([^)]*\)[^)]*)*)\)(?:\s+using\s+\w+)?$/i.exec(spec);
    if (addPk) {
      addPrimaryKey(db, next, sources, addPk[1]!);
      rebuild = true;
      continue;
    }
    if (/^drop\s+primary\s+key$/i.test(spec)) {
      if (!next.primaryKey.length) throw new MySqlError(1091, '42000', "Can't DROP 'PRIMARY'; check that column/key exists");
      const auto = next.columns.find((c) => c.autoIncrement);
      // the AUTO_INCREMENT column must stay the first column of a key (ER_WRONG_AUTO_KEY)
      if (auto && !next.indexes.some((ix) => ix.columns[0] === auto.name)) throw new MySqlError(1075, '42000', 'Incorrect table definition; there can be only one auto column and it must be defined as a key');
      if (!supportedWithout(next, 'PRIMARY', ctx)) throw new MySqlError(1553, 'HY000', "Cannot drop index 'PRIMARY': needed in a foreign key constraint");
      next.primaryKey = [];
      droppedPrimaryKey = true;
      rebuild = true;
      continue;
    }
    if (dropKey) {
      const name = unquoteIdent(dropKey[1]!);
      const ix = next.indexes.find((i) => i.name.toLowerCase() === name.toLowerCase());
      if (!ix) throw new MySqlError(1091, '42000', `Can't DROP '${name}'; check that column/key exists`);
      if (!supportedWithout(next, ix.name, ctx)) throw new MySqlError(1553, 'HY000', `Cannot drop index '${ix.name}': needed in a foreign key constraint`);
      if (!hasOwnIndex(db, def.name, ix.name)) {
        throw mysqlErrors.notSupported(`dropping key '${ix.name}' of a table created by an earlier version of the embedded source`);
      }
      next.indexes = next.indexes.filter((i) => i !== ix);
      sqlite.push(`DROP INDEX ${q(sqliteIndexName(def.name, ix.name))}`);
      continue;
    }
    const drop = /^drop\s+(?:column\s+)?(`[^`]+`|\w+)$/i.exec(spec);
    const rename = /^rename\s+column\s+(`[^`]+`|\w+)\s+to\s+(`[^`]+`|\w+)$/i.exec(spec);
    if (add && !/^(primary|unique|key|index|constraint|foreign)\b/i.test(add[1]!)) {
      // ADD [COLUMN] (a INT, b INT) adds each column of the list
      const list = /^\(.*\)$/s.test(add[1]!) ? add[1]! : `(${add[1]})`;
      const parsed = parseCreateTable(`CREATE TABLE x ${list}`).def;
      if (parsed.primaryKey.length) throw mysqlErrors.notSupported('ADD COLUMN … PRIMARY KEY in the embedded source');
      inheritCollation(next, parsed.columns);
      for (const col of parsed.columns) {
        if (next.columns.some((c) => c.name.toLowerCase() === col.name.toLowerCase())) throw new MySqlError(1060, '42S21', `Duplicate column name '${col.name}'`);
        next.columns.push(col);
        let s = `ALTER TABLE ${q(def.name)} ADD COLUMN ${q(col.name)} ${sqliteType(col)}${ignoresCase(col) ? ' COLLATE NOCASE' : ''}`;
        if (isGivenDefault(col.defaultExpr)) s += ` DEFAULT ${/^current_timestamp|^now/i.test(col.defaultExpr) ? "'1970-01-01 00:00:00'" : col.defaultExpr}`;
        else if (!col.nullable && !col.autoIncrement) s += ` DEFAULT ${implicitFill(db, def.name, col)}`;
        sqlite.push(s);
        // SQLite adds a column without its NOT NULL: the copy makes the table so
        if (!col.nullable) rebuild = true;
      }
      // a UNIQUE written on the column: every row holds the column's default, which repeats unless NULL
      for (const ix of parsed.indexes) {
        const col = parsed.columns.find((c) => c.name === ix.columns[0])!;
        const given = isGivenDefault(col.defaultExpr) ? unquoteString(col.defaultExpr) : col.nullable ? undefined : implicitText(col);
        sqlite.push(addKey(db, def.name, next, ix.unique, undefined, q(col.name), { repeated: given !== undefined && rowCount(db, def.name) > 1 ? given : undefined }));
      }
      if (placement) {
        // SQLite appends the column (filling the rows with its default); the copy puts it in its place
        place(next, parsed.columns[0]!.name, placement);
        rebuild = true;
      }
    } else if (drop) {
      const name = unquoteIdent(drop[1]!);
      if (!next.columns.some((c) => c.name === name)) throw new MySqlError(1091, '42000', `Can't DROP '${name}'; check that column/key exists`);
      if (next.primaryKey.includes(name)) throw mysqlErrors.notSupported('dropping a primary-key column in the embedded source');
      // ER_FK_COLUMN_CANNOT_DROP (errmsg-utf8.txt)
      const fk = (next.foreignKeys ?? []).find((k) => k.columns.includes(name));
      if (fk) throw new MySqlError(1828, 'HY000', `Cannot drop column '${name}': needed in a foreign key constraint '${fk.name}'`);
      refuseIfChecked(next.checks, name, next.columns.map((c) => c.name));
      next.columns = next.columns.filter((c) => c.name !== name);
      next.indexes = next.indexes.filter((i) => !i.columns.includes(name));
      sqlite.push(`ALTER TABLE ${q(def.name)} DROP COLUMN ${q(name)}`);
    } else if (rename) {
      const from = unquoteIdent(rename[1]!);
      const to = unquoteIdent(rename[2]!);
      const col = next.columns.find((c) => c.name === from);
      if (!col) throw mysqlErrors.unknownColumn(from, def.name);
      refuseIfChecked(next.checks, from, next.columns.map((c) => c.name));
      col.name = to;
      next.primaryKey = next.primaryKey.map((k) => (k === from ? to : k));
      for (const ix of next.indexes) ix.columns = ix.columns.map((k) => (k === from ? to : k));
      for (const fk of next.foreignKeys ?? []) fk.columns = fk.columns.map((k) => (k === from ? to : k));
      sqlite.push(`ALTER TABLE ${q(def.name)} RENAME COLUMN ${q(from)} TO ${q(to)}`);
    } else {
      throw mysqlErrors.notSupported(`ALTER TABLE … ${spec.split(/\s+/).slice(0, 2).join(' ')} in the embedded source`);
    }
  }
  // mysql_prepare_create_table checks every column's default again, under this statement's
  // sql_mode (but for DISABLE/ENABLE KEYS alone, done in place): a table made with DEFAULT
  // '0000-00-00' outside NO_ZERO_DATE cannot be altered in strict mode with it (1067)
  if (!keysOnOffOnly) for (const c of next.columns) checkDefault(c);
  // InnoDB drops a primary key in place only when the statement adds another: otherwise it copies the table
  if (droppedPrimaryKey && !next.primaryKey.length) rowsCopied = true;
  if (rebuild) sqlite.push(...sqliteRebuildTable(next, sources, converted));
  if (aliasesRowid(next) && (rebuild || autoIncrement !== undefined)) {
    // the copy keeps the AUTO_INCREMENT counter; AUTO_INCREMENT = N sets it, but never to a value
    // the rows have used (MySQL 8.0 manual, ALTER TABLE: at least the largest value plus one)
    let last = counters(db).get(def.name) ?? 0;
    if (autoIncrement !== undefined) {
      const max = Number(db.exec(`SELECT COALESCE(max(rowid), 0) FROM ${q(def.name)}`)[0]?.values[0]?.[0] ?? 0);
      last = Math.max(autoIncrement, max + 1) - 1;
    }
    sqlite.push(...counterStatements(def.name, last));
  }
  return { next, sqlite, rowsCopied, verify };
}

/**
 * What the rows hold in a NOT NULL column added without a DEFAULT: its implicit default, as SQL.
 * A date or time of day has the zero date there, which strict mode with NO_ZERO_DATE refuses (as
 * MySQL does, 1292) when the table has rows.
 */
function implicitFill(db: Database, table: string, col: ColumnDef): string {
  const k = storeKind(col);
  const v = implicitDefault(k);
  if (v === undefined) {
    if (rowCount(db, table) === 0) return 'NULL';
    throw mysqlErrors.notSupported(`adding a NOT NULL ${col.baseType.toUpperCase()} column without a DEFAULT to a table with rows in the embedded source`);
  }
  const mode = sqlModeNow();
  if ((k.kind === 'date' || k.kind === 'datetime' || k.kind === 'timestamp') && mode.strict && mode.noZeroDate && rowCount(db, table) > 0) {
    // the zero value without its fraction, for a DATETIME(6) too
    throw new MySqlError(1292, '22007', `Incorrect ${k.kind === 'date' ? 'date' : 'datetime'} value: '${String(v).slice(0, 19)}' for column '${col.name}' at row 1`);
  }
  return toSql(v);
}

/** The implicit default's text, as a duplicate-key error shows it. */
function implicitText(col: ColumnDef): string | undefined {
  const v = implicitDefault(storeKind(col));
  return v === undefined || v instanceof Uint8Array ? undefined : String(v);
}

/** The rows the table holds. */
export const rowCount = (db: Database, table: string) => Number(db.exec(`SELECT count(*) FROM ${q(table)}`)[0]!.values[0]![0]);

/**
 * A value some two rows share in a key about to be made (the key parts' SQL, `exprs`; rows with a
 * NULL in it are no duplicates), as 1062 shows it, or undefined.
 */
function repeatedKey(db: Database, table: string, exprs: string[]): string | undefined {
  const dup = db.exec(`SELECT ${exprs.map((c) => `COALESCE(${c}, 'NULL')`).join(` || '-' || `)} FROM ${q(table)} WHERE ${exprs.map((c) => `${c} IS NOT NULL`).join(' AND ')} GROUP BY ${exprs.join(', ')} HAVING count(*) > 1 LIMIT 1`);
  return dup[0]?.values.length ? String(dup[0].values[0]![0]) : undefined;
}

/** Where `FIRST` or `AFTER col` puts an added or changed column; the spec without it. */
function placementOf(spec: string): { spec: string; placement?: string } {
  if (!/^(?:add|modify|change)\b/i.test(spec) || /^add\s+(?:primary|unique|key|index|constraint|foreign|fulltext|spatial|check)\b/i.test(spec)) return { spec };
  const m = /\s+(first|after\s+(?:`[^`]+`|\w+))$/i.exec(spec);
  return m ? { spec: spec.slice(0, m.index), placement: m[1]! } : { spec };
}

/** Moves column `name` of `next` first, or after the column `placement` names (1054 when there is none). */
function place(next: TableDef, name: string, placement: string): void {
  const cols = next.columns;
  const [col] = cols.splice(cols.findIndex((c) => c.name === name), 1);
  if (/^first$/i.test(placement)) {
    cols.unshift(col!);
    return;
  }
  const after = unquoteIdent(placement.replace(/^after\s+/i, ''));
  const at = cols.findIndex((c) => c.name.toLowerCase() === after.toLowerCase());
  if (at < 0) throw mysqlErrors.unknownColumn(after, next.name);
  cols.splice(at + 1, 0, col!);
}

/**
 * Table options in an ALTER TABLE (ENGINE=InnoDB DEFAULT CHARSET=utf8mb4, ALGORITHM=INPLACE,
 * LOCK=NONE, COMMENT='…', FORCE, CONVERT TO CHARACTER SET …): accepted as CREATE TABLE accepts
 * them, since the embedded source keeps one engine and one table character set. CONVERT TO
 * changes the collation of the text columns, which decides whether they compare ignoring case.
 * Null when the spec is something else.
 */
function tableOptions(spec: string): { convertTo?: { charset: string; collation?: string } } | null {
  const convert = /^convert\s+to\s+(?:character\s+set|charset)\s+(\w+)(?:\s+collate\s+(\w+))?$/i.exec(spec);
  if (convert) return { convertTo: { charset: convert[1]!.toLowerCase(), ...(convert[2] ? { collation: convert[2].toLowerCase() } : {}) } };
  let rest = spec;
  for (;;) {
    const m = TABLE_OPTION.exec(rest);
    if (!m) return null;
    rest = rest.slice(m[0].length).trim();
    if (!rest) return {};
  }
}

const TABLE_OPTION =
  /^(?:(?:default\s+)?(?:character\s+set|charset|collate)(?:\s*=\s*|\s+)\w+|(?:engine|row_format|algorithm|lock|insert_method|pack_keys|stats_persistent|stats_auto_recalc|stats_sample_pages|checksum|delay_key_write|key_block_size|avg_row_length|min_rows|max_rows|compression|encryption)(?:\s*=\s*|\s+)(?:\w+|'[^']*')|(?:comment|connection|password)(?:\s*=\s*|\s+)'(?:[^'\\]|\\.|'')*'|force|without\s+validation|with\s+validation)\s*/i;

/** CONVERT TO CHARACTER SET: the text columns take the collation; true when their case sensitivity changes (the table is copied). */
function convertTo(next: TableDef, to: { charset: string; collation?: string }): boolean {
  if (to.charset === 'binary') throw mysqlErrors.notSupported('CONVERT TO CHARACTER SET binary in the embedded source');
  next.options = parseTableOptions(`CHARSET=${to.charset}${to.collation ? ` COLLATE=${to.collation}` : ''}`, next.options ?? {});
  let changed = false;
  for (const col of next.columns) {
    if (!isCollated(col)) continue;
    const before = ignoresCase(col);
    if (to.collation) col.collation = to.collation;
    else delete col.collation;
    changed = changed || ignoresCase(col) !== before;
  }
  return changed;
}

/**
 * Whether every foreign key keeps a key that starts with its columns once key `without` (a name,
 * or PRIMARY) is gone: the table's own foreign keys, and those of the tables that refer to it.
 */
function supportedWithout(def: TableDef, without: string, ctx: AlterContext): boolean {
  const keys = [...(without === 'PRIMARY' ? [] : [def.primaryKey]), ...def.indexes.filter((ix) => ix.name !== without).map((ix) => ix.columns)];
  const covered = (columns: string[]) => keys.some((cols) => columns.every((c, i) => cols[i]?.toLowerCase() === c.toLowerCase()));
  const referring = [...ctx.tables.values()].flatMap((t) => (t.name === def.name ? [] : (t.foreignKeys ?? []))).concat(def.foreignKeys ?? []).filter((fk) => fk.refTable === def.name);
  return (def.foreignKeys ?? []).every((fk) => covered(fk.columns)) && referring.every((fk) => covered(fk.refColumns));
}

/** ALTER TABLE … RENAME INDEX a TO b: the key's new name, and its SQLite index renamed. */
function renameIndex(db: Database, next: TableDef, from: string, to: string): string[] {
  // PRIMARY is a reserved word there: MySQL's parser refuses it on either side
  if (/^primary$/i.test(from) || /^primary$/i.test(to)) throw mysqlErrors.syntax(from.toUpperCase() === 'PRIMARY' ? `PRIMARY TO ${to}` : 'PRIMARY');
  const ix = next.indexes.find((i) => i.name.toLowerCase() === from.toLowerCase());
  if (!ix) throw new MySqlError(1176, '42000', `Key '${from}' doesn't exist in table '${next.name}'`);
  if (ix.name.toLowerCase() !== to.toLowerCase() && next.indexes.some((i) => i.name.toLowerCase() === to.toLowerCase())) throw new MySqlError(1061, '42000', `Duplicate key name '${to}'`);
  if (!hasOwnIndex(db, next.name, ix.name)) throw mysqlErrors.notSupported(`renaming key '${ix.name}' of a table created by an earlier version of the embedded source`);
  const drop = `DROP INDEX ${q(sqliteIndexName(next.name, ix.name))}`;
  ix.name = to;
  return [drop, sqliteCreateIndex(next.name, ix, next)];
}

/**
 * ALTER TABLE … ADD PRIMARY KEY (cols): the columns become NOT NULL, which a NULL in the rows
 * refuses (1138, as InnoDB's in-place ALTER says), and a value twice refuses the key (1062).
 */
function addPrimaryKey(db: Database, next: TableDef, sources: Map<string, string>, rawColumns: string): void {
  if (next.primaryKey.length) throw new MySqlError(1068, '42000', 'Multiple primary key defined');
  const columns = identList(rawColumns).map((k) => {
    const col = next.columns.find((c) => c.name.toLowerCase() === k.toLowerCase());
    if (!col) throw new MySqlError(1072, '42000', `Key column '${k}' doesn't exist in table`);
    return col;
  });
  const read = columns.map((c) => q(sources.get(c.name) ?? c.name));
  if (db.exec(`SELECT 1 FROM ${q(next.name)} WHERE ${read.map((c) => `${c} IS NULL`).join(' OR ')} LIMIT 1`).length) throw new MySqlError(1138, '22004', 'Invalid use of NULL value');
  // (no NULL is left in the columns by now)
  const dup = repeatedKey(db, next.name, read);
  if (dup !== undefined) throw mysqlErrors.duplicate(dup, `${next.name}.PRIMARY`);
  for (const c of columns) c.nullable = false;
  next.primaryKey = columns.map((c) => c.name);
}

/**
 * `loupe_convert(value, column)`: the value as the column (its definition, JSON) stores it, for
 * the copy of ALTER TABLE … MODIFY/CHANGE. The values were checked before the copy, so none fails
 * here; the definition is in the statement so that the change log replays it after a restart.
 */
export function registerAlterFunctions(db: Database): void {
  db.create_function('loupe_convert', (v: SqlValue, json: SqlValue) => {
    const { c, k } = convertible(String(json));
    return storeValue(c, k, { value: v }, 1, false);
  });
}

const byDefinition = new Map<string, { c: ColumnDef; k: StoreKind }>();
function convertible(json: string): { c: ColumnDef; k: StoreKind } {
  let e = byDefinition.get(json);
  if (!e) {
    const c = JSON.parse(json) as ColumnDef;
    byDefinition.set(json, (e = { c, k: storeKind(c) }));
  }
  return e;
}

/** Whether two definitions of a column store values alike (the same type, length, scale, sign…). */
const sameType = (a: ColumnDef, b: ColumnDef) => a.baseType === b.baseType && a.args.join() === b.args.join() && a.unsigned === b.unsigned && (a.zerofill ?? false) === (b.zerofill ?? false);

/**
 * MODIFY/CHANGE COLUMN: the new definition replaces the column in place, keys follow a rename,
 * and the rows are checked first as MySQL's strict mode does (a NULL for NOT NULL, text that is
 * no number for a numeric type). True when the data type changes (MySQL copies the table).
 */
function changeColumn(db: Database, next: TableDef, sources: Map<string, string>, converted: Map<string, ColumnDef>, from: string, definition: string): { name: string; copied: boolean } {
  const at = next.columns.findIndex((c) => c.name.toLowerCase() === from.toLowerCase());
  if (at < 0) throw mysqlErrors.unknownColumn(from, next.name);
  const old = next.columns[at]!;
  const col = parseCreateTable(`CREATE TABLE x (${definition})`).def.columns[0]!;
  // a column redefined without a collation takes the table's
  inheritCollation(next, [col]);
  if (col.name.toLowerCase() !== old.name.toLowerCase()) refuseIfChecked(next.checks, old.name, next.columns.map((c) => c.name));
  if (col.name.toLowerCase() !== old.name.toLowerCase() && next.columns.some((c) => c.name.toLowerCase() === col.name.toLowerCase())) {
    throw new MySqlError(1060, '42S21', `Duplicate column name '${col.name}'`);
  }
  if (next.primaryKey.includes(old.name)) col.nullable = false;
  const source = sources.get(old.name) ?? old.name;
  const earlier = converted.get(old.name);
  const convert = !sameType(col, earlier ?? old);
  // the copy reads the rows in primary key order (InnoDB's clustered index), as its "at row N" counts them
  const order = next.primaryKey.length ? next.primaryKey.map((k) => q(sources.get(k) ?? k)).join(', ') : 'rowid';
  const rows = db.exec(`SELECT ${q(source)} FROM ${q(next.name)} ORDER BY ${order}`)[0]?.values ?? [];
  const k = storeKind(col);
  rows.forEach(([v], i) => {
    if (v === null && !col.nullable) throw new MySqlError(1138, '22004', 'Invalid use of NULL value');
    // each row is stored as an INSERT in strict mode would store it (Field_*::store): 1264, 1265, 1366, 1406, 1292 name the row
    if (!convert) return;
    try {
      storeValue(col, k, { value: earlier ? storeValue(earlier, storeKind(earlier), { value: v }, i + 1, false) : v }, i + 1, true);
    } catch (err) {
      if (err instanceof StoreError) throw new MySqlError(err.errno, storeErrorState(err.errno), err.text);
      throw err;
    }
  });
  next.columns[at] = col;
  sources.delete(old.name);
  sources.set(col.name, source);
  converted.delete(old.name);
  if (convert || earlier) converted.set(col.name, col);
  for (const fk of next.foreignKeys ?? []) fk.columns = fk.columns.map((c) => (c === old.name ? col.name : c));
  next.primaryKey = next.primaryKey.map((k) => (k === old.name ? col.name : k));
  for (const ix of next.indexes) ix.columns = ix.columns.map((k) => (k === old.name ? col.name : k));
  // MySQL copies the table for a new type (reporting the rows as affected), but lengthens a VARCHAR in place
  const lengthened = old.baseType === 'varchar' && col.baseType === 'varchar' && Number(col.args[0]) >= Number(old.args[0]);
  return { name: col.name, copied: convert && !lengthened };
}

/** ALTER TABLE … ADD [UNIQUE] INDEX: checks as MySQL does, adds the key to `next`, returns the SQLite statement. */
function addKey(db: Database, tableName: string, next: TableDef, unique: boolean, rawName: string | undefined, rawColumns: string, newColumn?: { repeated?: string }): string {
  const parts = keyParts(rawColumns);
  const columns = parts.columns.map((k) => {
    const col = next.columns.find((c) => c.name.toLowerCase() === k.toLowerCase());
    if (!col) throw new MySqlError(1072, '42000', `Key column '${k}' doesn't exist in table`);
    return col.name;
  });
  checkKeyParts(next, { ...parts, columns });
  const taken = (n: string) => n.toUpperCase() === 'PRIMARY' || next.indexes.some((i) => i.name.toLowerCase() === n.toLowerCase());
  let name = rawName ? unquoteIdent(rawName) : columns[0]!;
  if (rawName && taken(name)) throw new MySqlError(1061, '42000', `Duplicate key name '${name}'`);
  // MySQL names an unnamed key after its first column, then _2, _3… when that is taken
  for (let n = 2; taken(name); n++) name = `${columns[0]}_${n}`;
  // a column this statement adds is not in the rows yet: each row holds its default
  if (newColumn?.repeated !== undefined) throw mysqlErrors.duplicate(newColumn.repeated, `${tableName}.${name}`);
  if (unique && !newColumn) {
    const dup = repeatedKey(db, next.name, columns.map((_c, i) => keyPartSql({ ...parts, columns }, i, undefined, next)));
    // the table as it was named before the statement, not MySQL's `#sql-…` copy (print_keydup_error's org_table_name)
    if (dup !== undefined) throw mysqlErrors.duplicate(dup, `${tableName}.${name}`);
  }
  const ix = { ...parts, name, columns, unique };
  next.indexes.push(ix);
  return sqliteCreateIndex(next.name, ix, next);
}
