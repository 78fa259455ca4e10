/**
 * Cluster DDL → single-node DDL. Embedded ClickHouse is one chDB node without Keeper and without
 * a server configuration, so the parts of a statement that need a cluster, Keeper or a config
 * section are rewritten to their single-node equivalents, and every rewrite is reported as a
 * notice (never silent); what has no honest equivalent fails with a ClickHouse-style error that
 * says what to do instead:
 *
 * - `ON CLUSTER x` is removed (statement heads only: a JOIN's `ON cluster = …` is a condition);
 * - `Replicated*MergeTree('/path', '{replica}', args…)` (or the short form without path and
 *   replica) becomes `*MergeTree(args…)`, with `non_replicated_deduplication_window` set to the
 *   table's `replicated_deduplication_window` (or the server default) so
 *   `insert_deduplication_token` drops a repeated block exactly as a replicated table does (the
 *   sink's exactly-once relies on it); `GraphiteMergeTree` needs `<graphite_rollup>` from the
 *   server configuration and is refused;
 * - `storage_policy` / `disk` settings name disks of the server configuration and are dropped;
 * - `KeeperMap('/path'[, keys_limit])` becomes `EmbeddedRocksDB` (the PRIMARY KEY stays);
 * - `Distributed(cluster, db, table, …)` becomes `Alias(db, table)`: on a one-node cluster the
 *   Distributed table reads and writes the local table, and so does the alias. Statements that on
 *   a cluster change only the Distributed table itself are answered by {@link onDistributedAlias};
 * - a `Kafka` queue table becomes a `Null` table of the same columns plus the engine's virtual
 *   columns (as MATERIALIZED columns), which Loupe's consumer feeds from the topic log (see
 *   core/cdc/queue), so materialized views on it work unchanged;
 * - `CREATE DATABASE … ENGINE = Replicated(…)` becomes `Atomic`;
 * - `SYSTEM SYNC|RESTART|RESTORE REPLICA t` become `SYSTEM WAIT LOADING PARTS t` and
 *   `SYSTEM SYNC DATABASE REPLICA` nothing at all (the statement's text becomes empty).
 *
 * Each statement of a multi-statement text is translated on its own.
 */
import { ClickHouseError, chErrors } from './errors.js';
import { firstKeyword, isWord, matchingClose, quoteString, splitArgs, tokenize, unquote, type Token } from './sql-lexer.js';

/** The Kafka engine parameters of a translated queue table. */
export interface KafkaQueueSpec {
  database?: string;
  table: string;
  brokerList: string;
  topics: string[];
  group: string;
  format: string;
  /** Every kafka_* setting as written. */
  settings: Record<string, string>;
}

export interface Translation {
  original: string;
  /** Empty when every statement became a no-op. */
  sql: string;
  notices: string[];
  kafka?: KafkaQueueSpec;
}

export interface TranslateOptions {
  /** Window added to translated replicated tables; ClickHouse's replicated_deduplication_window default. */
  dedupWindow: number;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

interface Ctx {
  sql: string;
  opts: TranslateOptions;
  edits: Edit[];
  notices: string[];
  kafka?: KafkaQueueSpec;
}

/**
 * Marks the COMMENT of an alias that stands in for a Distributed table, so later statements on
 * it can be told apart from statements on an Alias table a user created.
 */
export const DISTRIBUTED_MARKER = 'Loupe: stands in for ';

const text = (sql: string, toks: Token[]) => (toks.length ? sql.slice(toks[0]!.start, toks[toks.length - 1]!.end) : '');
const isPunct = (t: Token | undefined, p: string) => !!t && t.kind === 'punct' && t.text === p;
const isName = (t: Token | undefined) => !!t && (t.kind === 'word' || t.kind === 'quoted');
const oneLine = (s: string) => s.replace(/\s+/g, ' ');

export function translateDdl(sql: string, opts: TranslateOptions = { dedupWindow: 1000 }): Translation {
  const tokens = tokenize(sql);
  const ctx: Ctx = { sql, opts, edits: [], notices: [] };
  let from = 0;
  for (let i = 0; i <= tokens.length; i++) {
    if (i < tokens.length && !isPunct(tokens[i], ';')) continue;
    if (i > from) translateStatement(ctx, tokens.slice(from, i), tokens[i]);
    from = i + 1;
  }
  let out = sql;
  for (const ed of ctx.edits.sort((a, b) => b.start - a.start)) out = out.slice(0, ed.start) + ed.text + out.slice(ed.end);
  if (!out.trim()) out = '';
  return { original: sql, sql: out, notices: ctx.notices, ...(ctx.kafka ? { kafka: ctx.kafka } : {}) };
}

function translateStatement(ctx: Ctx, toks: Token[], semicolon: Token | undefined): void {
  if (firstKeyword(toks) === 'SYSTEM' && systemStatement(ctx, toks, semicolon)) return;
  let depth = 0;
  let engineSeen = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (isPunct(t, '(') || isPunct(t, '[')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']')) depth--;
    if (depth !== 0) continue;
    // Past this, ON and ENGINE belong to the statement's query (a JOIN condition, a column).
    if (isWord(t, 'SELECT')) break;
    const cluster = onClusterAt(toks, i);
    if (cluster >= 0) {
      removeOnCluster(ctx, toks, i);
      i = cluster;
      continue;
    }
    if (!engineSeen && isWord(t, 'ENGINE')) {
      engineSeen = true;
      i = engineClause(ctx, toks, i);
    }
  }
}

