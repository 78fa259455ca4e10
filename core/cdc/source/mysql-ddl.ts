/**
 * MySQL CREATE TABLE → a table definition (MySQL column types kept for DESCRIBE and for the
 * Debezium schemas) and the SQLite DDL that stores it. Only what the embedded source needs:
 * columns with types (the spatial ones with MySQL 8.0's SRID attribute), NULL/NOT NULL, DEFAULT,
 * AUTO_INCREMENT, PRIMARY/UNIQUE keys and indexes,
 * FOREIGN KEY constraints; of the table options only AUTO_INCREMENT=N is kept (ENGINE=…,
 * CHARSET=… are accepted and ignored).
 */
import { namedChecks, showChecks, type CheckClause, type CheckDef } from './check-constraints.js';
import { introducedText, isIntroducer } from './charset-introducers.js';
import { sqliteLiteral, stringValue } from './mysql-strings.js';
import { sqlModeNow, storeKind, storeValue, StoreError, withZeroDates } from './column-values.js';
import { warn } from './diagnostics.js';
import { MySqlError, mysqlErrors } from './mysql-error.js';
import { defaultLiteral, displayDefault, displayType, nowClause, NOW_DEFAULT, PRECISION_FOR_DOUBLE, quoted } from './mysql-type-display.js';
import { isSpatial } from './spatial-column.js';
import { replaceOutsideQuotes } from './sql-text.js';

export interface ColumnDef {
  name: string;
  /**
   * The type as written, lower-cased, with UNSIGNED: `int(11)`, `numeric(5,2)`, `bool`, `int unsigned`.
   * What MySQL prints is displayType(c) (mysql-type-display.ts).
   */
  mysqlType: string;
  /** Lower-case type keyword(s) as written: `int`, `integer`, `int4`, `varchar`, `double precision`, … */
  baseType: string;
  /** Numbers in the type's parentheses (length, precision/scale), or enum values. */
  args: string[];
  unsigned: boolean;
  /** ZEROFILL was written (MySQL then also treats the column as UNSIGNED); absent in definitions stored before it was kept. */
  zerofill?: boolean;
  nullable: boolean;
  /** Default expression as written (`CURRENT_TIMESTAMP`, `'x'`, `0`), a string with only `''` and `\\` escaped (requoted), or null. */
  defaultExpr: string | null;
  autoIncrement: boolean;
  onUpdateNow: boolean;
  comment?: string;
  /** COLLATE given on the column (or `binary` for CHARACTER SET binary / the BINARY attribute). */
  collation?: string;
  /** A spatial column's `SRID n` attribute (MySQL 8.0.3): it takes geometries of that SRID only. */
  srid?: number;
}

export interface IndexDef {
  name: string;
  columns: string[];
  unique: boolean;
  /** Each part's prefix length (`email(191)`), null for a whole column; absent when no part has one. */
  prefixes?: (number | null)[];
  /** Parts written DESC (MySQL 8.0 keeps them descending); absent when none is. */
  descending?: boolean[];
}

/** What InnoDB does to the child rows when their parent row is deleted or its key updated. */
export type ForeignKeyAction = 'RESTRICT' | 'CASCADE' | 'SET NULL' | 'NO ACTION';

/** A FOREIGN KEY constraint of the table (the child) on a table of the same database (the parent). */
export interface ForeignKeyDef {
  /** The constraint's name: as given, or `<table>_ibfk_<n>`. */
  name: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  onDelete: ForeignKeyAction;
  onUpdate: ForeignKeyAction;
}

export interface TableDef {
  name: string;
  columns: ColumnDef[];
  primaryKey: string[];
  indexes: IndexDef[];
  /** FOREIGN KEY constraints; absent in definitions stored before they were kept. */
  foreignKeys?: ForeignKeyDef[];
  /** CHECK constraints (check-constraints.ts); absent in definitions stored before they were kept. */
  checks?: CheckDef[];
  /** Table options as written (parseTableOptions): absent where the table has MySQL's defaults. */
  options?: TableOptions;
}

export interface TableOptions {
  /** DEFAULT CHARSET, lower-case, where it is not utf8mb4. */
  charset?: string;
  /** DEFAULT COLLATE, lower-case, where it is not the charset's default: text columns without their own take it. */
  collation?: string;
  comment?: string;
  /** ROW_FORMAT, upper-case. */
  rowFormat?: string;
}

// INT1…INT8, MIDDLEINT, FLOAT4 and FLOAT8 are MySQL's synonyms of the integer and float keywords (sql/lex.h)
const INT_TYPES = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint', 'int1', 'int2', 'int3', 'int4', 'int8', 'middleint', 'bit', 'bool', 'boolean', 'year', 'serial']);
const REAL_TYPES = new Set(['float', 'double', 'double precision', 'real', 'float4', 'float8']);
const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set', 'json', 'date', 'datetime', 'timestamp', 'time', 'decimal', 'numeric', 'dec', 'fixed']);
const BLOB_TYPES = new Set(['binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob']);

