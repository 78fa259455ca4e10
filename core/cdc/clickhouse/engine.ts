/**
 * The embedded ClickHouse: one persistent chDB session in the data directory, with the
 * per-request state the HTTP interface gives every query (database, settings, query
 * parameters, default format) and the single-node translation of cluster DDL.
 *
 * chDB's connections are stateful (USE and SET persist), so each request takes a lane — one chDB
 * connection on the data directory with its own queue — and the lane's state is moved to what the
 * request asks for, changing only what differs. Lanes run side by side, as a server runs queries
 * (a long query no longer holds the sink's inserts); a named HTTP session keeps to one lane, so
 * what it created (temporary tables) stays with it. Queries run through chDB's async API, on
 * libuv's thread pool, off the event loop.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Session } from 'chdb';
import type { Logger } from '../../common/log.js';
import { uuid } from '../../common/ids.js';
import { ClickHouseError, chErrors, toClickHouseError } from './errors.js';
import { firstKeyword, formatClause, isWord, quoteString, secondStatementAt, tokenize, unquote, type Token } from './sql-lexer.js';
import { confineLocalFiles } from './local-files.js';
import { keeperOnlySystemCommand, onDistributedAlias, tableStatement, translateDdl, type KafkaQueueSpec, type Translation } from './translate.js';

export interface ExecRequest {
  /** The query text (URL `query` parameter, or the body when there is none). */
  query: string;
  /** Data for `INSERT … FORMAT X` that follows the query (the POST body when the query came in the URL). */
  data?: Buffer;
  database?: string;
  /** Query-level settings (URL parameters that are not reserved). */
  settings?: Record<string, string>;
  /** `param_*` values, unescaped, for `{name:Type}` placeholders. */
  params?: Record<string, string>;
  defaultFormat?: string;
  sessionId?: string;
  /** GET requests and readonly=1/2 may only read. */
  readonly?: boolean;
  queryId?: string;
}

export interface Summary {
  read_rows: string;
  read_bytes: string;
  written_rows: string;
  written_bytes: string;
  total_rows_to_read: string;
  result_rows: string;
  result_bytes: string;
  elapsed_ns: string;
}

export interface ExecResult {
  queryId: string;
  body: Uint8Array;
  /** The output format used (FORMAT clause or default); absent for statements without output (INSERT, DDL, SET). */
  format?: string;
  summary: Summary;
  notices: string[];
}

/** A finished INSERT … FORMAT (what system.query_log would show), for the pipeline view. */
export interface InsertEvent {
  queryId: string;
  at: number;
  /** As written in the query, e.g. `default.customers` or `customers`. */
  table: string;
  database: string;
  writtenRows: number;
  /** insert_deduplication_token, when the insert had one (the sink's `<topic>-<partition>-<first>-<last>`). */
  dedupToken?: string;
}

export interface TranslationLogEntry {
  at: string;
  queryId: string;
  original: string;
  translated: string;
  notices: string[];
}

/** Formats chDB's raw insert takes as bytes, straight to the engine's parser. */
const RAW_INSERT_FORMATS = new Set(['JSONEachRow', 'JSONCompactEachRow', 'TSV', 'TabSeparated', 'TSVWithNames', 'TabSeparatedWithNames', 'CSV', 'CSVWithNames']);
const READ_KEYWORDS = new Set(['SELECT', 'WITH', 'SHOW', 'DESC', 'DESCRIBE', 'EXISTS', 'EXPLAIN', 'SET', 'USE', 'CHECK']);
/** Statements that return rows through an output format. */
const OUTPUT_KEYWORDS = new Set(['SELECT', 'WITH', 'SHOW', 'DESC', 'DESCRIBE', 'EXISTS', 'EXPLAIN', 'CHECK', 'KILL', 'WATCH', 'FROM', 'PARALLEL']);
const DDL_KEYWORDS = new Set(['CREATE', 'ALTER', 'DROP', 'RENAME', 'TRUNCATE', 'OPTIMIZE', 'ATTACH', 'DETACH', 'EXCHANGE', 'GRANT', 'REVOKE', 'UNDROP']);
/** Statements that can carry cluster clauses (ON CLUSTER, replica commands) translate.ts rewrites. */
const TRANSLATED_KEYWORDS = new Set([...DDL_KEYWORDS, 'SYSTEM', 'DELETE', 'KILL']);
/**
 * The words a ClickHouse statement can start with (the parsers ParserQuery tries). A request
 * starting with anything else is a syntax error, which the server reports as such even over GET,
 * where it would otherwise refuse a write: the parser runs before the readonly check.
 */
