/**
 * A real MySQL / MariaDB as a console source, through mysql2: statements, catalogue, DESCRIBE.
 * Query only — change capture from a real server is Debezium's job in a real Kafka Connect.
 * Server errors keep MySQL's own errno, SQLSTATE and text; client-side failures are reported as
 * the mysql client does (ERROR 2003 can't connect, 2005 unknown host, 2013 lost connection).
 *
 * Values are shown as the console shows embedded ones: DATETIME/DATE/TIME as the server's text,
 * DECIMAL as its exact text ('12.50'), BIGINT as a number when it is exact in JavaScript and as
 * its decimal text beyond 2^53, JSON as the stored text, binary strings and BIT as hex.
 */
import mysql from 'mysql2/promise';
import type { ColumnDef } from './mysql-ddl.js';
import { MySqlError } from './mysql-error.js';
import { splitStatements } from './sql-split.js';
import type { QuerySource, StatementResult } from './types.js';

export interface RemoteSourceOptions {
  host: string;
  port?: number;
  user: string;
  password?: string;
  database?: string;
  connectTimeoutMs?: number;
}

interface Field {
  name: string;
}

/** Statements after which the current database may differ (USE, or dropping the current one). */
const CHANGES_DATABASE = /^(use|drop\s+(database|schema))\b/i;

export class RemoteSource implements QuerySource {
  readonly kind = 'remote' as const;
  constructor(private readonly opts: RemoteSourceOptions) {}

  private get where(): string {
    return `${this.opts.host}:${this.opts.port ?? 3306}`;
  }

  private async conn(database: string | null): Promise<mysql.Connection> {
    let c: mysql.Connection;
    try {
      c = await mysql.createConnection({
        host: this.opts.host,
        port: this.opts.port ?? 3306,
        user: this.opts.user,
        password: this.opts.password ?? '',
        ...(database ? { database } : this.opts.database ? { database: this.opts.database } : {}),
        connectTimeout: this.opts.connectTimeoutMs ?? 10_000,
        // mysql2 asks for CLIENT_FOUND_ROWS by default, so an UPDATE that changes nothing would
        // count the rows it matched; the mysql client (and the console) counts changed rows.
        flags: ['-FOUND_ROWS'],
        dateStrings: true,
        supportBigNumbers: true,
        jsonStrings: true,
      });
    } catch (err) {
      throw toMySqlError(err, this.where, 'connect');
    }
    // A connection the server drops while no query is running emits 'error'; unheard, it would
    // take the whole host down. The next query reports the loss instead.
    c.on('error', () => {});
    return c;
  }

  private async query(c: mysql.Connection, sql: string, values?: unknown[]): Promise<[unknown, unknown]> {
    try {
      return (await c.query({ sql, rowsAsArray: true, ...(values ? { values } : {}) })) as unknown as [unknown, unknown];
    } catch (err) {
      throw toMySqlError(err, this.where);
    }
  }

  private async withConnection<T>(database: string | null, f: (c: mysql.Connection) => Promise<T>): Promise<T> {
    const c = await this.conn(database);
    try {
      return await f(c);
    } finally {
      await c.end().catch(() => c.destroy());
    }
  }

  async execute(database: string | null, sql: string): Promise<StatementResult[]> {
    const statements = splitStatements(sql);
    if (!statements.length) throw new MySqlError(1065, '42000', 'Query was empty');
    return this.withConnection(database, async (c) => {
      const out: StatementResult[] = [];
      let current = database || this.opts.database || null;
      for (const s of statements) {
        const [data, fields] = await this.query(c, s);
        if (CHANGES_DATABASE.test(s)) {
          const [[row]] = (await this.query(c, 'SELECT DATABASE()')) as [unknown[][], unknown];
          current = row?.[0] === null || row?.[0] === undefined ? null : String(row[0]);
        }
        // CALL answers one result set per SELECT in the procedure, then an OK packet.
        const multi = Array.isArray(fields) && fields.some((f) => Array.isArray(f) || f === undefined || f === null);
        const parts: [unknown, Field[] | undefined][] = multi ? (data as unknown[]).map((d, i) => [d, (fields as (Field[] | undefined)[])[i]]) : [[data, fields as Field[] | undefined]];
        for (const [d, f] of parts) {
          const r = toResult(s, d, f, current);
          // an OK packet counts the statement's warnings; SHOW WARNINGS lists them and leaves them for the next SHOW WARNINGS too
          const count = (d as { warningStatus?: number } | null)?.warningStatus ?? 0;
          if (r.kind === 'ok' && count > 0) {
            const [listed] = (await this.query(c, 'SHOW WARNINGS')) as [[string, number, string][], unknown];
            r.warnings = { count, conditions: listed.map(([level, code, message]) => ({ level: level as 'Note' | 'Warning', code: Number(code), message })) };
          }
          out.push(r);
        }
      }
      return out;
    });
  }

  async listDatabases(): Promise<string[]> {
    const [r] = await this.execute(null, 'SHOW DATABASES');
    return r!.rows.map((x) => String(x[0]));
  }

  async listTables(database: string): Promise<string[]> {
    const [r] = await this.execute(database, 'SHOW TABLES');
    return r!.rows.map((x) => String(x[0]));
  }