/** Reads identifiers, strings, numbers, punctuation. */
export class Lexer {
  pos = 0;
  constructor(readonly s: string) {}
  ws(): void {
    while (this.pos < this.s.length && /\s/.test(this.s[this.pos]!)) this.pos++;
  }
  peek(): string {
    this.ws();
    const save = this.pos;
    const t = this.next();
    this.pos = save;
    return t;
  }
  eof(): boolean {
    this.ws();
    return this.pos >= this.s.length;
  }
  next(): string {
    this.ws();
    const s = this.s;
    const c = s[this.pos];
    if (c === undefined) return '';
    if (c === '`' || c === '"' || c === "'") {
      // a quote doubled is one quote of the text; a backslash escapes the next character in a string, not in a name
      let j = this.pos + 1;
      while (j < s.length) {
        if (s[j] === '\\' && c !== '`') j += 2;
        else if (s[j] === c && s[j + 1] === c) j += 2;
        else if (s[j] === c) break;
        else j++;
      }
      if (j >= s.length && c !== "'") throw mysqlErrors.syntax(s.slice(this.pos, this.pos + 40));
      const t = s.slice(this.pos, j + 1);
      this.pos = j + 1;
      return t;
    }
    const m = /^[A-Za-z0-9_$.+-]+/.exec(s.slice(this.pos));
    if (m) {
      this.pos += m[0].length;
      return m[0];
    }
    this.pos++;
    return c;
  }
  expect(t: string): void {
    const got = this.next();
    if (got.toLowerCase() !== t.toLowerCase()) throw mysqlErrors.syntax(this.rest(got));
  }
  rest(from = ''): string {
    return (from + this.s.slice(this.pos)).trim().slice(0, 80);
  }
  /** The balanced `( … )` text starting at the next token, without the outer parentheses. */
  group(): string {
    this.ws();
    if (this.s[this.pos] !== '(') throw mysqlErrors.syntax(this.rest());
    let depth = 0;
    const start = this.pos;
    for (let j = this.pos; j < this.s.length; j++) {
      const c = this.s[j];
      if (c === "'" || c === '"' || c === '`') {
        const sub = new Lexer(this.s);
        sub.pos = j;
        sub.next();
        j = sub.pos - 1;
        continue;
      }
      if (c === '(') depth++;
      else if (c === ')') {
        depth--;
        if (depth === 0) {
          this.pos = j + 1;
          return this.s.slice(start + 1, j);
        }
      }
    }
    throw mysqlErrors.syntax(this.rest());
  }
}

export function unquoteIdent(t: string): string {
  if ((t.startsWith('`') && t.endsWith('`')) || (t.startsWith('"') && t.endsWith('"'))) return t.slice(1, -1);
  return t;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const lx = new Lexer(body);
      lx.pos = i;
      const tok = lx.next();
      cur += tok;
      i = lx.pos - 1;
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}

/**
 * A key's parts, `(a, b(10) DESC)`: the columns, and the prefix lengths and DESC where written.
 * 1235 for a functional key part. The prefixes and DESC are kept for SHOW CREATE TABLE and SHOW
 * INDEX; a unique key on a prefix is enforced on the prefix (keyPartSql).
 */
export function keyParts(text: string): Pick<IndexDef, 'columns' | 'prefixes' | 'descending'> {
  const columns: string[] = [];
  const prefixes: (number | null)[] = [];
  const descending: boolean[] = [];
  for (const part of splitTopLevel(text)) {
    if (part.trim().startsWith('(')) throw mysqlErrors.notSupported('functional key parts in the embedded source');
    const lx = new Lexer(part);
    columns.push(unquoteIdent(lx.next()));
    let prefix: number | null = null;
    if (lx.peek() === '(') {
      const n = lx.group().trim();
      if (!/^\d+$/.test(n)) throw mysqlErrors.syntax(part.trim());
      prefix = Number(n);
    }
    prefixes.push(prefix);
    descending.push(/^desc$/i.test(lx.peek()));
  }
  return { columns, ...(prefixes.some((p) => p !== null) ? { prefixes } : {}), ...(descending.some(Boolean) ? { descending } : {}) };
}

/**
 * A key's part as SQL over `alias` (a table name or NEW): the column, or the prefix of it a prefix
 * key covers. Given the table, a prefix of a column that ignores case says so: it is an
 * expression, which compares as its column only when told.
 */
export function keyPartSql(ix: Pick<IndexDef, 'columns' | 'prefixes'>, i: number, alias?: string, def?: TableDef): string {
  const col = `${alias ? `${alias}.` : ''}${q(ix.columns[i]!)}`;
  const n = ix.prefixes?.[i];
  if (!n) return col;
  const column = def?.columns.find((x) => x.name === ix.columns[i]);
  return `substr(${col}, 1, ${n})${column && ignoresCase(column) ? ' COLLATE NOCASE' : ''}`;
}

/**
 * The checks MySQL makes of a key's parts against the table: a TEXT or BLOB part needs a prefix
 * (1170), and a prefix needs a string column at least that long (1089).
 */
export function checkKeyParts(def: TableDef, ix: Pick<IndexDef, 'columns' | 'prefixes'>): void {
  ix.columns.forEach((name, i) => {
    const col = def.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (!col) return;
    const base = col.baseType.toLowerCase();
    const prefix = ix.prefixes?.[i];
    const long = /^(?:tiny|medium|long)?(?:text|blob)$/.test(base);
    if (long && !prefix) throw new MySqlError(1170, '42000', `BLOB/TEXT column '${col.name}' used in key specification without a key length`);
    if (prefix && (!/char|binary|text|blob/.test(base) || (!long && prefix > Number(col.args[0] ?? 1)))) {
      throw new MySqlError(1089, 'HY000', "Incorrect prefix key; the used key part isn't a string, the used length is longer than the key part, or the storage engine doesn't support unique prefix keys");
    }
  });
}

export function identList(text: string): string[] {
  // `(a, b(10))` → [a, b] (prefix lengths dropped)
  return keyParts(text).columns;
}

/** Whether a column's default expression is one other than NULL. */
export const isGivenDefault = (e: string | null): e is string => e !== null && !/^null$/i.test(e);

/** Parses `CREATE TABLE [IF NOT EXISTS] name ( … ) options`. Returns the name qualifier too. */
/**
 * A definition the server already holds, read back from its SHOW CREATE TABLE text: its defaults
 * were checked when it was made, under that statement's sql_mode (a zero date may be one).
 */
export function readHeldTable(statement: string): ReturnType<typeof parseCreateTable> {
  return withZeroDates(() => parseCreateTable(statement));
}