const STATEMENT_KEYWORDS = new Set([
  ...READ_KEYWORDS,
  ...DDL_KEYWORDS,
  ...['INSERT', 'SYSTEM', 'KILL', 'WATCH', 'REPLACE', 'DELETE', 'UPDATE', 'BACKUP', 'RESTORE', 'BEGIN', 'COMMIT', 'ROLLBACK', 'MOVE', 'EXTERNAL', 'PARALLEL', 'FROM'],
]);
/** Settings that need Keeper and so make no sense on one chDB node. */
const KEEPER_SETTINGS = new Set(['insert_quorum', 'insert_quorum_parallel', 'select_sequential_consistency', 'insert_keeper_max_retries', 'distributed_ddl_task_timeout', 'distributed_ddl_output_mode']);

interface SessionState {
  database?: string;
  settings: Map<string, string>;
  touched: number;
  /** Seconds of silence after which the session closes (session_timeout). */
  timeout: number;
}

export interface EngineOptions {
  dataDir: string;
  log: Logger;
  /**
   * Translate cluster DDL (default true). Off, statements reach chDB as written and fail as on a
   * single server without Keeper — how a test shows what a real server says.
   */
  translateDdl?: boolean;
  /** Called after every successful INSERT … FORMAT. */
  onInsert?: (e: InsertEvent) => void;
  /** Called when a translated Kafka queue table was created, so a feeder can start. */
  onQueueTable?: (spec: KafkaQueueSpec) => void;
}

/** One chDB connection, its queue, and the database and settings it has been moved to. */
interface Lane {
  session: Session;
  tail: Promise<unknown>;
  /** Requests queued or running on it. */
  load: number;
  applied: { database: string; settings: Map<string, string> };
}

/** The table a CREATE [OR REPLACE] TEMPORARY TABLE [IF NOT EXISTS] name makes. */
function temporaryTableCreated(tokens: Token[]): { name: string; ifNotExists: boolean } | undefined {
  if (firstKeyword(tokens) !== 'CREATE') return undefined;
  let i = 1;
  if (isWord(tokens[i], 'OR') && isWord(tokens[i + 1], 'REPLACE')) i += 2;
  if (!isWord(tokens[i], 'TEMPORARY') || !isWord(tokens[i + 1], 'TABLE')) return undefined;
  i += 2;
  const ifNotExists = isWord(tokens[i], 'IF') && isWord(tokens[i + 1], 'NOT') && isWord(tokens[i + 2], 'EXISTS');
  const name = tokens[ifNotExists ? i + 3 : i];
  return name && (name.kind === 'word' || name.kind === 'quoted') ? { name: unquote(name), ifNotExists } : undefined;
}

/** Lanes at most: the sink's requests, the host's and a user's long query each find one free. */
const MAX_LANES = 4;

export class ChEngine {
  readonly version: string;
  readonly timezone: string;
  private readonly lanes: Lane[] = [];
  /** Named HTTP sessions and the lane each keeps to. */
  private readonly pinned = new Map<string, Lane>();
  private sessions = new Map<string, SessionState>();
  private readonly translations: TranslationLogEntry[] = [];
  private dedupWindow = 10000;
  private closed = false;
  /** Where file() reads and writes, as a server's user_files_path (see local-files.ts). */
  readonly userFiles: string;

  private constructor(private readonly opts: EngineOptions, session: Session, version: string, timezone: string) {
    this.lanes.push(newLane(session));
    this.version = version;
    this.timezone = timezone;
    this.userFiles = path.resolve(opts.dataDir, 'user_files');
    mkdirSync(this.userFiles, { recursive: true });
  }

  static async open(opts: EngineOptions): Promise<ChEngine> {
    const session = new Session(opts.dataDir);
    const info = (await session.queryAsync("SELECT version() AS v, timezone() AS tz, (SELECT value FROM system.merge_tree_settings WHERE name = 'replicated_deduplication_window') AS w", { format: 'JSONEachRow' })).json<{ v: string; tz: string; w: string }>();
    const engine = new ChEngine(opts, session, info.v, info.tz);
    engine.dedupWindow = Number(info.w) || 10000;
    return engine;
  }