/** Index of the cluster name when `ON CLUSTER name` starts at i, else -1. */
function onClusterAt(toks: Token[], i: number): number {
  if (!isWord(toks[i], 'ON') || !isWord(toks[i + 1], 'CLUSTER')) return -1;
  const name = toks[i + 2];
  // ClickHouse takes an identifier or a string literal here (parseIdentifierOrStringLiteral).
  if (!name || !(isName(name) || name.kind === 'string')) return -1;
  // `GRANT … ON cluster.t TO u`, `REVOKE … ON cluster FROM u`: a database or table named cluster.
  if (isPunct(toks[i + 3], '.') || isWord(name, 'TO', 'FROM')) return -1;
  return i + 2;
}

function removeOnCluster(ctx: Ctx, toks: Token[], i: number): void {
  const name = toks[i + 2]!;
  const start = i > 0 ? toks[i - 1]!.end : toks[i]!.start;
  ctx.edits.push({ start, end: name.end, text: '' });
  ctx.notices.push(`ON CLUSTER ${name.text} removed: embedded ClickHouse (chDB) is a single node, the statement runs on it alone`);
}

/** Handles `ENGINE [=] Name[(args)]` at index i; returns the index to continue after. */
function engineClause(ctx: Ctx, toks: Token[], i: number): number {
  const { sql } = ctx;
  let e = i + 1;
  if (isPunct(toks[e], '=')) e++;
  const engineTok = toks[e];
  if (!engineTok || engineTok.kind !== 'word') return i;
  const hasArgs = isPunct(toks[e + 1], '(');
  const close = hasArgs ? matchingClose(toks, e + 1) : e;
  if (close < 0) return i;
  const args = hasArgs ? splitArgs(toks, e + 1, close) : [];
  const whole = { start: engineTok.start, end: toks[close]!.end };
  const originalEngine = sql.slice(whole.start, whole.end);
  const name = engineTok.text;
  const isDatabase = isWord(toks[0], 'CREATE', 'ATTACH') && isWord(toks[1], 'DATABASE');

  if (isDatabase) {
    if (name === 'Replicated') replicatedDatabase(ctx, toks, close, whole, originalEngine);
    return close;
  }
  const rep = /^Replicated(\w*MergeTree)$/.exec(name);
  if (rep) replicatedTable(ctx, toks, close, args, hasArgs, rep[1]!, whole, originalEngine);
  else if (name === 'GraphiteMergeTree') throw graphiteError(args);
  else if (/^KeeperMap$/i.test(name)) keeperMap(ctx, toks, close, args, whole, originalEngine);
  else if (/^Kafka$/i.test(name)) kafkaTable(ctx, toks, i, args, close, whole); else if (name === 'Distributed' && args.length >= 3) distributed(ctx, toks, i, close, args, originalEngine);
  else if (/MergeTree$/.test(name)) {
    const sc = findSettings(ctx.sql, toks, close + 1);
    if (sc) writeSettings(ctx, toks, close, sc, [], dropServerConfigSettings(ctx, sc));
  }
  return close;
}

const lit = (a: Token[] | undefined) => !!a && a.length === 1 && a[0]!.kind === 'string';

function replicatedTable(ctx: Ctx, toks: Token[], close: number, args: Token[][], hasArgs: boolean, family: string, whole: { start: number; end: number }, originalEngine: string): void {
  const { sql } = ctx;
  // registerStorageMergeTree: the path and the replica name are the first two arguments when both
  // are literals; otherwise the server's default_replica_path/name apply (the short form), except
  // that a lone string literal is a mistake - but for Graphite, whose one argument is a string.
  const keeperArgs = args.length >= 2 && lit(args[0]) && lit(args[1]);
  const graphite = family === 'GraphiteMergeTree';
  if (!keeperArgs && lit(args[0]) && !(graphite && args.length === 1)) {
    throw new ClickHouseError(
      36,
      'BAD_ARGUMENTS',
      `Expected two string literal arguments: zookeeper_path and replica_name, in ${oneLine(originalEngine)}. Write Replicated${family}('/clickhouse/tables/{shard}/{database}/{table}', '{replica}'${args.length > 1 ? ', …' : ''}) or leave both out`,
    );
  }
  const rest = keeperArgs ? args.slice(2) : args;
  if (graphite) throw graphiteError(rest);
  const engine = `${family}${hasArgs || rest.length ? `(${rest.map((a) => text(sql, a)).join(', ')})` : ''}`;
  ctx.edits.push({ ...whole, text: engine });
  const sc = findSettings(ctx.sql, toks, close + 1);
  const has = (k: string) => sc?.pairs.find((p) => p.key === k);
  const replicatedWindow = has('replicated_deduplication_window');
  const window = replicatedWindow ? text(sql, replicatedWindow.value) : String(ctx.opts.dedupWindow);
  const add = has('non_replicated_deduplication_window') ? [] : [`non_replicated_deduplication_window = ${window}`];
  ctx.notices.push(
    `${originalEngine} -> ${engine}: replication needs Keeper, which embedded ClickHouse does not have` +
      (add.length
        ? `; added SETTINGS non_replicated_deduplication_window = ${window}${replicatedWindow ? ' (the table\'s replicated_deduplication_window)' : ''} so ${window === '0' ? 'inserts are not deduplicated, as on the replicated table' : 'insert_deduplication_token drops a repeated insert block as the replicated table would'}`
        : ''),
  );
  writeSettings(ctx, toks, close, sc, add, sc ? dropServerConfigSettings(ctx, sc) : new Set());
}

