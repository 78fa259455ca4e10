/**
 * A real MySQL / MariaDB as a console source, through mysql2: statements, catalogue, DESCRIBE.
 * Query only — change capture from a real server is Debezium's job in a real Kafka Connect.
 * Server errors keep MySQL's own errno, SQLSTATE and text; a refused connection is reported as
 * the mysql client does (ERROR 2003).
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

export class RemoteSource implements QuerySource {
  readonly kind = 'remote' as const;
  constructor(private readonly opts: RemoteSourceOptions) {}

  private async conn(database: string | null): Promise<mysql.Connection> {
    try {
      return await mysql.createConnection({
        host: this.opts.host,
        port: this.opts.port ?? 3306,
        user: this.opts.user,
        password: this.opts.password ?? '',
        ...(database ? { database } : this.opts.database ? { database: this.opts.database } : {}),
        connectTimeout: this.opts.connectTimeoutMs ?? 10_000,
        dateStrings: true,
        supportBigNumbers: true,
      });
    } catch (err) {
      throw toMySqlError(err, `${this.opts.host}:${this.opts.port ?? 3306}`);
    }
  }

  async execute(database: string | null, sql: string): Promise<StatementResult[]> {
    const statements = splitStatements(sql);
    if (!statements.length) throw new MySqlError(1065, '42000', 'Query was empty');
    const c = await this.conn(database);
    const out: StatementResult[] = [];
    let current = database;
    try {
      for (const s of statements) {
        let res;
        try {
          res = await c.query({ sql: s, rowsAsArray: true });
        } catch (err) {
          throw toMySqlError(err, `${this.opts.host}:${this.opts.port ?? 3306}`);
        }
        const [rows, fields] = res as unknown as [unknown, { name: string }[] | undefined];
        const use = /^\s*use\s+`?([^`;\s]+)`?/i.exec(s);
        if (use) current = use[1]!;
        if (Array.isArray(rows)) out.push({ sql: s, kind: 'rows', columns: (fields ?? []).map((f) => f.name), rows: rows as unknown[][], affectedRows: 0, database: current });
        else {
          const h = rows as { affectedRows?: number; insertId?: number };
          out.push({ sql: s, kind: 'ok', columns: [], rows: [], affectedRows: h.affectedRows ?? 0, ...(h.insertId ? { insertId: h.insertId } : {}), database: current });
        }
      }
    } finally {
      await c.end().catch(() => {});
    }
    return out;
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
    const [r] = await this.execute(database, `DESCRIBE \`${table.replace(/`/g, '``')}\``);
    return r!.rows.map(([field, type, nul, , dflt, extra]) => {
      const t = String(type);
      const m = /^(\w+)(?:\(([^)]*)\))?/.exec(t);
      return {
        name: String(field),
        mysqlType: t,
        baseType: (m?.[1] ?? t).toLowerCase(),
        args: m?.[2] ? m[2].split(',').map((s) => s.trim()) : [],
        unsigned: /unsigned/i.test(t),
        nullable: nul === 'YES',
        defaultExpr: dflt === null || dflt === undefined ? null : String(dflt),
        autoIncrement: /auto_increment/i.test(String(extra)),
        onUpdateNow: /on update/i.test(String(extra)),
      };
    });
  }

  async close(): Promise<void> {}
}

export function toMySqlError(err: unknown, where: string): MySqlError {
  const e = err as { errno?: number; sqlState?: string; sqlMessage?: string; code?: string; message?: string };
  if (e.sqlMessage && e.errno) return new MySqlError(e.errno, e.sqlState ?? 'HY000', e.sqlMessage);
  if (e.code === 'ECONNREFUSED' || e.code === 'ETIMEDOUT' || e.code === 'ENOTFOUND' || e.code === 'EHOSTUNREACH') {
    return new MySqlError(2003, 'HY000', `Can't connect to MySQL server on '${where}' (${e.code})`);
  }
  return new MySqlError(2013, 'HY000', `Lost connection to MySQL server at '${where}': ${e.message ?? String(err)}`);
}