  /** Runs one HTTP-interface request; throws ClickHouseError. */
  exec(req: ExecRequest): Promise<ExecResult> {
    const lane = this.laneFor(req.sessionId);
    lane.load++;
    const run = lane.tail.then(() => this.execNow(req, lane));
    lane.tail = run.then(
      () => void lane.load--,
      () => void lane.load--,
    );
    return run;
  }

  /** A named session's own lane; otherwise an idle lane, a new one while there may be more, or the least loaded. */
  private laneFor(sessionId: string | undefined): Lane {
    const held = sessionId ? this.pinned.get(sessionId) : undefined;
    if (held) return held;
    let lane = this.lanes.find((l) => l.load === 0);
    if (!lane && this.lanes.length < MAX_LANES && !this.closed) this.lanes.push((lane = newLane(new Session(this.opts.dataDir))));
    lane ??= this.lanes.reduce((a, b) => (b.load < a.load ? b : a));
    if (sessionId) this.pinned.set(sessionId, lane);
    return lane;
  }

  /**
   * Makes a named session ready for a request, as NamedSessionsStorage::acquireSession does:
   * created on first use unless `check` (session_check=1) demands that it exist already.
   */
  openSession(id: string, timeoutSeconds: number, check: boolean): void {
    const now = Date.now();
    for (const [k, v] of this.sessions) {
      if (now - v.touched > v.timeout * 1000) {
        this.sessions.delete(k);
        this.pinned.delete(k);
      }
    }
    let s = this.sessions.get(id);
    if (!s) {
      if (check) throw new ClickHouseError(372, 'SESSION_NOT_FOUND', `Session ${id} not found`);
      s = { settings: new Map(), touched: now, timeout: timeoutSeconds };
      this.sessions.set(id, s);
    }
    s.timeout = timeoutSeconds;
    s.touched = now;
  }

  /** close_session=1: the session and what was set in it are gone. */
  closeSession(id: string): void {
    this.sessions.delete(id);
    this.pinned.delete(id);
  }

  /** The in-process query the host uses: SQL in, text in `format` out. */
  async query(sql: string, format = 'JSONEachRow', database?: string): Promise<string> {
    const r = await this.exec({ query: sql, defaultFormat: format, ...(database ? { database } : {}) });
    return Buffer.from(r.body).toString('utf8');
  }

  translationLog(): TranslationLogEntry[] {
    return [...this.translations];
  }

