/**
 * Cluster DDL → single-node DDL. Embedded ClickHouse is one chDB node without Keeper, so the
 * parts of a statement that need a cluster or Keeper are rewritten to their single-node
 * equivalents, and every rewrite is reported as a notice (never silent):
 *
 * - `ON CLUSTER x` is removed;
 * - `Replicated*MergeTree('/path', '{replica}', args…)` becomes `*MergeTree(args…)`, with
 *   `non_replicated_deduplication_window` added so `insert_deduplication_token` drops a
 *   repeated block exactly as a replicated table does (the sink's exactly-once relies on it);
 * - `KeeperMap('/path'[, limit])` becomes `EmbeddedRocksDB` (the PRIMARY KEY stays);
 * - a `Kafka` queue table becomes a `Null` table of the same columns, which Loupe's consumer
 *   feeds from the topic log (see core/cdc/queue), so materialized views on it work unchanged;
 * - `CREATE DATABASE … ENGINE = Replicated(…)` becomes `Atomic`.
 */
import { isWord, matchingClose, splitArgs, tokenize, unquote, type Token } from './sql-lexer.js';

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

const text = (sql: string, toks: Token[]) => (toks.length ? sql.slice(toks[0]!.start, toks[toks.length - 1]!.end) : '');

export function translateDdl(sql: string, opts: TranslateOptions = { dedupWindow: 1000 }): Translation {
  const tokens = tokenize(sql);
  const edits: Edit[] = [];
  const notices: string[] = [];
  let kafka: KafkaQueueSpec | undefined;

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // ON CLUSTER <name>
    if (isWord(t, 'ON') && isWord(tokens[i + 1], 'CLUSTER') && tokens[i + 2]) {
      const nameTok = tokens[i + 2]!;
      edits.push({ start: t.start, end: nameTok.end, text: '' });
      notices.push(`ON CLUSTER ${nameTok.text} removed: embedded ClickHouse (chDB) is a single node, the statement runs on it alone`);
      i += 2;
      continue;
    }
    if (!isWord(t, 'ENGINE')) continue;
    let e = i + 1;
    if (tokens[e]?.kind === 'punct' && tokens[e]!.text === '=') e++;
    const engineTok = tokens[e];
    if (!engineTok || engineTok.kind !== 'word') continue;
    const hasArgs = tokens[e + 1]?.kind === 'punct' && tokens[e + 1]!.text === '(';
    const close = hasArgs ? matchingClose(tokens, e + 1) : e;
    if (close < 0) continue;
    const args = hasArgs ? splitArgs(tokens, e + 1, close) : [];
    const whole = { start: engineTok.start, end: tokens[close]!.end };
    const originalEngine = sql.slice(whole.start, whole.end);
    const isDatabase = tokens.slice(0, i).some((x) => isWord(x, 'DATABASE')) && !tokens.slice(0, i).some((x) => isWord(x, 'TABLE', 'VIEW', 'DICTIONARY'));

    const rep = /^Replicated(\w*MergeTree)$/i.exec(engineTok.text);
    if (rep) {
      // The first two arguments are the Keeper path and the replica name when given as literals.
      const keeperArgs = args.length >= 2 && args[0]!.length === 1 && args[0]![0]!.kind === 'string' && args[1]!.length === 1 && args[1]![0]!.kind === 'string';
      const rest = keeperArgs ? args.slice(2) : args;
      const engine = `${rep[1]}${hasArgs || rest.length ? `(${rest.map((a) => text(sql, a)).join(', ')})` : ''}`;
      edits.push({ ...whole, text: engine });
      const settingsEdit = ensureDedupSetting(sql, tokens, close + 1, opts.dedupWindow);
      if (settingsEdit) edits.push(settingsEdit);
      notices.push(
        `${originalEngine} -> ${engine}: replication needs Keeper, which embedded ClickHouse does not have` +
          (settingsEdit ? `; added SETTINGS non_replicated_deduplication_window = ${opts.dedupWindow} so insert_deduplication_token drops a repeated insert block as the replicated table would` : ''),
      );
    } else if (/^KeeperMap$/i.test(engineTok.text)) {
      // KeeperMap takes small transactional writes; RocksDB's bulk mode would build an SST file per insert.
      const hasSettings = tokens.slice(close + 1).some((x) => isWord(x, 'SETTINGS'));
      edits.push({ ...whole, text: 'EmbeddedRocksDB' });
      if (!hasSettings) {
        const last = tokens[tokens.length - 1]!;
        const at = last.kind === 'punct' && last.text === ';' ? last.start : last.end;
        edits.push({ start: at, end: at, text: ' SETTINGS optimize_for_bulk_insert = 0' });
      }
      notices.push(
        `${originalEngine} -> EmbeddedRocksDB: KeeperMap stores its rows in Keeper, which embedded ClickHouse does not have; EmbeddedRocksDB keeps them on local disk with the same PRIMARY KEY semantics` +
          (hasSettings ? '' : ' (SETTINGS optimize_for_bulk_insert = 0: row-by-row writes, as KeeperMap takes them)'),
      );
    } else if (/^Kafka$/i.test(engineTok.text)) {
      const spec = kafkaSpec(sql, tokens, i, args, close);
      kafka = spec.spec;
      edits.push({ start: whole.start, end: spec.end, text: 'Null' });
      notices.push(
        `${sql.slice(whole.start, spec.end).replace(/\s+/g, ' ')} -> Null: embedded ClickHouse has no Kafka consumer; Loupe's consumer (group ${kafka.group}) reads topic ${kafka.topics.join(',')} from its topic log and inserts each message into this table, so materialized views on it run unchanged`,
      );
    } else if (isDatabase && /^Replicated$/i.test(engineTok.text)) {
      edits.push({ ...whole, text: 'Atomic' });
      notices.push(`${originalEngine} -> Atomic: the Replicated database engine needs Keeper, which embedded ClickHouse does not have`);
    }
    i = close;
  }

  let out = sql;
  for (const ed of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, ed.start) + ed.text + out.slice(ed.end);
  return { original: sql, sql: out, notices, ...(kafka ? { kafka } : {}) };
}