export function parseCreateTable(statement: string): { def: TableDef; database?: string; ifNotExists: boolean; autoIncrement?: number } {
  // MySQL 8.0.36 runs what a /*!NNNNN … */ comment holds for versions up to its own (SHOW CREATE
  // TABLE prints a column's SRID in one)
  const sql = replaceOutsideQuotes(statement, /\/\*!(\d{5,6})?([\s\S]*?)\*\//g, (_m, version: string | undefined, body: string) => (Number(version ?? 0) <= 80036 ? ` ${body} ` : ' '));
  const lx = new Lexer(sql);
  lx.expect('create');
  const t = lx.next();
  if (/^temporary$/i.test(t)) throw mysqlErrors.notSupported('CREATE TEMPORARY TABLE in the embedded source');
  if (!/^table$/i.test(t)) throw mysqlErrors.syntax(lx.rest(t));
  let ifNotExists = false;
  if (/^if$/i.test(lx.peek())) {
    lx.next();
    lx.expect('not');
    lx.expect('exists');
    ifNotExists = true;
  }
  const rawName = lx.next();
  const { database, table } = splitQualified(rawName);
  if (!table) throw mysqlErrors.syntax(lx.rest(rawName));
  if (/^like$/i.test(lx.peek())) throw mysqlErrors.notSupported('CREATE TABLE … LIKE in the embedded source');
  const body = lx.group();
  // MySQL stops at the `)` after a trailing comma and quotes from there.
  if (/,\s*$/.test(body)) throw mysqlErrors.syntax(sql.slice(lx.pos - 1).trim().slice(0, 80));
  const def: TableDef = { name: table, columns: [], primaryKey: [], indexes: [] };
  const pending: PendingForeignKey[] = [];
  const checks: CheckClause[] = [];
  for (const item of splitTopLevel(body)) parseItem(item, def, pending, checks);
  if (def.columns.length === 0) throw new MySqlError(1113, '42000', 'A table must have at least 1 column');
  if (checks.length) def.checks = uniqueChecks(namedChecks(table, checks));
  for (const k of [...def.primaryKey, ...def.indexes.flatMap((i) => i.columns)]) {
    if (!def.columns.some((c) => c.name.toLowerCase() === k.toLowerCase())) throw new MySqlError(1072, '42000', `Key column '${k}' doesn't exist in table`);
  }
  checkKeyParts(def, { columns: def.primaryKey });
  for (const ix of def.indexes) checkKeyParts(def, ix);
  for (const c of def.columns) if (def.primaryKey.some((k) => k.toLowerCase() === c.name.toLowerCase())) c.nullable = false;
  for (const fk of pending) addForeignKey(def, fk);
  // Remaining text: table options (ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='…'); AUTO_INCREMENT=N is the counter's start
  const options = parseTableOptions(sql.slice(lx.pos));
  if (options) {
    def.options = options;
    inheritCollation(def);
  }
  const auto = /\bauto_increment\s*(?:=\s*)?(\d+)/i.exec(sql.slice(lx.pos));
  return { def, database, ifNotExists, ...(auto ? { autoIncrement: Number(auto[1]) } : {}) };
}

/** Each charset's default collation (MySQL 8.0: SHOW CHARACTER SET), for those the embedded source names. */
const DEFAULT_COLLATIONS: Record<string, string> = { utf8mb4: 'utf8mb4_0900_ai_ci', utf8mb3: 'utf8mb3_general_ci', utf8: 'utf8mb3_general_ci', latin1: 'latin1_swedish_ci', ascii: 'ascii_general_ci', binary: 'binary' };

/**
 * The table options of a CREATE TABLE's tail (or an ALTER TABLE's options) that the table keeps:
 * DEFAULT CHARSET and COLLATE (which decide how its text columns compare), COMMENT and
 * ROW_FORMAT, for SHOW CREATE TABLE. Undefined when none differs from MySQL's defaults.
 */
export function parseTableOptions(written: string, into: TableOptions = {}): TableOptions | undefined {
  // a charset or collation may be a string or a quoted name (COLLATE 'utf8mb4_unicode_ci', as Laravel writes it)
  const text = written.replace(/((?:character\s+set|charset|collate)\s*(?:=\s*)?)(['"`])(\w+)\2/gi, '$1$3');
  // options are read outside the comment's text
  const masked = text.replace(/'(?:[^'\\]|\\.|'')*'/g, (m) => `'${' '.repeat(m.length - 2)}'`);
  const out: TableOptions = { ...into };
  const charset = /(?:^|[\s,])(?:default\s+)?(?:character\s+set|charset)\s*(?:=\s*)?(\w+)/i.exec(masked);
  const collate = /(?:^|[\s,])(?:default\s+)?collate\s*(?:=\s*)?(\w+)/i.exec(masked);
  const comment = /(?:^|[\s,])comment\s*(?:=\s*)?'/i.exec(masked);
  const rowFormat = /(?:^|[\s,])row_format\s*(?:=\s*)?(\w+)/i.exec(masked);
  if (charset) {
    const cs = charsetOf(charset[1]!.toLowerCase());
    if (cs === 'utf8mb4') delete out.charset;
    else out.charset = cs;
    if (!collate) delete out.collation;
  }
  if (collate) {
    const c = collate[1]!.toLowerCase();
    if (!charset && !out.charset && !c.startsWith('utf8mb4')) out.charset = charsetOf(c);
    if (c === DEFAULT_COLLATIONS[out.charset ?? 'utf8mb4']) delete out.collation;
    else out.collation = c;
  }
  if (comment) {
    const at = comment.index + comment[0].length - 1;
    out.comment = unquoteString(/^'(?:[^'\\]|\\.|'')*'/.exec(text.slice(at))![0]);
  }
  if (rowFormat) out.rowFormat = rowFormat[1]!.toUpperCase();
  return Object.keys(out).length ? out : undefined;
}

/** A collation's character set: its name's first part (utf8 is utf8mb3). */
export function charsetOf(collation: string): string {
  const cs = collation.split('_')[0]!;
  return cs === 'utf8' ? 'utf8mb3' : cs;
}

/** The table's default collation (what its text columns without one of their own compare by). */
export function tableCollation(def: TableDef): string {
  return def.options?.collation ?? DEFAULT_COLLATIONS[def.options?.charset ?? 'utf8mb4'] ?? 'utf8mb4_0900_ai_ci';
}

/** Text columns without a collation of their own take the table's, where it tells case apart. */
export function inheritCollation(def: TableDef, columns: ColumnDef[] = def.columns): void {
  const c = def.options?.collation;
  if (!c || !/(?:_bin|_cs)$/.test(c)) return;
  for (const col of columns) if (isCollated(col) && !col.collation) col.collation = c;
}

/** `(expr) [[NOT] ENFORCED]` after CHECK. */
function checkClause(lx: Lexer, name?: string): CheckClause {
  const expr = lx.group();
  let enforced = true;
  const save = lx.pos;
  const t = lx.eof() ? '' : lx.next().toLowerCase();
  if (t === 'enforced') enforced = true;
  else if (t === 'not' && !lx.eof() && /^enforced$/i.test(lx.peek())) {
    lx.next();
    enforced = false;
  } else lx.pos = save;
  return { ...(name ? { name } : {}), expr: expr.trim(), enforced };
}

/** ER_CHECK_CONSTRAINT_DUP_NAME for a name given twice. */
export function uniqueChecks(checks: CheckDef[]): CheckDef[] {
  const seen = new Set<string>();
  for (const c of checks) {
    if (seen.has(c.name.toLowerCase())) throw new MySqlError(3822, 'HY000', `Duplicate check constraint name '${c.name}'.`);
    seen.add(c.name.toLowerCase());
  }
  return checks;
}

/** A FOREIGN KEY clause as parsed, before it is named and given its index. */
export interface PendingForeignKey {
  /** CONSTRAINT symbol. */
  symbol?: string;
  /** FOREIGN KEY index_name. */
  indexName?: string;
  columns: string[];
  refTable: string;
  refDatabase?: string;
  refColumns: string[];
  onDelete: ForeignKeyAction;
  onUpdate: ForeignKeyAction;
}

/** `FOREIGN KEY [index_name] (cols) REFERENCES tbl (cols) [ON DELETE action] [ON UPDATE action]`, the text after FOREIGN. */
export function parseForeignKey(lx: Lexer, symbol: string | undefined): PendingForeignKey {
  lx.expect('key');
  const indexName = lx.peek() !== '(' ? unquoteIdent(lx.next()) : undefined;
  const columns = identList(lx.group());
  lx.expect('references');
  const ref = splitQualified(lx.next());
  const refColumns = identList(lx.group());
  const fk: PendingForeignKey = { symbol, indexName, columns, refTable: ref.table, refDatabase: ref.database, refColumns, onDelete: 'RESTRICT', onUpdate: 'RESTRICT' };
  if (/^match$/i.test(lx.peek())) {
    lx.next();
    lx.next();
  }
  while (/^on$/i.test(lx.peek())) {
    lx.next();
    const event = lx.next().toLowerCase();
    if (event !== 'delete' && event !== 'update') throw mysqlErrors.syntax(lx.rest(event));
    const first = lx.next().toUpperCase();
    let action: string = first;
    if (first === 'SET' || first === 'NO') action = `${first} ${lx.next().toUpperCase()}`;
    if (action === 'SET DEFAULT') throw mysqlErrors.notSupported('ON DELETE/ON UPDATE SET DEFAULT (InnoDB refuses it)');
    if (!['RESTRICT', 'CASCADE', 'SET NULL', 'NO ACTION'].includes(action)) throw mysqlErrors.syntax(lx.rest(action));
    if (event === 'delete') fk.onDelete = action as ForeignKeyAction;
    else fk.onUpdate = action as ForeignKeyAction;
  }
  if (!lx.eof()) throw mysqlErrors.syntax(lx.rest());
  if (columns.length !== refColumns.length) throw new MySqlError(1239, '42000', `Incorrect foreign key definition for '${symbol ?? indexName ?? 'foreign key without name'}': Key reference and table reference don't match`);
  return fk;
}

/**
 * Adds a foreign key to the child's definition as InnoDB does: an unnamed constraint is named
 * `<table>_ibfk_<n>` (n one past the highest such number), and when no key of the table starts
 * with the constraint's columns an index is added, named after the CONSTRAINT symbol, else the
 * FOREIGN KEY index_name, else the first column (MySQL 8.0 manual, FOREIGN KEY Constraints).
 */
export function addForeignKey(def: TableDef, fk: PendingForeignKey): ForeignKeyDef {
  if (fk.refDatabase !== undefined) throw mysqlErrors.notSupported('a foreign key on a table of another database in the embedded source');
  const columns = fk.columns.map((k) => {
    const col = def.columns.find((c) => c.name.toLowerCase() === k.toLowerCase());
    if (!col) throw new MySqlError(1072, '42000', `Key column '${k}' doesn't exist in table`);
    return col.name;
  });
  const keys = def.foreignKeys ?? [];
  let name = fk.symbol;
  if (name === undefined) {
    const prefix = `${def.name}_ibfk_`;
    const used = keys.map((k) => (k.name.startsWith(prefix) ? Number(k.name.slice(prefix.length)) : 0)).filter((n) => Number.isInteger(n));
    name = `${prefix}${Math.max(0, ...used) + 1}`;
  }
  const taken = name.toLowerCase();
  if (keys.some((k) => k.name.toLowerCase() === taken)) throw new MySqlError(1826, 'HY000', `Duplicate foreign key constraint name '${name}'`);
  for (const action of [fk.onDelete, fk.onUpdate]) {
    const notNull = action === 'SET NULL' && columns.find((c) => def.columns.find((x) => x.name === c)!.nullable === false);
    // ER_FK_COLUMN_NOT_NULL (errmsg-utf8.txt)
    if (notNull) throw new MySqlError(1830, 'HY000', `Column '${notNull}' cannot be NOT NULL: needed in a foreign key constraint '${name}' SET NULL`);
  }
  const startsWith = (cols: string[]) => columns.every((c, i) => cols[i]?.toLowerCase() === c.toLowerCase());
  if (!startsWith(def.primaryKey) && !def.indexes.some((ix) => startsWith(ix.columns))) {
    const indexTaken = (n: string) => n.toUpperCase() === 'PRIMARY' || def.indexes.some((i) => i.name.toLowerCase() === n.toLowerCase());
    let index = fk.symbol ?? fk.indexName ?? columns[0]!;
    for (let n = 2; indexTaken(index); n++) index = `${columns[0]}_${n}`;
    def.indexes.push({ name: index, columns, unique: false });
  }
  const out: ForeignKeyDef = { name, columns, refTable: fk.refTable, refColumns: fk.refColumns, onDelete: fk.onDelete, onUpdate: fk.onUpdate };
  def.foreignKeys = [...keys, out];
  return out;
}

/** The constraint as SHOW CREATE TABLE and the foreign key errors print it. */
export function foreignKeyClause(fk: ForeignKeyDef): string {
  const list = (cols: string[]) => cols.map((c) => `\`${c}\``).join(', ');
  let s = `CONSTRAINT \`${fk.name}\` FOREIGN KEY (${list(fk.columns)}) REFERENCES \`${fk.refTable}\` (${list(fk.refColumns)})`;
  // RESTRICT and NO ACTION are InnoDB's default and not printed
  if (fk.onDelete === 'CASCADE' || fk.onDelete === 'SET NULL') s += ` ON DELETE ${fk.onDelete}`;
  if (fk.onUpdate === 'CASCADE' || fk.onUpdate === 'SET NULL') s += ` ON UPDATE ${fk.onUpdate}`;
  return s;
}

export function splitQualified(raw: string): { database?: string; table: string } {
  const parts: string[] = [];
  const re = /`([^`]*)`|"([^"]*)"|([^.`"]+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) parts.push(m[1] ?? m[2] ?? m[3]!);
  if (parts.length >= 2) return { database: parts[0], table: parts[1]! };
  return { table: parts[0] ?? '' };
}