  async describeTable(database: string, table: string): Promise<ColumnDef[]> {
    return this.withConnection(database, async (c) => {
      // DESCRIBE answers a missing table with the server's own 1146; information_schema then
      // gives defaults as expressions (DESCRIBE prints 'x' and x alike) and comments.
      await this.query(c, `DESCRIBE ${quoteIdent(table)}`);
      const [[version]] = (await this.query(c, 'SELECT VERSION()')) as [unknown[][], unknown];
      const mariadb = /mariadb/i.test(String(version?.[0]));
      const [rows] = (await this.query(
        c,
        'SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA, COLUMN_COMMENT, DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION',
        [database, table],
      )) as [unknown[][], unknown];
      return rows.map(([name, type, nullable, dflt, extra, comment, dataType]) => {
        const t = String(type);
        const m = /^\w+(?:\((.*)\))?/.exec(t);
        const col: ColumnDef = {
          name: String(name),
          mysqlType: t,
          baseType: String(dataType).toLowerCase(),
          args: m?.[1] ? splitArgs(m[1]) : [],
          unsigned: /\bunsigned\b/i.test(t),
          nullable: nullable === 'YES',
          defaultExpr: defaultExpression(dflt, String(extra), String(dataType), mariadb),
          autoIncrement: /auto_increment/i.test(String(extra)),
          onUpdateNow: /on update/i.test(String(extra)),
        };
        if (comment) col.comment = String(comment);
        return col;
      });
    });
  }

  async close(): Promise<void> {}
}

function toResult(sql: string, data: unknown, fields: Field[] | undefined, database: string | null): StatementResult {
  if (Array.isArray(data)) {
    return { sql, kind: 'rows', columns: (fields ?? []).map((f) => f.name), rows: (data as unknown[][]).map((r) => r.map(shown)), affectedRows: 0, database };
  }
  const h = data as { affectedRows?: number; insertId?: number | string; info?: string };
  const insertId = h.insertId === undefined ? 0 : Number(h.insertId);
  return { sql, kind: 'ok', columns: [], rows: [], affectedRows: h.affectedRows ?? 0, ...(insertId ? { insertId } : {}), ...(h.info ? { info: h.info } : {}), database };
}

/** Binary strings and BIT arrive as bytes; the console shows bytes as hex, as for the embedded source. */
function shown(v: unknown): unknown {
  return Buffer.isBuffer(v) ? v.toString('hex') : v;
}

const NUMERIC = /^(tinyint|smallint|mediumint|int|integer|bigint|decimal|numeric|float|double|real|bit|year)$/i;

/**
 * The default as an SQL expression, as written in CREATE TABLE (`'x'`, `0`, `current_timestamp()`),
 * null for none or NULL. MariaDB's information_schema already shows expressions (literals quoted);
 * MySQL 8 shows literals bare and marks expressions DEFAULT_GENERATED.
 */
function defaultExpression(dflt: unknown, extra: string, dataType: string, mariadb: boolean): string | null {
  if (dflt === null || dflt === undefined) return null;
  const s = String(dflt);
  if (mariadb) return s === 'NULL' ? null : s;
  if (/DEFAULT_GENERATED/i.test(extra) || NUMERIC.test(dataType)) return s;
  return quoteString(s);
}

/** `10,2` → ['10', '2']; `'a','b,c'` → ["'a'", "'b,c'"]. */
function splitArgs(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === "'") {
      if (quoted && s[i + 1] === "'") {
        cur += "''";
        i++;
        continue;
      }
      quoted = !quoted;
    }
    if (ch === ',' && !quoted) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

const quoteIdent = (s: string) => '`' + s.replace(/`/g, '``') + '`';
const quoteString = (s: string) => "'" + s.replace(/'/g, "''") + "'";

/** A mysql2 failure as MySQL's error: the server's own, or the mysql client's for what failed on the way. */
export function toMySqlError(err: unknown, where: string, phase: 'connect' | 'query' = 'query'): MySqlError {
  const e = err as { errno?: number; sqlState?: string; sqlMessage?: string; code?: string; message?: string; fatal?: boolean };
  if (e.sqlMessage && e.errno) return new MySqlError(e.errno, e.sqlState ?? 'HY000', e.sqlMessage);
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN' || e.code === 'EAI_FAIL') {
    return new MySqlError(2005, 'HY000', `Unknown MySQL server host '${where.replace(/:\d+$/, '')}' (${e.code})`);
  }
  if (e.code === 'ECONNREFUSED' || e.code === 'ETIMEDOUT' || e.code === 'EHOSTUNREACH' || e.code === 'ENETUNREACH' || e.code === 'EADDRNOTAVAIL') {
    return new MySqlError(2003, 'HY000', `Can't connect to MySQL server on '${where}' (${e.code})`);
  }
  if (phase === 'query' && (e.code === 'PROTOCOL_CONNECTION_LOST' || e.code === 'ECONNRESET' || e.code === 'EPIPE')) {
    return new MySqlError(2013, 'HY000', 'Lost connection to MySQL server during query');
  }
  return new MySqlError(2013, 'HY000', `Lost connection to MySQL server at '${where}': ${e.message ?? String(err)}`);
}