function graphiteError(args: Token[][]): ClickHouseError {
  const section = args.length && lit(args[args.length - 1]) ? unquote(args[args.length - 1]![0]!) : 'graphite_rollup';
  return new ClickHouseError(
    139,
    'NO_ELEMENTS_IN_CONFIG',
    `No '${section}' element in configuration file: GraphiteMergeTree takes its rollup rules from the <${section}> section of the server configuration, and embedded ClickHouse (chDB) has no server configuration to hold them. Create the table with ENGINE = MergeTree and the same ORDER BY to keep the raw points, or point Loupe at the ClickHouse server that has the rollup rules`,
  );
}

/** storage_policy and disk name disks of the server configuration, which chDB does not have. */
function dropServerConfigSettings(ctx: Ctx, sc: SettingsClause): Set<SettingPair> {
  const drop = new Set<SettingPair>();
  for (const p of sc.pairs) {
    const named = lit(p.value) || (p.value.length === 1 && p.value[0]!.kind === 'word');
    if (p.key === 'storage_policy' && named && unquote(p.value[0]!) !== 'default') drop.add(p);
    else if (p.key === 'disk' && named) drop.add(p);
  }
  if (drop.size) {
    ctx.notices.push(
      `SETTINGS ${[...drop].map((p) => p.text).join(', ')} removed: storage policies and disks are defined in the server configuration, which embedded ClickHouse (chDB) does not have; the table is stored on chDB's default disk`,
    );
  }
  return drop;
}

function replicatedDatabase(ctx: Ctx, toks: Token[], close: number, whole: { start: number; end: number }, originalEngine: string): void {
  ctx.edits.push({ ...whole, text: 'Atomic' });
  const sc = findSettings(ctx.sql, toks, close + 1);
  ctx.notices.push(
    `${originalEngine} -> Atomic: the Replicated database engine needs Keeper, which embedded ClickHouse does not have` +
      (sc ? `; SETTINGS ${sc.pairs.map((p) => p.text).join(', ')} removed, they are settings of the Replicated engine` : ''),
  );
  if (sc) writeSettings(ctx, toks, close, sc, [], new Set(sc.pairs));
}

function keeperMap(ctx: Ctx, toks: Token[], close: number, args: Token[][], whole: { start: number; end: number }, originalEngine: string): void {
  if (primaryKeyColumns(toks) !== 1) {
    throw new ClickHouseError(
      36,
      'BAD_ARGUMENTS',
      'StorageKeeperMap requires one column in primary key: add PRIMARY KEY <column> (EmbeddedRocksDB, which stands in for KeeperMap in embedded ClickHouse, keys the rows the same way)',
    );
  }
  const limit = args[1] ? text(ctx.sql, args[1]) : undefined;
  ctx.edits.push({ ...whole, text: 'EmbeddedRocksDB' });
  const sc = findSettings(ctx.sql, toks, close + 1);
  // KeeperMap takes small transactional writes; RocksDB's bulk mode would build an SST file per insert.
  const add = sc?.pairs.some((p) => p.key === 'optimize_for_bulk_insert') ? [] : ['optimize_for_bulk_insert = 0'];
  writeSettings(ctx, toks, close, sc, add, new Set());
  ctx.notices.push(
    `${originalEngine} -> EmbeddedRocksDB: KeeperMap stores its rows in Keeper (under keeper_map_path_prefix), which embedded ClickHouse does not have; EmbeddedRocksDB keeps them on local disk with the same PRIMARY KEY semantics` +
      (add.length ? ' (SETTINGS optimize_for_bulk_insert = 0: row-by-row writes, as KeeperMap takes them)' : '') +
      (limit ? `; keys_limit ${limit} is not enforced: EmbeddedRocksDB has no key limit, so an insert a server would refuse for exceeding it is taken here` : ''),
  );
}

/** How many columns the statement's PRIMARY KEY names (storage clause or column declaration). */
function primaryKeyColumns(toks: Token[]): number {
  let depth = 0;
  let n = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (isPunct(t, '(') || isPunct(t, '[')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']')) depth--;
    if (!isWord(t, 'PRIMARY') || !isWord(toks[i + 1], 'KEY') || depth > 1) continue;
    const next = toks[i + 2];
    if (isPunct(next, '(')) {
      const close = matchingClose(toks, i + 2);
      n += close < 0 ? 0 : splitArgs(toks, i + 2, close).length;
    } else if (isWord(next, 'tuple') && isPunct(toks[i + 3], '(')) {
      const close = matchingClose(toks, i + 3);
      n += close < 0 ? 0 : splitArgs(toks, i + 3, close).length;
    } else n += 1;
  }
  return n;
}