function parseItem(item: string, def: TableDef, pending: PendingForeignKey[], checks: CheckClause[], symbol?: string): void {
  const lx = new Lexer(item);
  const first = lx.peek();
  const kw = first.toLowerCase();
  if (kw === 'primary') {
    lx.next();
    lx.expect('key');
    def.primaryKey = identList(lx.group());
    return;
  }
  if (kw === 'constraint') {
    lx.next();
    const nxt = lx.peek().toLowerCase();
    // CONSTRAINT [symbol] PRIMARY KEY | UNIQUE | FOREIGN KEY | CHECK: the symbol names a foreign key
    const sym = nxt !== 'primary' && nxt !== 'unique' && nxt !== 'foreign' && nxt !== 'check' ? unquoteIdent(lx.next()) : undefined;
    return parseItem(item.slice(lx.pos).trim(), def, pending, checks, sym);
  }
  if (kw === 'foreign') {
    lx.next();
    pending.push(parseForeignKey(lx, symbol));
    return;
  }
  if (kw === 'unique' || kw === 'key' || kw === 'index' || kw === 'fulltext' || kw === 'spatial') {
    lx.next();
    const unique = kw === 'unique';
    let t = lx.peek();
    if (/^(key|index)$/i.test(t)) {
      lx.next();
      t = lx.peek();
    }
    let name = '';
    if (t !== '(') name = unquoteIdent(lx.next());
    const parts = keyParts(lx.group());
    def.indexes.push({ name: name || parts.columns[0]!, ...parts, unique });
    return;
  }
  if (kw === 'check') {
    lx.next();
    checks.push(checkClause(lx, symbol));
    return;
  }
  parseColumn(lx, def, checks);
}