  /** Original and translated text of a statement, without running it (for the UI). */
  translate(sql: string): Translation {
    return translateDdl(sql, { dedupWindow: this.dedupWindow });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.lanes.map((l) => l.tail));
    for (const l of this.lanes) l.session.close();
  }

  private async execNow(req: ExecRequest, lane: Lane): Promise<ExecResult> {
    if (this.closed) throw new ClickHouseError(210, 'NETWORK_ERROR', 'Embedded ClickHouse is shutting down');
    const queryId = req.queryId || uuid();
    const started = process.hrtime.bigint();
    const sess = req.sessionId ? this.sessionState(req.sessionId) : undefined;
    const settings = { ...(req.settings ?? {}) };
    for (const k of Object.keys(settings)) {
      if (KEEPER_SETTINGS.has(k) && !['0', '1', '', 'auto'].includes(settings[k]!)) throw chErrors.keeper(`Setting ${k}=${settings[k]}`);
    }

    // INSERT … FORMAT with data: the head is lexed only up to the format name.
    const head = req.query.length > 65536 ? req.query.slice(0, 65536) : req.query;
    const insert = parseInsertHead(head);
    if (insert) {
      if (req.readonly) throw chErrors.readonly();
      const inline = req.query.slice(insert.dataStart);
      const data = joinData(inline, req.data);
      const headSql = req.query.slice(0, insert.dataStart);
      const confinedHead = confineLocalFiles(headSql, tokenize(headSql), this.userFiles);
      await this.moveSession(lane, req.database ?? sess?.database, sess?.settings, insert.raw ? undefined : settings);
      try {
        if (insert.raw && data.length > 0) {
          const r = await lane.session.insert({
            table: insert.table,
            values: data,
            format: insert.format as 'JSONEachRow',
            ...(insert.columns ? { columns: insert.columns } : {}),
            settings: { ...insert.settings, ...settings },
          });
          this.notifyInsert(queryId, insert, req.database ?? sess?.database, r.rowsWritten, settings);
          return this.result(queryId, new Uint8Array(0), undefined, started, { written_rows: r.rowsWritten, written_bytes: r.bytesWritten }, []);
        }
        const sql = data.length ? `${confinedHead}\n${data.toString('utf8')}` : confinedHead + inline;
        const r = await lane.session.queryAsync(sql, { format: 'TabSeparated' });
        this.notifyInsert(queryId, insert, req.database ?? sess?.database, 0, settings);
        return this.result(queryId, new Uint8Array(0), undefined, started, { read_rows: r.rowsRead, read_bytes: r.bytesRead }, []);
      } catch (err) {
        throw toClickHouseError(err);
      }
    }

    let sql = req.data && req.data.length ? `${req.query}${req.query ? '\n' : ''}${req.data.toString('utf8')}` : req.query;
    let tokens = tokenize(sql);
    if (tokens.length === 0) throw chErrors.emptyQuery();
    const second = secondStatementAt(tokens);
    if (second >= 0) throw chErrors.syntax(`Syntax error (Multi-statements are not allowed): failed at position ${second + 1} (end of query): ${sql.slice(second, second + 40)}`);
    const confined = confineLocalFiles(sql, tokens, this.userFiles);
    if (confined !== sql) tokens = tokenize((sql = confined));
    const keyword = firstKeyword(tokens);
    if (keyword === 'INSERT') {
      if (req.readonly) throw chErrors.readonly();
    } else if (req.readonly && !READ_KEYWORDS.has(keyword) && STATEMENT_KEYWORDS.has(keyword)) throw chErrors.readonly();

    const translating = this.opts.translateDdl !== false;
    const keeperCmd = translating ? keeperOnlySystemCommand(tokens) : undefined;
    if (keeperCmd) throw chErrors.keeper(keeperCmd);

    // Session-less SET/USE change nothing (as on a server); in a session they stick.
    if (keyword === 'SET' || keyword === 'USE') {
      if (keyword === 'USE') {
        const db = tokens[1] ? unquote(tokens[1]) : '';
        // the lane is there now, whatever the request's session: the next request moves it back
        await this.runPrelude(lane, [`USE ${quoteIdent(db)}`], () => (lane.applied.database = db));
        if (sess) sess.database = db;
      } else {
        const pairs = parseSet(sql, tokens);
        for (const [k, v] of pairs) if (KEEPER_SETTINGS.has(k) && !['0', '1', "'auto'"].includes(v)) throw chErrors.keeper(`Setting ${k}=${v}`);
        // Validate by applying, as a server would refuse an unknown setting.
        await this.moveSession(lane, lane.applied.database, undefined, undefined);
        await this.runPrelude(lane, [`SET ${pairs.map(([k, v]) => `${k} = ${v}`).join(', ')}`], () => {
          for (const [k, v] of pairs) lane.applied.settings.set(k, v);
        });
        if (sess) for (const [k, v] of pairs) sess.settings.set(k, v);
      }
      return this.result(queryId, new Uint8Array(0), undefined, started, {}, []);
    }

    const notices: string[] = [];
    if (translating && TRANSLATED_KEYWORDS.has(keyword)) {
      const tr = translateDdl(sql, { dedupWindow: this.dedupWindow });
      if (tr.notices.length) {
        sql = tr.sql;
        tokens = tokenize(sql);
        notices.push(...tr.notices);
        this.logTranslation(queryId, tr.original, tr.sql, tr.notices);
        if (!sql) return this.result(queryId, new Uint8Array(0), undefined, started, {}, notices);
        if (tr.kafka) {
          const spec = tr.kafka;
          const run = await this.runMain(lane, sql, req, sess, settings, tokens, queryId, started, notices);
          this.opts.onQueueTable?.({ ...spec, database: spec.database ?? req.database ?? sess?.database ?? 'default' });
          return run;
        }
      }
    }
    const onTable = translating ? tableStatement(tokens) : undefined;
    if (onTable) {
      const created = await this.aliasCreateQuery(lane, onTable.database ?? req.database ?? sess?.database ?? 'default', onTable.table);
      const skipped = created ? onDistributedAlias(onTable, created) : undefined;
      if (skipped) {
        notices.push(skipped.notice);
        this.logTranslation(queryId, sql, '', [skipped.notice]);
        return this.result(queryId, new Uint8Array(0), undefined, started, {}, notices);
      }
    }
    const temporary = sess ? undefined : temporaryTableCreated(tokens);
    if (temporary) return this.runWithoutLeftovers(lane, temporary, () => this.runMain(lane, sql, req, sess, settings, tokens, queryId, started, notices));
    return this.runMain(lane, sql, req, sess, settings, tokens, queryId, started, notices);
  }

  /**
   * A request without a session has a context of its own on a server, which its temporary table
   * goes with: on a lane (one chDB connection for many requests) the table is dropped after the
   * request, unless IF NOT EXISTS found one already there (a named session's on the same lane).
   */
  private async runWithoutLeftovers(lane: Lane, t: { name: string; ifNotExists: boolean }, run: () => Promise<ExecResult>): Promise<ExecResult> {
    const exists = async () => (await lane.session.queryAsync(`SELECT 1 FROM system.tables WHERE is_temporary AND name = ${quoteString(t.name)}`, { format: 'TabSeparated' })).text().trim() !== '';
    if (t.ifNotExists && (await exists())) return run();
    try {
      return await run();
    } finally {
      await lane.session.queryAsync(`DROP TEMPORARY TABLE IF EXISTS ${quoteIdent(t.name)}`, { format: 'TabSeparated' }).catch(() => undefined);
    }
  }

  private logTranslation(queryId: string, original: string, translated: string, notices: string[]): void {
    this.translations.push({ at: new Date().toISOString(), queryId, original, translated, notices });
    if (this.translations.length > 500) this.translations.shift();
    for (const n of notices) this.opts.log.info(`DDL translated for embedded ClickHouse: ${n}`, { queryId });
  }

  /** The CREATE statement of an Alias table (undefined for any other table), to recognise a translated Distributed table. */
  private async aliasCreateQuery(lane: Lane, database: string, table: string): Promise<string | undefined> {
    try {
      const r = await lane.session.queryAsync(`SELECT create_table_query FROM system.tables WHERE database = ${quoteString(database)} AND name = ${quoteString(table)} AND engine = 'Alias'`, { format: 'JSONEachRow' });
      const line = Buffer.from(r.bytes()).toString('utf8').trim();
      return line ? (JSON.parse(line) as { create_table_query: string }).create_table_query : undefined;
    } catch (err) {
      throw toClickHouseError(err);
    }
  }

  private notifyInsert(queryId: string, insert: InsertHead, database: string | undefined, writtenRows: number, settings: Record<string, string>): void {
    if (!this.opts.onInsert) return;
    const token = settings.insert_deduplication_token ?? insert.settings.insert_deduplication_token;
    const dot = insert.table.indexOf('.');
    try {
      this.opts.onInsert({
        queryId,
        at: Date.now(),
        table: dot < 0 ? insert.table : insert.table.slice(dot + 1),
        database: dot < 0 ? database || 'default' : insert.table.slice(0, dot),
        writtenRows,
        ...(token ? { dedupToken: token } : {}),
      });
    } catch (err) {
      this.opts.log.warn('insert listener failed', { error: (err as Error).message });
    }
  }

  private async runMain(lane: Lane, sql: string, req: ExecRequest, sess: SessionState | undefined, settings: Record<string, string>, tokens: Token[], queryId: string, started: bigint, notices: string[]): Promise<ExecResult> {
    const fmt = formatClause(tokens);
    const format = fmt?.name ?? req.defaultFormat ?? 'TabSeparated';
    await this.moveSession(lane, req.database ?? sess?.database, sess?.settings, settings);
    try {
      const params = req.params ?? {};
      const r = Object.keys(params).length
        ? await lane.session.queryBindAsync(sql, params, { format })
        : await lane.session.queryAsync(sql, { format });
      const body = r.bytes();
      // Only a query whose pipeline pulls rows gets an output format (executeQuery's result_details).
      const output = OUTPUT_KEYWORDS.has(firstKeyword(tokens));
      return this.result(queryId, body, output ? format : undefined, started, { read_rows: r.rowsRead, read_bytes: r.bytesRead, result_rows: countRows(body, format) }, notices);
    } catch (err) {
      throw toClickHouseError(err);
    }
  }

  private result(queryId: string, body: Uint8Array, format: string | undefined, started: bigint, n: Partial<Record<keyof Summary, number>>, notices: string[]): ExecResult {
    const s = (k: keyof Summary) => String(n[k] ?? 0);
    return {
      queryId,
      body,
      ...(format ? { format } : {}),
      notices,
      summary: {
        read_rows: s('read_rows'),
        read_bytes: s('read_bytes'),
        written_rows: s('written_rows'),
        written_bytes: s('written_bytes'),
        total_rows_to_read: s('read_rows'),
        result_rows: s('result_rows'),
        result_bytes: String(body.length),
        elapsed_ns: String(process.hrtime.bigint() - started),
      },
    };
  }

  private sessionState(id: string): SessionState {
    let s = this.sessions.get(id);
    if (!s) {
      // Callers that skip openSession get the server's default_session_timeout.
      s = { settings: new Map(), touched: Date.now(), timeout: 60 };
      this.sessions.set(id, s);
    }
    s.touched = Date.now();
    return s;
  }

  /** Brings a lane's chDB connection to the wanted database and settings, changing only what differs. */
  private async moveSession(lane: Lane, database: string | undefined, sessionSettings: Map<string, string> | undefined, urlSettings: Record<string, string> | undefined): Promise<void> {
    const applied = lane.applied;
    const want = new Map<string, string>(sessionSettings ?? []);
    for (const [k, v] of Object.entries(urlSettings ?? {})) want.set(k, quoteString(v));
    const db = database || 'default';
    if (db !== applied.database) {
      await this.runPrelude(lane, [`USE ${quoteIdent(db)}`], () => (applied.database = db));
    }
    // One SET for the settings dropped and those changed: a client that alternates settings (the
    // sink's inserts and its state writes) cost one query per dropped setting before each request.
    const dropped = [...applied.settings.keys()].filter((k) => !want.has(k));
    const changed = [...want].filter(([k, v]) => applied.settings.get(k) !== v);
    if (dropped.length || changed.length) {
      const assignments = [...dropped.map((k) => `${quoteIdent(k)} = DEFAULT`), ...changed.map(([k, v]) => `${quoteIdent(k)} = ${v}`)];
      await this.runPrelude(lane, [`SET ${assignments.join(', ')}`], () => {
        for (const k of dropped) applied.settings.delete(k);
        for (const [k, v] of changed) applied.settings.set(k, v);
      });
    }
  }

  private async runPrelude(lane: Lane, stmts: string[], onOk: () => void): Promise<void> {
    try {
      await lane.session.queryAsync(stmts.join('; '), { format: 'TabSeparated' });
      onOk();
    } catch (err) {
      throw toClickHouseError(err);
    }
  }
}

