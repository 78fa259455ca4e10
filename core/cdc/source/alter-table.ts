/**
 * ALTER TABLE for the embedded source: what a list of MySQL alter specifications makes of a
 * table's definition, and the SQLite statements that make the table so. The rows are checked
 * first where MySQL would refuse them (a NULL under NOT NULL, text under a numeric type, a
 * duplicate under a new unique key), with MySQL's errors.
 */
import type { Database } from 'sql.js';
import { identList, ignoresCase, parseCreateTable, q, sqliteCreateIndex, sqliteIndexName, sqliteRebuildTable, sqliteType, unquoteIdent, type TableDef } from './mysql-ddl.js';
import { MySqlError, mysqlErrors } from './mysql-error.js';

export interface AlterPlan {
  next: TableDef;
  sqlite: string[];
  /** A column's data type changed: MySQL copies the table and reports its rows as affected. */
  rowsCopied: boolean;
}

/**
 * Whether a key of `table` is an SQLite index of its own: unique keys of tables created by an
 * earlier version are part of SQLite's table definition instead.
 */
export function hasOwnIndex(db: Database, table: string, key: string): boolean {
  return db.exec(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?`, [sqliteIndexName(table, key)]).length > 0;
}

/** The plan for `ALTER TABLE <def.name> <specs>` (specifications separated by commas). */
export function planAlterTable(db: Database, def: TableDef, specs: string): AlterPlan {
  const next: TableDef = structuredClone(def);
  const sqlite: string[] = [];
  // columns MODIFY/CHANGE/ALTER COLUMN changed: the table is rebuilt, each column copied from its source
  const sources = new Map<string, string>();
  let rebuild = false;
  let rowsCopied = false;
  for (const spec of specs.split(/,(?![^(]*\))/).map((s) => s.trim())) {
    const modify = /^modify\s+(?:column\s+)?(`[^`]+`|\w+)(\s.+)$/is.exec(spec);
    const change = /^change\s+(?:column\s+)?(`[^`]+`|\w+)\s+((?:`[^`]+`|\w+)\s.+)$/is.exec(spec);
    const alterDefault = /^alter\s+(?:column\s+)?(`[^`]+`|\w+)\s+(?:set\s+default\s+(.+)|drop\s+default)$/is.exec(spec);
    if (modify || change) {
      const from = unquoteIdent((modify ?? change)![1]!);
      rowsCopied = changeColumn(db, next, sources, from, modify ? `${modify[1]}${modify[2]}` : change![2]!) || rowsCopied;
      rebuild = true;
      continue;
    }
    if (alterDefault) {
      const name = unquoteIdent(alterDefault[1]!);
      const col = next.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
      if (!col) throw mysqlErrors.unknownColumn(name, def.name);
      col.defaultExpr = alterDefault[2]?.trim() ?? null;
      rebuild = true;
      continue;
    }
    const keySpec = /^add\s+(?:constraint\s+(?:(`[^`]+`|\w+)\s+)?(?=unique\b))?(unique\s+)?(?:(?:index|key)\s+)?(?:(`[^`]+`|\w+)\s*)?\(([^)]*(?:\([^)]*\)[^)]*)*)\)$/is.exec(spec);
    const dropKey = /^drop\s+(?:index|key)\s+(`[^`]+`|\w+)$/i.exec(spec);
    const add = /^add\s+(?:column\s+)?(.+)$/is.exec(spec);
    if (keySpec && /^add\s+(constraint|unique|index|key)\b/i.test(spec)) {
      sqlite.push(addKey(db, next, keySpec[2] !== undefined, keySpec[3] ?? keySpec[1], keySpec[4]!));
      continue;
    }
    if (dropKey) {
      const name = unquoteIdent(dropKey[1]!);
      const ix = next.indexes.find((i) => i.name.toLowerCase() === name.toLowerCase());
      if (!ix) throw new MySqlError(1091, '42000', `Can't DROP '${name}'; check that column/key exists`);
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
      const parsed = parseCreateTable(`CREATE TABLE x (${add[1]})`).def;
      const col = parsed.columns[0]!;
      if (next.columns.some((c) => c.name.toLowerCase() === col.name.toLowerCase())) throw new MySqlError(1060, '42S21', `Duplicate column name '${col.name}'`);
      next.columns.push(col);
      let s = `ALTER TABLE ${q(def.name)} ADD COLUMN ${q(col.name)} ${sqliteType(col)}${ignoresCase(col) ? ' COLLATE NOCASE' : ''}`;
      if (col.defaultExpr !== null && !/^null$/i.test(col.defaultExpr)) s += ` DEFAULT ${/^current_timestamp|^now/i.test(col.defaultExpr) ? "'1970-01-01 00:00:00'" : col.defaultExpr}`;
      sqlite.push(s);
    } else if (drop) {
      const name = unquoteIdent(drop[1]!);
      if (!next.columns.some((c) => c.name === name)) throw new MySqlError(1091, '42000', `Can't DROP '${name}'; check that column/key exists`);
      if (next.primaryKey.includes(name)) throw mysqlErrors.notSupported('dropping a primary-key column in the embedded source');
      next.columns = next.columns.filter((c) => c.name !== name);
      next.indexes = next.indexes.filter((i) => !i.columns.includes(name));
      sqlite.push(`ALTER TABLE ${q(def.name)} DROP COLUMN ${q(name)}`);
    } else if (rename) {
      const from = unquoteIdent(rename[1]!);
      const to = unquoteIdent(rename[2]!);
      const col = next.columns.find((c) => c.name === from);
      if (!col) throw mysqlErrors.unknownColumn(from, def.name);
      col.name = to;
      next.primaryKey = next.primaryKey.map((k) => (k === from ? to : k));
      for (const ix of next.indexes) ix.columns = ix.columns.map((k) => (k === from ? to : k));
      sqlite.push(`ALTER TABLE ${q(def.name)} RENAME COLUMN ${q(from)} TO ${q(to)}`);
    } else {
      throw mysqlErrors.notSupported(`ALTER TABLE … ${spec.split(/\s+/).slice(0, 2).join(' ')} in the embedded source`);
    }
  }
  if (rebuild) sqlite.push(...sqliteRebuildTable(next, sources));
  return { next, sqlite, rowsCopied };
}