function parseColumn(lx: Lexer, def: TableDef, checks: CheckClause[]): void {
  const name = unquoteIdent(lx.next());
  let baseType = lx.next().toLowerCase();
  if (baseType === 'double' && /^precision$/i.test(lx.peek())) {
    lx.next();
    baseType = 'double precision';
  }
  if (!INT_TYPES.has(baseType) && !REAL_TYPES.has(baseType) && !TEXT_TYPES.has(baseType) && !BLOB_TYPES.has(baseType) && !isSpatial(baseType)) {
    throw mysqlErrors.syntax(lx.rest(baseType));
  }
  let args: string[] = [];
  let typeText = baseType;
  if (lx.peek() === '(' && !isSpatial(baseType)) {
    const g = lx.group();
    args = splitTopLevel(g).map((a) => a.trim());
    typeText += `(${args.join(',')})`;
    if (baseType === 'enum' || baseType === 'set') args = args.map(member);
  }
  // Create_field::init refuses FLOAT(p) above PRECISION_FOR_DOUBLE with ER_WRONG_FIELD_SPEC
  if ((baseType === 'float' || baseType === 'float4') && args.length === 1 && Number(args[0]) > PRECISION_FOR_DOUBLE) {
    throw new MySqlError(1063, '42000', `Incorrect column specifier for column '${name}'`);
  }
  const col: ColumnDef = { name, mysqlType: typeText, baseType, args, unsigned: false, nullable: true, defaultExpr: null, autoIncrement: false, onUpdateNow: false };
  if (baseType === 'serial') {
    Object.assign(col, { baseType: 'bigint', mysqlType: 'bigint unsigned', unsigned: true, nullable: false, autoIncrement: true });
    def.indexes.push({ name, columns: [name], unique: true });
  }
  while (!lx.eof()) {
    const t = lx.next();
    const k = t.toLowerCase();
    if (k === 'unsigned') {
      col.unsigned = true;
      col.mysqlType += ' unsigned';
    } else if (k === 'zerofill') {
      col.zerofill = true;
    } else if (k === 'signed') {
      // accepted
    } else if (k === 'not') {
      lx.expect('null');
      col.nullable = false;
    } else if (k === 'null') {
      col.nullable = true;
    } else if (k === 'default') {
      let v = lx.next();
      if (v === '(') {
        lx.pos--;
        v = `(${lx.group()})`;
      } else if (isIntroducer(v) || (/^n$/i.test(v) && lx.s[lx.pos] === "'")) {
        // _utf8mb4'x', _binary 0x71, N'x' (charset-introducers.ts): the text they give the column
        v = quotedValue(introducedLiteral(lx, v));
      } else if (/^[bx]$/i.test(v) && /^'/.test(lx.peek())) {
        // b'101' and x'1F' literals
        v += lx.next();
      } else if (lx.peek() === '(') {
        v += `(${lx.group()})`;
      }
      col.defaultExpr = requoted(v);
    } else if (k === 'auto_increment') {
      col.autoIncrement = true;
    } else if (k === 'primary') {
      lx.expect('key');
      def.primaryKey = [name];
    } else if (k === 'key') {
      def.primaryKey = [name];
    } else if (k === 'unique') {
      if (/^key$/i.test(lx.peek())) lx.next();
      def.indexes.push({ name, columns: [name], unique: true });
    } else if (k === 'srid' && isSpatial(col.baseType)) {
      // SRID n (MySQL 8.0.3), an unsigned 32-bit number
      const n = lx.next();
      if (!/^\d+$/.test(n) || Number(n) > 0xffffffff) throw mysqlErrors.syntax(lx.rest(n));
      col.srid = Number(n);
    } else if (k === 'comment') {
      col.comment = unquoteString(lx.next());
    } else if (k === 'character' || k === 'charset') {
      if (k === 'character') lx.expect('set');
      if (/^binary$/i.test(unquoteString(unquoteIdent(lx.next())))) col.collation = 'binary';
    } else if (k === 'collate') {
      col.collation = unquoteString(unquoteIdent(lx.next())).toLowerCase();
    } else if (k === 'binary') {
      col.collation = 'utf8mb4_bin';
    } else if (k === 'on') {
      lx.expect('update');
      const v = lx.next();
      if (lx.peek() === '(') lx.group();
      if (/^(current_timestamp|now|localtime|localtimestamp)$/i.test(v)) col.onUpdateNow = true;
    } else if (k === 'references') {
      // a REFERENCES clause on a column is parsed and ignored by MySQL 8.0 (manual, FOREIGN KEY Constraints)
      lx.next();
      if (lx.peek() === '(') lx.group();
    } else if (k === 'check') {
      checks.push(checkClause(lx));
    } else if (k === 'constraint') {
      // a column's CONSTRAINT [symbol] CHECK (…)
      const symbol = /^check$/i.test(lx.peek()) ? undefined : unquoteIdent(lx.next());
      lx.expect('check');
      checks.push(checkClause(lx, symbol));
    } else if (k === 'generated' || k === 'as') {
      throw mysqlErrors.notSupported('generated columns in the embedded source');
    } else if (k === 'visible') {
      // the default (MySQL 8.0.23)
    } else if (k === 'invisible') {
      throw mysqlErrors.notSupported('invisible columns in the embedded source');
    } else {
      throw mysqlErrors.syntax(lx.rest(t));
    }
  }
  checkDefault(col);
  def.columns.push(col);
}