function newLane(session: Session): Lane {
  return { session, tail: Promise.resolve(), load: 0, applied: { database: 'default', settings: new Map() } };
}

function quoteIdent(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
}

function joinData(inline: string, data: Buffer | undefined): Buffer {
  // ClickHouse skips the whitespace between the format name and the data.
  const lead = inline.replace(/^[ \t]*\r?\n?/, '');
  if (!data || data.length === 0) return Buffer.from(lead, 'utf8');
  if (!lead.trim()) return data;
  return Buffer.concat([Buffer.from(lead.endsWith('\n') ? lead : lead + '\n', 'utf8'), data]);
}

interface InsertHead {
  table: string;
  columns?: string[];
  format: string;
  settings: Record<string, string>;
  /** Offset in the query text where inline data begins. */
  dataStart: number;
  /** True when chDB's raw (zero-copy) insert can take it. */
  raw: boolean;
}

/** `INSERT INTO [TABLE] [db.]t [(cols)] [SETTINGS k=v, …] FORMAT F` — undefined for any other shape. */
export function parseInsertHead(sql: string): InsertHead | undefined {
  let depth = 0;
  let formatAt = -1;
  const tokens = tokenize(sql, 0, (t, i) => {
    if (i === 0 && !isWord(t, 'INSERT')) return true;
    if (t.kind === 'punct' && t.text === '(') depth++;
    if (t.kind === 'punct' && t.text === ')') depth--;
    if (depth === 0 && (isWord(t, 'VALUES', 'SELECT', 'WITH') || (t.kind === 'punct' && t.text === ';'))) return true;
    if (formatAt >= 0 && i === formatAt + 1) return true;
    if (depth === 0 && isWord(t, 'FORMAT')) formatAt = i;
    return false;
  });
  if (!isWord(tokens[0], 'INSERT') || formatAt < 0 || !tokens[formatAt + 1]) return undefined;
  const fmtTok = tokens[formatAt + 1]!;
  const format = unquote(fmtTok);
  if (format === 'Values') return undefined;
  let i = 1;
  if (!isWord(tokens[i], 'INTO')) return undefined;
  i++;
  if (isWord(tokens[i], 'FUNCTION')) return { table: '', format, settings: {}, dataStart: fmtTok.end, raw: false };
  if (isWord(tokens[i], 'TABLE')) i++;
  // chDB's raw insert takes plain identifiers; a quoted one qualifies when its name is plain.
  const simple = (t: Token | undefined) => !!t && (t.kind === 'word' || (t.kind === 'quoted' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(unquote(t))));
  let table = tokens[i] ? unquote(tokens[i]!) : '';
  let raw = simple(tokens[i]);
  i++;
  if (tokens[i]?.text === '.') {
    table = `${table}.${tokens[i + 1] ? unquote(tokens[i + 1]!) : ''}`;
    raw = raw && simple(tokens[i + 1]);
    i += 2;
  }
  let columns: string[] | undefined;
  if (tokens[i]?.text === '(') {
    columns = [];
    i++;
    while (i < formatAt && tokens[i]?.text !== ')') {
      const t = tokens[i]!;
      if (t.text !== ',') {
        if (!simple(t)) raw = false;
        columns.push(unquote(t));
      }
      i++;
    }
    i++;
  }
  const settings: Record<string, string> = {};
  if (isWord(tokens[i], 'SETTINGS')) {
    i++;
    while (i < formatAt) {
      const k = tokens[i];
      const v = tokens[i + 2];
      if (!k || tokens[i + 1]?.text !== '=' || !v) return undefined;
      settings[k.text] = unquote(v);
      i += 3;
      if (tokens[i]?.text === ',') i++;
    }
  }
  if (i !== formatAt) return undefined;
  return { table, ...(columns ? { columns } : {}), format, settings, dataStart: fmtTok.end, raw: raw && RAW_INSERT_FORMATS.has(format) };
}