/**
 * MODIFY/CHANGE COLUMN: the new definition replaces the column in place, keys follow a rename,
 * and the rows are checked first as MySQL's strict mode does (a NULL for NOT NULL, text that is
 * no number for a numeric type). True when the data type changes (MySQL copies the table).
 */
function changeColumn(db: Database, next: TableDef, sources: Map<string, string>, from: string, definition: string): boolean {
  const at = next.columns.findIndex((c) => c.name.toLowerCase() === from.toLowerCase());
  if (at < 0) throw mysqlErrors.unknownColumn(from, next.name);
  const old = next.columns[at]!;
  const col = parseCreateTable(`CREATE TABLE x (${definition})`).def.columns[0]!;
  if (col.name.toLowerCase() !== old.name.toLowerCase() && next.columns.some((c) => c.name.toLowerCase() === col.name.toLowerCase())) {
    throw new MySqlError(1060, '42S21', `Duplicate column name '${col.name}'`);
  }
  if (next.primaryKey.includes(old.name)) col.nullable = false;
  const source = sources.get(old.name) ?? old.name;
  const rows = db.exec(`SELECT ${q(source)} FROM ${q(next.name)} ORDER BY rowid`)[0]?.values ?? [];
  rows.forEach(([v], i) => {
    if (v === null && !col.nullable) throw new MySqlError(1138, '22004', 'Invalid use of NULL value');
    const numeric = sqliteType(col) === 'INTEGER' || sqliteType(col) === 'REAL';
    if (numeric && typeof v === 'string' && !/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v)) {
      const kind = sqliteType(col) === 'INTEGER' ? 'integer' : 'double';
      throw new MySqlError(1366, 'HY000', `Incorrect ${kind} value: '${v}' for column '${col.name}' at row ${i + 1}`);
    }
  });
  next.columns[at] = col;
  sources.delete(old.name);
  sources.set(col.name, source);
  next.primaryKey = next.primaryKey.map((k) => (k === old.name ? col.name : k));
  for (const ix of next.indexes) ix.columns = ix.columns.map((k) => (k === old.name ? col.name : k));
  return col.baseType !== old.baseType || col.unsigned !== old.unsigned;
}

/** ALTER TABLE … ADD [UNIQUE] INDEX: checks as MySQL does, adds the key to `next`, returns the SQLite statement. */
function addKey(db: Database, next: TableDef, unique: boolean, rawName: string | undefined, rawColumns: string): string {
  const columns = identList(rawColumns).map((k) => {
    const col = next.columns.find((c) => c.name.toLowerCase() === k.toLowerCase());
    if (!col) throw new MySqlError(1072, '42000', `Key column '${k}' doesn't exist in table`);
    return col.name;
  });
  const taken = (n: string) => n.toUpperCase() === 'PRIMARY' || next.indexes.some((i) => i.name.toLowerCase() === n.toLowerCase());
  let name = rawName ? unquoteIdent(rawName) : columns[0]!;
  if (rawName && taken(name)) throw new MySqlError(1061, '42000', `Duplicate key name '${name}'`);
  // MySQL names an unnamed key after its first column, then _2, _3… when that is taken
  for (let n = 2; taken(name); n++) name = `${columns[0]}_${n}`;
  if (unique) {
    const cols = columns.map(q);
    const dup = db.exec(`SELECT ${cols.map((c) => `COALESCE(${c}, 'NULL')`).join(` || '-' || `)} FROM ${q(next.name)} WHERE ${cols.map((c) => `${c} IS NOT NULL`).join(' AND ')} GROUP BY ${cols.join(', ')} HAVING count(*) > 1 LIMIT 1`);
    if (dup[0]?.values.length) throw mysqlErrors.duplicate(String(dup[0].values[0]![0]), name);
  }
  const ix = { name, columns, unique };
  next.indexes.push(ix);
  return sqliteCreateIndex(next.name, ix);
}