/**
 * ER_INVALID_DEFAULT (1067, 42000), as MySQL 8.0 refuses a column's default under the statement's
 * sql_mode: a literal the column would not store in strict mode (what an INSERT of it would refuse;
 * outside strict mode a zero date NO_ZERO_DATE forbids is warning 1264 instead), NULL for a NOT NULL
 * column, CURRENT_TIMESTAMP for a column that is no DATETIME/TIMESTAMP, any default for an
 * AUTO_INCREMENT column.
 */
export function checkDefault(col: ColumnDef): void {
  const e = col.defaultExpr;
  if (e === null || e.startsWith('(')) return;
  const invalid = () => new MySqlError(1067, '42000', `Invalid default value for '${col.name}'`);
  if (col.autoIncrement) throw invalid();
  // ER_BLOB_CANT_HAVE_DEFAULT: a spatial column takes an expression default only (MySQL 8.0.13)
  if (isSpatial(col.baseType) && !/^null$/i.test(e)) throw new MySqlError(1101, '42000', `BLOB, TEXT, GEOMETRY or JSON column '${col.name}' can't have a default value`);
  if (/^null$/i.test(e)) {
    if (!col.nullable) throw invalid();
    return;
  }
  if (NOW_DEFAULT.test(e)) {
    if (col.baseType !== 'datetime' && col.baseType !== 'timestamp') throw invalid();
    return;
  }
  const store = () => storeValue(col, storeKind(col), defaultLiteral(e), 1, true);
  try {
    store();
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    // prepare_default_value: outside strict mode a zero date (or zero part) that NO_ZERO_DATE (or
    // NO_ZERO_IN_DATE) forbids is a warning; a date that is none is 1067 in any sql_mode
    if (sqlModeNow().strict) throw invalid();
    try {
      withZeroDates(store);
    } catch (again) {
      if (again instanceof StoreError) throw invalid();
      throw again;
    }
    warn(1264, `Out of range value for column '${col.name}' at row 1`);
  }
}