/** `CREATE TABLE [IF NOT EXISTS] [db.]name`: index of the name's last token, or -1. */
function tableNameEnd(toks: Token[]): number {
  const t = toks.findIndex((x) => isWord(x, 'TABLE'));
  if (t < 0) return -1;
  let n = t + 1;
  if (isWord(toks[n], 'IF') && isWord(toks[n + 1], 'NOT') && isWord(toks[n + 2], 'EXISTS')) n += 3;
  if (!isName(toks[n])) return -1;
  return isPunct(toks[n + 1], '.') && isName(toks[n + 2]) ? n + 2 : n;
}

function distributed(ctx: Ctx, toks: Token[], engineIdx: number, close: number, args: Token[][], originalEngine: string): void {
  const { sql } = ctx;
  const nameEnd = tableNameEnd(toks);
  if (nameEnd < 0) return;
  // The head ends after the name, its UUID and ON CLUSTER; what follows up to ENGINE (a column
  // list or `AS other`) goes, since an Alias always has exactly the columns of its target.
  let h = nameEnd;
  if (isWord(toks[h + 1], 'UUID') && toks[h + 2]?.kind === 'string') h += 2;
  if (onClusterAt(toks, h + 1) >= 0) h += 3;
  const dropped = text(sql, toks.slice(h + 1, engineIdx));
  if (h + 1 < engineIdx) ctx.edits.push({ start: toks[h]!.end, end: toks[engineIdx]!.start, text: ' ' });

  const local = `${text(sql, args[1]!)}, ${text(sql, args[2]!)}`;
  const plain = (a: Token[]) => (a.length === 1 ? unquote(a[0]!) : text(sql, a));
  const localName = `${plain(args[1]!)}.${plain(args[2]!)}`;
  ctx.edits.push({ start: toks[engineIdx]!.start, end: toks[close]!.end, text: `ENGINE = Alias(${local})` });
  // Distributed settings, then the table COMMENT (kept, behind the marker).
  const commentIdx = toks.findIndex((x, k) => k > close && isWord(x, 'COMMENT') && toks[k + 1]?.kind === 'string');
  const tailEnd = commentIdx >= 0 ? commentIdx : toks.length;
  const droppedTail = text(sql, toks.slice(close + 1, tailEnd));
  if (droppedTail) ctx.edits.push({ start: toks[close]!.end, end: toks[tailEnd - 1]!.end, text: '' });
  const userComment = commentIdx >= 0 ? unquote(toks[commentIdx + 1]!) : '';
  const marker = quoteString(`${DISTRIBUTED_MARKER}${oneLine(originalEngine)}${userComment ? `; ${userComment}` : ''}`);
  if (commentIdx >= 0) ctx.edits.push({ start: toks[commentIdx + 1]!.start, end: toks[commentIdx + 1]!.end, text: marker });
  else ctx.edits.push({ start: toks[toks.length - 1]!.end, end: toks[toks.length - 1]!.end, text: ` COMMENT ${marker}` });
  ctx.notices.push(
    `${oneLine(originalEngine)} -> Alias(${local}): on a one-node cluster a Distributed table reads and writes the local table ${localName}, and so does this alias, with inserts written at once (as distributed_foreground_insert = 1 would)` +
      (args[3] ? `; the sharding key ${text(sql, args[3])} has no effect with one shard` : '') +
      (dropped ? `; ${oneLine(dropped)} removed, the alias always has the columns of ${localName}` : '') +
      (droppedTail ? `; ${oneLine(droppedTail)} removed, they are settings of the Distributed engine` : '') +
      `. ALTER and TRUNCATE on it change only the Distributed table on a cluster, and are skipped here; OPTIMIZE and mutations must name ${localName}`,
  );
}

interface SettingPair {
  key: string;
  value: Token[];
  text: string;
}

interface SettingsClause {
  /** Index of the SETTINGS keyword. */
  at: number;
  /** Index of the clause's last token. */
  last: number;
  pairs: SettingPair[];
}

/** Where a storage definition ends and the statement goes on (the query, a comment, the view's options). */
function endsStorage(toks: Token[], i: number): boolean {
  const t = toks[i];
  return (
    isWord(t, 'AS', 'POPULATE', 'EMPTY') ||
    (isWord(t, 'COMMENT') && toks[i + 1]?.kind === 'string') ||
    (isWord(t, 'DEFINER') && isPunct(toks[i + 1], '=')) ||
    (isWord(t, 'SQL') && isWord(toks[i + 1], 'SECURITY'))
  );
}