function parseSet(sql: string, tokens: Token[]): [string, string][] {
  const pairs: [string, string][] = [];
  let i = 1;
  while (i < tokens.length) {
    const k = tokens[i];
    if (!k || tokens[i + 1]?.text !== '=') throw chErrors.syntax(`Syntax error: failed at position ${(k?.start ?? sql.length) + 1}: expected setting assignment in SET`);
    let j = i + 2;
    const startVal = tokens[j];
    while (j < tokens.length && tokens[j]!.text !== ',') j++;
    if (!startVal) throw chErrors.syntax('Syntax error: expected a value in SET');
    pairs.push([unquote(k), sql.slice(startVal.start, tokens[j - 1]!.end)]);
    i = j + 1;
  }
  return pairs;
}

const LINE_FORMATS = /^(JSONEachRow|JSONLines|NDJSON|JSONCompactEachRow|JSONStringsEachRow|JSONCompactStringsEachRow|TabSeparated|TSV|TSVRaw|TabSeparatedRaw|CSV|JSONObjectEachRow)$/;

function countRows(body: Uint8Array, format: string): number {
  if (LINE_FORMATS.test(format)) {
    let n = 0;
    for (let i = 0; i < body.length; i++) if (body[i] === 10) n++;
    return n;
  }
  if (/^JSON(Compact)?(Strings)?$/.test(format)) {
    const tail = Buffer.from(body.subarray(Math.max(0, body.length - 400))).toString('utf8');
    const m = /"rows":\s*(\d+)/.exec(tail);
    return m ? Number(m[1]) : 0;
  }
  return 0;
}