/** Adds non_replicated_deduplication_window to the table's SETTINGS clause unless already set. */
function ensureDedupSetting(sql: string, tokens: Token[], from: number, window: number): Edit | undefined {
  let depth = 0;
  let insertAt = -1;
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct' && t.text === '(') depth++;
    else if (t.kind === 'punct' && t.text === ')') depth--;
    if (depth !== 0) continue;
    if (isWord(t, 'SETTINGS')) {
      const rest = tokens.slice(i + 1);
      if (rest.some((x) => isWord(x, 'non_replicated_deduplication_window'))) return undefined;
      return { start: t.end, end: t.end, text: ` non_replicated_deduplication_window = ${window},` };
    }
    if (isWord(t, 'COMMENT', 'AS') || (t.kind === 'punct' && t.text === ';')) {
      insertAt = t.start;
      break;
    }
  }
  if (insertAt < 0) {
    const last = tokens[tokens.length - 1];
    const end = last ? last.end : sql.length;
    return { start: end, end, text: ` SETTINGS non_replicated_deduplication_window = ${window}` };
  }
  return { start: insertAt, end: insertAt, text: `SETTINGS non_replicated_deduplication_window = ${window} ` };
}

/** Reads Kafka(...) arguments or the kafka_* SETTINGS; returns where the engine clause ends. */
function kafkaSpec(sql: string, tokens: Token[], engineIdx: number, args: Token[][], close: number): { spec: KafkaQueueSpec; end: number } {
  const settings: Record<string, string> = {};
  const positional = ['kafka_broker_list', 'kafka_topic_list', 'kafka_group_name', 'kafka_format'];
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
  // CREATE TABLE [IF NOT EXISTS] [db.]name
  const head = tokens.slice(0, engineIdx);
  const tIdx = head.findIndex((x) => isWord(x, 'TABLE'));
  let n = tIdx + 1;
  if (isWord(head[n], 'IF') && isWord(head[n + 1], 'NOT') && isWord(head[n + 2], 'EXISTS')) n += 3;
  let database: string | undefined;
  let table = head[n] ? unquote(head[n]!) : '';
  if (head[n + 1]?.text === '.' && head[n + 2]) {
    database = table;
    table = unquote(head[n + 2]!);
  }
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

/** `SYSTEM` commands that only make sense with Keeper; answered with a clear error. */
export function keeperOnlySystemCommand(tokens: Token[]): string | undefined {
  if (!isWord(tokens[0], 'SYSTEM')) return undefined;
  const words = tokens.slice(1, 5).map((t) => t.text.toUpperCase()).join(' ');
  const m = /^(SYNC REPLICA|RESTART REPLICAS?|DROP REPLICA|RESTORE REPLICA|SYNC DATABASE REPLICA|DROP DATABASE REPLICA|START REPLICATION QUEUES|STOP REPLICATION QUEUES|START FETCHES|STOP FETCHES|START REPLICATED SENDS|STOP REPLICATED SENDS|FLUSH DISTRIBUTED|START DISTRIBUTED SENDS|STOP DISTRIBUTED SENDS)\b/.exec(words);
  return m ? `SYSTEM ${m[1]}` : undefined;
}