/** The storage SETTINGS clause after index from (depth 0, before the query). */
function findSettings(sql: string, toks: Token[], from: number): SettingsClause | undefined {
  let depth = 0;
  for (let i = from; i < toks.length; i++) {
    const t = toks[i]!;
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    if (depth !== 0) continue;
    if (endsStorage(toks, i)) return undefined;
    if (!isWord(t, 'SETTINGS')) continue;
    const pairs: SettingPair[] = [];
    let k = i + 1;
    let last = i;
    while (isName(toks[k]) && isPunct(toks[k + 1], '=')) {
      let j = k + 2;
      let d = 0;
      while (j < toks.length) {
        const x = toks[j]!;
        if (isPunct(x, '(') || isPunct(x, '[')) d++;
        else if (isPunct(x, ')') || isPunct(x, ']')) d--;
        if (d === 0 && (isPunct(x, ',') || (j > k + 2 && endsStorage(toks, j)))) break;
        j++;
      }
      const value = toks.slice(k + 2, j);
      pairs.push({ key: unquote(toks[k]!), value, text: sql.slice(toks[k]!.start, (value[value.length - 1] ?? toks[k + 1]!).end) });
      last = j - 1;
      if (!isPunct(toks[j], ',')) break;
      k = j + 1;
    }
    return { at: i, last, pairs };
  }
  return undefined;
}

/** Rewrites (or adds) the SETTINGS clause after the engine: `add` first, then the kept pairs as written. */
function writeSettings(ctx: Ctx, toks: Token[], close: number, sc: SettingsClause | undefined, add: string[], drop: Set<SettingPair>): void {
  if (!sc && !add.length) return;
  if (sc && !add.length && !drop.size) return;
  if (sc) {
    const kept = sc.pairs.filter((p) => !drop.has(p)).map((p) => p.text);
    const items = [...add, ...kept];
    const start = items.length ? toks[sc.at]!.start : toks[sc.at - 1]!.end;
    ctx.edits.push({ start, end: toks[sc.last]!.end, text: items.length ? `SETTINGS ${items.join(', ')}` : '' });
    return;
  }
  let depth = 0;
  for (let i = close + 1; i < toks.length; i++) {
    const t = toks[i]!;
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    if (depth === 0 && endsStorage(toks, i)) {
      ctx.edits.push({ start: t.start, end: t.start, text: `SETTINGS ${add.join(', ')} ` });
      return;
    }
  }
  const end = toks[toks.length - 1]!.end;
  ctx.edits.push({ start: end, end, text: ` SETTINGS ${add.join(', ')}` });
}

/**
 * The Kafka engine's virtual columns (StorageKafkaUtils::createVirtuals), with their types. On
 * the Null table they are MATERIALIZED columns: the feeder inserts them with
 * insert_allow_materialized_columns = 1, a materialized view that names them reads what was
 * inserted, and `SELECT *` - from the table or in a view's query - leaves them out, as it leaves
 * out ClickHouse's virtual columns (checked in chDB: queue/feeder.test.ts). Ephemeral columns
 * would not do: a view cannot select them. `_raw_message` and `_error` exist only with
 * kafka_handle_error_mode = 'stream', as in ClickHouse.
 */
export const KAFKA_VIRTUAL_COLUMNS: ReadonlyArray<{ name: string; type: string; empty: string; stream?: true }> = [
  { name: '_topic', type: 'LowCardinality(String)', empty: "''" },
  { name: '_key', type: 'String', empty: "''" },
  { name: '_offset', type: 'UInt64', empty: '0' },
  { name: '_partition', type: 'UInt64', empty: '0' },
  { name: '_timestamp', type: 'Nullable(DateTime)', empty: 'NULL' },
  { name: '_timestamp_ms', type: 'Nullable(DateTime64(3))', empty: 'NULL' },
  { name: '_headers.name', type: 'Array(String)', empty: '[]' },
  { name: '_headers.value', type: 'Array(String)', empty: '[]' },
  { name: '_raw_message', type: 'String', empty: "''", stream: true },
  { name: '_error', type: 'String', empty: "''", stream: true },
];

/** kafka_handle_error_mode values (StreamingHandleErrorMode). */
const HANDLE_ERROR_MODES = ['default', 'stream', 'dead_letter_queue'];

/**
 * Kafka settings that have nothing to act on embedded, with why; said in the notice when the
 * table sets them, so nobody tunes them expecting an effect.
 */
const KAFKA_SETTINGS_WITHOUT_EFFECT: Record<string, string> = {
  kafka_poll_max_batch_size: 'the topic log is read in place, a block is one fetch of up to kafka_max_block_size messages',
  kafka_poll_timeout_ms: 'the topic log is read in place, a fetch does not wait',
  kafka_flush_interval_ms: 'messages are inserted as soon as they are in the topic log, a block never waits to fill up',
  kafka_consumer_reschedule_ms: 'the consumer wakes up when the topic log is appended to',
  kafka_commit_every_batch: 'a block is one batch, so offsets are committed after every batch anyway',
  kafka_thread_per_consumer: 'there is one consumer',
  kafka_commit_on_select: 'a SELECT from the Null table reads no messages, so it has nothing to commit',
  kafka_client_id: 'there is no broker to identify to',
  kafka_max_rows_per_message: 'INSERT INTO this table writes to Null, not to the topic',
  kafka_compression_codec: 'INSERT INTO this table writes to Null, not to the topic',
  kafka_compression_level: 'INSERT INTO this table writes to Null, not to the topic',
};