/** A quoted string's value, read as MySQL reads a literal (mysql-strings.ts); anything else as it is. */
export function unquoteString(t: string): string {
  return /^(['"])[\s\S]*\1$/.test(t) && t.length > 1 ? stringValue(t) : t;
}

/**
 * A string literal of the definition (an ENUM or SET member, a DEFAULT) as the definition keeps
 * it: its value, read once here as MySQL reads the literal, quoted again with only `'` doubled
 * and `\` escaped. Its readers read it back with stringValue (column-values.ts for the members,
 * mysql-type-display.ts for SHOW CREATE TABLE's and information_schema's default), so `'x\ty'` is
 * x⇥y there, not `xty`, and `'a\Zb'` is a␚b, not `aZb`.
 */
function requoted(arg: string): string {
  if (!/^['"]/.test(arg)) return arg;
  return quotedValue(stringValue(arg));
}

/**
 * An ENUM or SET member as the definition keeps it: requoted, with a newline, a carriage return and
 * a NUL written \n, \r and \0, so that it shows in COLUMN_TYPE and SHOW CREATE TABLE as MariaDB
 * 10.11 shows it (a tab as it is, a quote and a backslash doubled). Its readers read it with
 * stringValue (column-values.ts, information-schema.ts, the Debezium plugin's column-types.ts).
 */
function member(arg: string): string {
  return requoted(arg).replace(/[\n\r\0]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\0'));
}

/** A value quoted as a definition keeps it (requoted). */
const quotedValue = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The text of the literal introducer `word` (just read) begins: the strings that follow it, or an X'…', 0x…, B'…' or 0b…. */
function introducedLiteral(lx: Lexer, word: string): string {
  let raw = word;
  const quoted = () => /^['"]/.test(lx.peek());
  if (quoted()) {
    while (quoted()) raw += ` ${lx.next()}`;
    // N touches its quote
    if (!word.startsWith('_')) raw = raw.replace(' ', '');
  } else {
    const t = lx.next();
    raw += ` ${/^[bx]$/i.test(t) && lx.s[lx.pos] === "'" ? t + lx.next() : t}`;
  }
  const text = introducedText(raw);
  if (text === undefined) throw mysqlErrors.syntax(lx.rest(raw));
  return text;
}

/** Text columns whose comparisons, ORDER BY and unique keys ignore case. */
const COLLATED_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);

/**
 * Whether a column compares as MySQL's default collation (utf8mb4_0900_ai_ci) does, case
 * insensitively: SQLite's NOCASE folds ASCII letters only (MySQL also ignores accents).
 */
export function ignoresCase(c: ColumnDef): boolean {
  return isCollated(c) && !/(_bin|_cs)$/.test(c.collation ?? '');
}

/** A column of characters (not CHARACTER SET binary), which has a collation. */
export function isCollated(c: ColumnDef): boolean {
  return COLLATED_TYPES.has(c.baseType) && c.collation !== 'binary';
}

export function sqliteType(c: ColumnDef): string {
  if (INT_TYPES.has(c.baseType)) return 'INTEGER';
  if (REAL_TYPES.has(c.baseType)) return 'REAL';
  if (BLOB_TYPES.has(c.baseType) || isSpatial(c.baseType)) return 'BLOB';
  return 'TEXT';
}

function sqliteDefault(expr: string, c: ColumnDef): string {
  if (NOW_DEFAULT.test(expr)) return c.baseType === 'date' ? `(date('now'))` : 'CURRENT_TIMESTAMP';
  if (/^\(.*\)$/.test(expr)) return expr.replace(/\bnow\(\)/gi, "datetime('now')");
  // b'101' is a number to SQLite, which knows no bit literals
  const bits = /^b'([01]*)'$/i.exec(expr);
  if (bits) return String(parseInt(bits[1] || '0', 2));
  // a string with MySQL's escapes ('it\'s'), a NUL (which SQL text cannot hold) or in double quotes, as SQLite reads one; an expression (a backslash joined in) in parentheses
  if (/^(['"])[\s\S]*\1$/.test(expr) && /[\\"\0]/.test(expr)) {
    const text = sqliteLiteral(stringValue(expr));
    return text.startsWith("'") ? text : `(${text})`;
  }
  return expr;
}

export const q = (ident: string): string => '"' + ident.replace(/"/g, '""') + '"';

/** SQLite statements that create the table (and its indexes). */
export function sqliteCreateTable(def: TableDef): string[] {
  const pk = def.primaryKey;
  const singleIntAutoPk = aliasesRowid(def);
  const cols = def.columns.map((c) => {
    let s = `${q(c.name)} ${sqliteType(c)}${ignoresCase(c) ? ' COLLATE NOCASE' : ''}`;
    if (singleIntAutoPk && c.name === pk[0]) s = `${q(c.name)} INTEGER PRIMARY KEY AUTOINCREMENT`;
    // A single INTEGER primary key would alias SQLite's rowid, which fills in a NULL or missing
    // value by itself; MySQL refuses both (1048, 1364) unless the column is AUTO_INCREMENT.
    // INT keeps integer affinity without the alias.
    else if (pk.length === 1 && c.name === pk[0] && sqliteType(c) === 'INTEGER') s = `${q(c.name)} INT`;
    if (!c.nullable) s += ' NOT NULL';
    if (isGivenDefault(c.defaultExpr)) s += ` DEFAULT ${sqliteDefault(c.defaultExpr, c)}`;
    return s;
  });
  if (pk.length && !singleIntAutoPk) cols.push(`PRIMARY KEY (${pk.map(q).join(', ')})`);
  // Unique keys as indexes of their own (not table constraints), so ALTER TABLE … DROP INDEX can drop them.
  return [`CREATE TABLE ${q(def.name)} (${cols.join(', ')})`, ...def.indexes.map((ix) => sqliteCreateIndex(def.name, ix, def))];
}

/** Whether the table's key is an AUTO_INCREMENT integer, which SQLite stores as the rowid itself. */
export function aliasesRowid(def: TableDef): boolean {
  const pk = def.primaryKey;
  return pk.length === 1 && def.columns.some((c) => c.name === pk[0] && c.autoIncrement && INT_TYPES.has(c.baseType));
}

/**
 * SQLite statements that give `def.name` the definition `def` with its rows (rowids kept, so
 * the change log's row ids stay right): a new table, the rows copied (column `c` from
 * `sources.get(c) ?? c`, converted to the column's type when it is in `converted`), the old table dropped and the new one renamed, its indexes made again.
 * SQLite's own ALTER TABLE cannot change a column's type, nullability or default.
 */
export function sqliteRebuildTable(def: TableDef, sources: Map<string, string>, converted = new Map<string, ColumnDef>()): string[] {
  const tmp = `__loupe_rebuild_${def.name}`;
  const cols = def.columns.map((c) => c.name);
  const rowid = aliasesRowid(def) ? '' : 'rowid, ';
  // a column whose type changed is copied as it stores its values (loupe_convert, alter-table.ts)
  const value = (c: string) => {
    const from = q(sources.get(c) ?? c);
    const col = converted.get(c);
    return col ? `loupe_convert(${from}, '${JSON.stringify(col).replace(/'/g, "''")}')` : from;
  };
  return [
    sqliteCreateTable({ ...def, name: tmp, indexes: [] })[0]!,
    `INSERT INTO ${q(tmp)} (${rowid}${cols.map(q).join(', ')}) SELECT ${rowid}${cols.map(value).join(', ')} FROM ${q(def.name)}`,
    `DROP TABLE ${q(def.name)}`,
    `ALTER TABLE ${q(tmp)} RENAME TO ${q(def.name)}`,
    ...def.indexes.map((ix) => sqliteCreateIndex(def.name, ix, def)),
  ];
}

/**
 * The table's keys in the order MySQL keeps them (sort_keys in sql_table.cc), which SHOW CREATE
 * TABLE and SHOW INDEX print and REPLACE checks: PRIMARY, the unique keys of NOT NULL columns, the
 * other unique keys, then the rest, each group in the order the keys were added.
 */
export function keysInMySqlOrder(def: TableDef): IndexDef[] {
  const notNull = (c: string) => def.primaryKey.includes(c) || def.columns.find((x) => x.name === c)?.nullable === false;
  const rank = (ix: IndexDef) => (!ix.unique ? 2 : ix.columns.every(notNull) ? 0 : 1);
  const keys = def.indexes.map((ix, i) => ({ ix, i })).sort((a, b) => rank(a.ix) - rank(b.ix) || a.i - b.i);
  return [...(def.primaryKey.length ? [{ name: 'PRIMARY', columns: def.primaryKey, unique: true }] : []), ...keys.map((k) => k.ix)];
}

/** The SQLite index behind a MySQL key of `table`. */
export function sqliteIndexName(table: string, key: string): string {
  return `${table}__${key}`;
}

export function sqliteCreateIndex(table: string, ix: IndexDef, def?: TableDef): string {
  return `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX ${q(sqliteIndexName(table, ix.name))} ON ${q(table)} (${ix.columns.map((_c, i) => keyPartSql(ix, i, undefined, def)).join(', ')})`;
}

/** DESCRIBE's (and SHOW COLUMNS') Type column: the type as MySQL 8.0.36 shows it. */
export function describeType(c: ColumnDef): string {
  return displayType(c);
}

/**
 * The SHOW CREATE TABLE text; `autoIncrement` is the table's next AUTO_INCREMENT value, printed as
 * a table option when above 1 (store_create_info). Foreign keys come after the keys, by name, as
 * InnoDB lists them (its foreign_set is ordered by constraint id).
 */
export function showCreateTable(def: TableDef, autoIncrement?: number): string {
  const lines = def.columns.map((c) => {
    let s = `  \`${c.name}\` ${describeType(c)}`;
    if (c.collation === 'binary') s += ' CHARACTER SET binary';
    // store_create_info: a collation other than the table's is printed with its character set
    else if (c.collation && c.collation !== tableCollation(def)) s += ` CHARACTER SET ${charsetOf(c.collation)} COLLATE ${c.collation}`;
    if (!c.nullable) s += ' NOT NULL';
    // store_create_info: a TIMESTAMP says NULL, since TIMESTAMP columns used to be NOT NULL by default
    else if (c.baseType.toLowerCase() === 'timestamp') s += ' NULL';
    // store_create_info prints a spatial column's SRID after NULL/NOT NULL, in a versioned comment
    if (c.srid !== undefined) s += ` /*!80003 SRID ${c.srid} */`;
    s += displayDefault(c);
    if (c.onUpdateNow) s += ` ON UPDATE ${nowClause(c)}`;
    if (c.autoIncrement) s += ' AUTO_INCREMENT';
    if (c.comment) s += ` COMMENT ${quoted(c.comment)}`;
    return s;
  });
  for (const ix of keysInMySqlOrder(def)) {
    const columns = ix.columns.map((k, n) => `\`${k}\`${ix.prefixes?.[n] ? `(${ix.prefixes[n]})` : ''}${ix.descending?.[n] ? ' DESC' : ''}`).join(',');
    lines.push(ix.name === 'PRIMARY' ? `  PRIMARY KEY (${columns})` : `  ${ix.unique ? 'UNIQUE KEY' : 'KEY'} \`${ix.name}\` (${columns})`);
  }

  const fks = [...(def.foreignKeys ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const fk of fks) lines.push(`  ${foreignKeyClause(fk)}`);
  for (const check of showChecks(def.checks ?? [])) lines.push(`  ${check}`);
  const auto = autoIncrement !== undefined && autoIncrement > 1 ? ` AUTO_INCREMENT=${autoIncrement}` : '';
  // store_create_info: utf8mb4's collation is always printed, another charset's only where it is not the default
  const o = def.options ?? {};
  const charset = o.charset ?? 'utf8mb4';
  const collate = charset === 'utf8mb4' || o.collation ? ` COLLATE=${tableCollation(def)}` : '';
  const tail = `${o.rowFormat ? ` ROW_FORMAT=${o.rowFormat}` : ''}${o.comment ? ` COMMENT=${quoted(o.comment)}` : ''}`;
  return `CREATE TABLE \`${def.name}\` (\n${lines.join(',\n')}\n) ENGINE=InnoDB${auto} DEFAULT CHARSET=${charset}${collate}${tail}`;
}

export { MySqlError };