function kafkaTable(ctx: Ctx, toks: Token[], engineIdx: number, args: Token[][], close: number, whole: { start: number; end: number }): void {
  const { sql } = ctx;
  const spec = kafkaSpec(toks, engineIdx, args, close);
  const s = spec.spec.settings;
  checkKafkaSettings(s);
  const columns = columnList(toks, engineIdx);
  const added: string[] = [];
  if (columns) {
    const defs = splitArgs(toks, columns.open, columns.close);
    const declared = new Set<string>();
    for (const def of defs) {
      if (!isName(def[0])) continue;
      declared.add(unquote(def[0]!));
      // registerStorageKafka: only ordinary columns without a default, or ALIAS columns.
      if (def.slice(1).some((t, k) => isWord(t, 'DEFAULT', 'MATERIALIZED', 'EPHEMERAL') && depthAt(def, k + 1) === 0)) {
        throw new ClickHouseError(36, 'BAD_ARGUMENTS', "KafkaEngine doesn't support DEFAULT/MATERIALIZED/EPHEMERAL expressions for columns. See https://clickhouse.com/docs/engines/table-engines/integrations/kafka/#configuration");
      }
    }
    const stream = (s.kafka_handle_error_mode ?? 'default').toLowerCase() === 'stream';
    // A declared column of the same name hides the virtual one, as in ClickHouse.
    for (const v of KAFKA_VIRTUAL_COLUMNS) if ((stream || !v.stream) && !declared.has(v.name)) added.push(v.name);
    const text = added.map((n) => KAFKA_VIRTUAL_COLUMNS.find((v) => v.name === n)!).map((v) => `, \`${v.name}\` ${v.type} MATERIALIZED ${v.empty}`).join('');
    ctx.edits.push({ start: toks[columns.close]!.start, end: toks[columns.close]!.start, text });
  }
  ctx.kafka ??= spec.spec;
  ctx.edits.push({ start: whole.start, end: spec.end, text: 'Null' });
  const unused = Object.keys(KAFKA_SETTINGS_WITHOUT_EFFECT).filter((k) => k in s).map((k) => `${k} has no effect (${KAFKA_SETTINGS_WITHOUT_EFFECT[k]})`);
  const consumers = Number(s.kafka_num_consumers ?? 1);
  if (consumers > 1) unused.push(`kafka_num_consumers = ${consumers}: one consumer reads every partition`);
  if (s.kafka_handle_error_mode?.toLowerCase() === 'dead_letter_queue') unused.push("kafka_handle_error_mode = 'dead_letter_queue': broken messages are skipped and logged, as ClickHouse does when system.dead_letter_queue is not configured");
  ctx.notices.push(
    `${oneLine(sql.slice(whole.start, spec.end))} -> Null: embedded ClickHouse has no Kafka consumer; Loupe's consumer (group ${spec.spec.group}) reads topic ${spec.spec.topics.join(',')} from its topic log and inserts each message into this table once a materialized view is attached, so materialized views on it run unchanged` +
      (added.length ? `; the virtual columns ${added.join(', ')} are MATERIALIZED columns the consumer fills (left out of SELECT *, as virtual columns are)` : columns ? '' : '; without a column list the virtual columns (_topic, _key, _offset, …) are not available') +
      (unused.length ? `; ${unused.join('; ')}` : ''),
  );
}

/** Checks registerStorageKafka makes when the table is created. */
function checkKafkaSettings(s: Record<string, string>): void {
  const bad = (m: string) => new ClickHouseError(36, 'BAD_ARGUMENTS', m);
  if (s.kafka_num_consumers !== undefined && Number(s.kafka_num_consumers) < 1) throw bad('Number of consumers can not be lower than 1');
  if (s.kafka_max_block_size !== undefined && Number(s.kafka_max_block_size) < 1) throw bad('kafka_max_block_size can not be lower than 1');
  if (s.kafka_poll_max_batch_size !== undefined && Number(s.kafka_poll_max_batch_size) < 1) throw bad('kafka_poll_max_batch_size can not be lower than 1');
  const mode = s.kafka_handle_error_mode;
  if (mode !== undefined && !HANDLE_ERROR_MODES.includes(mode.toLowerCase())) throw bad(`Unexpected value of StreamingHandleErrorMode: '${mode}'. Must be one of ['${HANDLE_ERROR_MODES.join("', '")}']`);
}

/** The `( … )` column list of a CREATE TABLE head, before the ENGINE at engineIdx. */
function columnList(toks: Token[], engineIdx: number): { open: number; close: number } | undefined {
  const n = tableNameEnd(toks.slice(0, engineIdx));
  if (n < 0) return undefined;
  for (let k = n + 1; k < engineIdx; k++) {
    if (isWord(toks[k], 'AS')) return undefined;
    if (isPunct(toks[k], '(')) {
      const close = matchingClose(toks, k);
      return close > k && close < engineIdx ? { open: k, close } : undefined;
    }
  }
  return undefined;
}

/** Bracket depth of def[k] within a column definition. */
function depthAt(def: Token[], k: number): number {
  let d = 0;
  for (let j = 0; j < k; j++) {
    if (isPunct(def[j], '(') || isPunct(def[j], '[')) d++;
    else if (isPunct(def[j], ')') || isPunct(def[j], ']')) d--;
  }
  return d;
}

/** Reads Kafka(...) arguments or the kafka_* SETTINGS; returns where the engine clause ends. */
function kafkaSpec(tokens: Token[], engineIdx: number, args: Token[][], close: number): { spec: KafkaQueueSpec; end: number } {
  const settings: Record<string, string> = {};
  // registerStorageKafka's argument order (the deprecated long form included); the fifth,
  // kafka_row_delimiter, is obsolete and ignored there too.
  const positional = [
    'kafka_broker_list', 'kafka_topic_list', 'kafka_group_name', 'kafka_format', '', 'kafka_schema', 'kafka_num_consumers', 'kafka_max_block_size',
    'kafka_skip_broken_messages', 'kafka_commit_every_batch', 'kafka_client_id', 'kafka_poll_timeout_ms', 'kafka_flush_interval_ms',
    'kafka_thread_per_consumer', 'kafka_handle_error_mode', 'kafka_commit_on_select', 'kafka_max_rows_per_message',
  ];
  args.forEach((a, k) => {
    if (positional[k] && a.length === 1) settings[positional[k]!] = unquote(a[0]!);
  });
  let end = tokens[close]!.end;
  if (isWord(tokens[close + 1], 'SETTINGS')) {
    let i = close + 2;
    while (i < tokens.length) {
      const key = tokens[i];
      const eq = tokens[i + 1];
      const val = tokens[i + 2];
      if (!key || key.kind !== 'word' || !eq || eq.text !== '=' || !val) break;
      settings[key.text] = unquote(val);
      end = val.end;
      i += 3;
      if (tokens[i]?.text === ',') i++;
      else break;
    }
  }
  const head = tokens.slice(0, engineIdx);
  const n = tableNameEnd(head);
  const table = n >= 0 ? unquote(head[n]!) : '';
  const database = n >= 2 && isPunct(head[n - 1], '.') ? unquote(head[n - 2]!) : undefined;
  return {
    spec: {
      ...(database ? { database } : {}),
      table,
      brokerList: settings.kafka_broker_list ?? '',
      topics: (settings.kafka_topic_list ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      group: settings.kafka_group_name ?? '',
      format: settings.kafka_format ?? '',
      settings,
    },
    end,
  };
}

/**
 * SYSTEM commands about replicas. On one node there is no replication queue, Keeper session or
 * Keeper metadata, so waiting for, restarting or restoring a replica has nothing to do but check
 * that the table is there and loaded - what SYSTEM WAIT LOADING PARTS does. Returns false for
 * the other SYSTEM commands, which only lose their ON CLUSTER.
 */
function systemStatement(ctx: Ctx, toks: Token[], semicolon: Token | undefined): boolean {
  const words: string[] = [];
  let i = 1;
  while (i < toks.length && toks[i]!.kind === 'word' && !isWord(toks[i], 'ON') && words.length < 3) words.push(toks[i++]!.text.toUpperCase());
  const cmd = words.join(' ');
  const m = /^(SYNC DATABASE REPLICA|SYNC REPLICA|RESTART REPLICA|RESTORE REPLICA)\b/.exec(cmd);
  if (!m) {
    const keeper = keeperOnlySystemCommand(toks);
    if (keeper) throw chErrors.keeper(keeper);
    return false;
  }
  i = 1 + m[1]!.split(' ').length;
  if (onClusterAt(toks, i) >= 0) {
    ctx.notices.push(`ON CLUSTER ${toks[i + 2]!.text} removed: embedded ClickHouse (chDB) is a single node, the statement runs on it alone`);
    i += 3;
  }
  const target = isPunct(toks[i + 1], '.') ? toks.slice(i, i + 3) : toks.slice(i, i + 1);
  const original = oneLine(text(ctx.sql, toks));
  const end = semicolon ?? toks[toks.length - 1]!;
  if (m[1] === 'SYNC DATABASE REPLICA') {
    ctx.edits.push({ start: toks[0]!.start, end: end.end, text: '' });
    ctx.notices.push(`${original} skipped: the database is not replicated on one node (Replicated databases become Atomic), so there is no DDL queue to catch up with`);
    return true;
  }
  const why: Record<string, string> = {
    'SYNC REPLICA': 'one node has no replication queue to wait for, every insert is in the table when it returns',
    'RESTART REPLICA': 'one node has no Keeper session to re-initialise',
    'RESTORE REPLICA': 'one node keeps no Keeper metadata to restore, its local parts are the table',
  };
  const stmt = `SYSTEM WAIT LOADING PARTS ${text(ctx.sql, target)}`;
  ctx.edits.push({ start: toks[0]!.start, end: toks[toks.length - 1]!.end, text: stmt });
  ctx.notices.push(`${original} -> ${stmt}: ${why[m[1]!]}; WAIT LOADING PARTS still fails, as the replica command does, when the table does not exist or is not a MergeTree table`);
  return true;
}

/** `SYSTEM` commands that only make sense with Keeper; answered with a clear error. */
export function keeperOnlySystemCommand(tokens: Token[]): string | undefined {
  if (!isWord(tokens[0], 'SYSTEM')) return undefined;
  const words = tokens.slice(1, 4).map((t) => t.text.toUpperCase()).join(' ');
  const m = /^(DROP REPLICA|DROP DATABASE REPLICA)\b/.exec(words);
  return m ? `SYSTEM ${m[1]}` : undefined;
}

/** A statement that acts on a table which may stand in for a Distributed table. */
export interface TableStatement {
  kind: 'ALTER' | 'TRUNCATE' | 'OPTIMIZE' | 'DELETE' | 'FLUSH DISTRIBUTED';
  database?: string;
  table: string;
  /** ALTER only: whether every command changes the table definition alone (columns, comment, settings). */
  definitionOnly?: boolean;
}

/** The table an ALTER / TRUNCATE / OPTIMIZE / DELETE / SYSTEM FLUSH DISTRIBUTED statement names. */
export function tableStatement(toks: Token[]): TableStatement | undefined {
  const kw = firstKeyword(toks);
  let i: number;
  let kind: TableStatement['kind'];
  if (kw === 'ALTER' && isWord(toks[1], 'TABLE')) [kind, i] = ['ALTER', 2];
  else if (kw === 'OPTIMIZE' && isWord(toks[1], 'TABLE')) [kind, i] = ['OPTIMIZE', 2];
  else if (kw === 'DELETE' && isWord(toks[1], 'FROM')) [kind, i] = ['DELETE', 2];
  else if (kw === 'SYSTEM' && isWord(toks[1], 'FLUSH') && isWord(toks[2], 'DISTRIBUTED')) [kind, i] = ['FLUSH DISTRIBUTED', 3];
  else if (kw === 'TRUNCATE') {
    kind = 'TRUNCATE';
    i = isWord(toks[1], 'TABLE') ? 2 : 1;
    if (isWord(toks[i], 'IF') && isWord(toks[i + 1], 'EXISTS')) i += 2;
    if (isWord(toks[i], 'ALL', 'DATABASE')) return undefined;
  } else return undefined;
  if (!isName(toks[i])) return undefined;
  const qualified = isPunct(toks[i + 1], '.') && isName(toks[i + 2]);
  const st: TableStatement = qualified ? { kind, database: unquote(toks[i]!), table: unquote(toks[i + 2]!) } : { kind, table: unquote(toks[i]!) };
  if (kind === 'ALTER') {
    let k = qualified ? i + 3 : i + 1;
    if (onClusterAt(toks, k) >= 0) k += 3;
    const commands: Token[][] = [[]];
    let depth = 0;
    for (; k < toks.length; k++) {
      const t = toks[k]!;
      if (isPunct(t, '(')) depth++;
      else if (isPunct(t, ')')) depth--;
      if (depth === 0 && isPunct(t, ',')) commands.push([]);
      else if (!isPunct(t, ';')) commands[commands.length - 1]!.push(t);
    }
    const definition = /^(ADD COLUMN|DROP COLUMN|MODIFY COLUMN|RENAME COLUMN|COMMENT COLUMN|CLEAR COMMENT|MODIFY COMMENT|MODIFY SETTING|RESET SETTING)\b/;
    st.definitionOnly = commands.every((c) => definition.test(c.slice(0, 2).map((t) => t.text.toUpperCase()).join(' ')));
  }
  return st;
}

/**
 * What a statement on an alias standing in for a Distributed table does. A Distributed table's
 * ALTER changes its own column list and TRUNCATE drops its queue of pending inserts - neither
 * touches the shards - while the Alias engine would pass both to the local table; so they are
 * no-ops here (the notice says so). OPTIMIZE and mutations are refused by Distributed itself.
 * FLUSH DISTRIBUTED has no queue to flush. `createQuery` is the alias's system.tables.create_table_query.
 */
export function onDistributedAlias(st: TableStatement, createQuery: string): { notice: string } | undefined {
  const marker = createQuery.indexOf(`COMMENT '${DISTRIBUTED_MARKER}`);
  if (marker < 0) return undefined;
  const target = /ENGINE = Alias\('?([^',]*)'?, '?([^')]*)'?\)/.exec(createQuery);
  const local = target ? `${target[1]}.${target[2]}` : 'the local table';
  const name = `${st.database ? `${st.database}.` : ''}${st.table}`;
  const about = `${name} stands in for a Distributed table over ${local} on this single node (an Alias of it)`;
  if (st.kind === 'TRUNCATE') return { notice: `TRUNCATE ${name} skipped: ${about}. On a cluster TRUNCATE of a Distributed table drops only its pending inserts, and the alias has none; TRUNCATE ${local} to empty the data` };
  if (st.kind === 'FLUSH DISTRIBUTED') return { notice: `SYSTEM FLUSH DISTRIBUTED ${name} skipped: ${about}, whose inserts are written at once, so nothing is pending` };
  if (st.kind === 'ALTER' && st.definitionOnly) return { notice: `ALTER TABLE ${name} skipped: ${about}. On a cluster this ALTER changes only the Distributed table's own definition; the alias always has the columns of ${local}, ALTER ${local} to change them` };
  const what = st.kind === 'OPTIMIZE' ? 'Method optimize' : st.kind === 'DELETE' ? 'Lightweight delete' : 'This ALTER';
  throw new ClickHouseError(48, 'NOT_IMPLEMENTED', `${what} is not supported by storage Distributed: ${about}. Run the statement on ${local}`);
}
