/**
 * The embedded topic log: Kafka's storage model on local files.
 *
 *   <dir>/topics.json                     topic configs
 *   <dir>/groups.json                     consumer-group committed offsets (a snapshot)
 *   <dir>/groups.log                      commits since that snapshot, one JSON line each
 *   <dir>/data/<topic>-<p>/<base>.log     segments, one record per line (lineText)
 *   <dir>/data/<topic>-<p>/cleaner-offset-checkpoint   where compaction stopped (Kafka's file of that name)
 *   <dir>/data/<topic>-<p>/<base>.<upper>.swap         a cleaned segment replacing [base, upper), until swapped in
 *   <dir>/txn.wal                         journal of multi-topic writes (begin, undo, end)
 *
 * Like Kafka, appends are written to the OS (write(2)) but not fsynced per record unless
 * `fsync: true`: a killed process loses nothing; a power cut may lose the tail (Kafka relies on
 * replication for that; a single embedded node cannot). A torn last line is truncated on open.
 * The hot paths (a journal per atomic write, a commit per sink batch) only append: replacing a
 * file by rename costs as much as an fsync on ext4 (auto_da_alloc flushes the new data).
 */
import fs from 'node:fs';
import path from 'node:path';
import { readJsonOrBackup, writeFileAtomicSync } from '../../common/json-store.js';
import { lowerBound } from '../../common/sorted.js';
import type { Logger } from '../../common/log.js';
import { silentLogger } from '../../common/log.js';
import { compacts, deletes, parseCleanupPolicy } from './cleanup-policy.js';
import { partitionForKey, StickyPartitioner } from './murmur2.js';
import {
  DEFAULT_TOPIC_CONFIG,
  LogError,
  type AppendListener,
  type FetchOptions,
  type LogHeader,
  type LogRecord,
  type ProduceRecord,
  type ProduceResult,
  type TopicBatch,
  type TopicConfig,
  type TopicDescription,
  type TopicLog,
  type TopicPartitionOffset,
} from './types.js';

export interface EmbeddedLogOptions {
  dir: string;
  /** Config for auto-created topics. */
  defaultTopicConfig?: Partial<TopicConfig>;
  /** Bytes after which a new segment starts (retention deletes whole segments, like Kafka). */
  segmentBytes?: number;
  /** fsync every append (slower; survives power loss). */
  fsync?: boolean;
  /** How often retention runs; 0 disables the timer. */
  retentionCheckMs?: number;
  /**
   * Characters of keys and values appended in this process kept in memory (all partitions
   * together), so a consumer close behind the producer reads them without re-reading and
   * re-parsing the segment. Off (0) by default: on bench:cdc the kept strings cost more in
   * garbage collection (they survive into the old generation) than the parsing they save.
   */
  tailCacheChars?: number;
  now?: () => number;
  log?: Logger;
}

/** Internal topics start with these (Kafka Connect's own topics, Kafka's `__` topics). */
const INTERNAL = /^(__|connect-(offsets|configs|status)$)/;
const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

export interface StoredLine {
  o: number;
  t: number;
  k: string | null;
  v: string | null;
  h?: LogHeader[];
  /** A compacted tombstone's delete horizon (Kafka's batch deleteHorizonMs): it goes in the first cleaning after. */
  d?: number;
}

/** Where a partition ended before an atomic write: its end offset and active segment (base, bytes). */
interface UndoEntry {
  topic: string;
  partition: number;
  end: number;
  segment: number | null;
  size: number;
}

/** A record in an earlier version's redo journal. */
type JournalRecord = StoredLine & { topic: string; partition: number };

class Segment {
  /** Byte position of each record's line. */
  positions: number[] = [];
  /** Offset of each record once the cleaner left gaps; null while record i has offset base + i. */
  offsets: number[] | null = null;
  size = 0;
  /** Kafka's largestTimestamp (time retention); -1 with no record. */
  maxTimestamp = -1;
  /** Timestamp of the first record (Kafka's rollingBasedTimestamp, for segment.ms); -1 with no record. */
  firstTimestamp = -1;
  constructor(
    readonly file: string,
    readonly base: number,
    public fd: number,
  ) {}
  get end(): number {
    const o = this.offsets;
    if (o) return o.length ? o[o.length - 1]! + 1 : this.base;
    return this.base + this.positions.length;
  }
  /** Index of the first record at or after `offset`. */
  indexOf(offset: number): number {
    const o = this.offsets;
    if (!o) return Math.max(0, offset - this.base);
    return lowerBound(o, offset);
  }
  addRecord(pos: number, line: StoredLine): void {
    if (!this.offsets && line.o !== this.base + this.positions.length) this.offsets = this.positions.map((_, i) => this.base + i);
    this.offsets?.push(line.o);
    this.positions.push(pos);
    if (this.firstTimestamp < 0) this.firstTimestamp = line.t;
    if (line.t > this.maxTimestamp) this.maxTimestamp = line.t;
  }
}

/**
 * The newest records appended in this process, as given (offset `base + i` at index `i - skip`):
 * fetch serves them from here; what is fetched is decided from the segment positions as before.
 */
class TailCache {
  base = 0;
  keys: (string | null)[] = [];
  values: (string | null)[] = [];
  timestamps: number[] = [];
  headers: (LogHeader[] | undefined)[] = [];
  chars = 0;
  get end(): number {
    return this.base + this.keys.length;
  }
  /** Adds the next record; returns the change in cached characters. */
  add(line: StoredLine): number {
    let delta = 0;
    if (this.keys.length === 0) this.base = line.o;
    else if (line.o !== this.end) delta -= this.clear(line.o);
    this.keys.push(line.k);
    this.values.push(line.v);
    this.timestamps.push(line.t);
    this.headers.push(line.h);
    const n = charsOf(line.k, line.v);
    this.chars += n;
    return delta + n;
  }
  /** Empties the cache (the next record starts at `base`); returns the characters freed. */
  clear(base = 0): number {
    const freed = this.chars;
    this.base = base;
    this.keys = [];
    this.values = [];
    this.timestamps = [];
    this.headers = [];
    this.chars = 0;
    return freed;
  }
  /** Drops the older half; returns the characters freed. */
  dropOldestHalf(): number {
    const n = this.keys.length >> 1 || this.keys.length;
    let freed = 0;
    for (let i = 0; i < n; i++) freed += charsOf(this.keys[i]!, this.values[i]!);
    this.keys.splice(0, n);
    this.values.splice(0, n);
    this.timestamps.splice(0, n);
    this.headers.splice(0, n);
    this.base += n;
    this.chars -= freed;
    return freed;
  }
}

/** What a cached record counts for: its key and value characters and a fixed overhead. */
function charsOf(k: string | null, v: string | null): number {
  return (k?.length ?? 0) + (v?.length ?? 0) + 40;
}

class PartitionLog {
  segments: Segment[] = [];
  /** Kafka's log start offset: moved by retention, never by compaction. */
  begin = 0;
  /** Where the last compaction stopped (Kafka's cleaner checkpoint): the first dirty offset. */
  cleanedTo = 0;
  tail: TailCache | undefined;
  constructor(
    readonly dir: string,
    readonly topic: string,
    readonly partition: number,
    /** The topic's config, every optional field resolved. */
    readonly config: Required<TopicConfig>,
  ) {}
  get end(): number {
    const last = this.segments[this.segments.length - 1];
    return last ? last.end : this.begin;
  }
}

interface TopicState {
  config: Required<TopicConfig>;
  partitions: PartitionLog[];
  /** Partition of records without a key. */
  sticky: StickyPartitioner;
}

/**
 * Segment size of compacted topics (connect-offsets): the cleaner only cleans closed segments, so
 * they are closed small, as Kafka closes __consumer_offsets at 100 MB instead of 1 GB.
 */
const COMPACTED_SEGMENT_BYTES = 4 * 1024 * 1024;
const CHECKPOINT = 'cleaner-offset-checkpoint';
const SEGMENT_FILE = /^\d{20}\.log$/;
const SWAP_FILE = /^(\d{20})\.(\d{20})\.swap$/;

/** groups.log is folded into groups.json past this size. */
const GROUPS_LOG_BYTES = 4 * 1024 * 1024;
/** txn.wal is started afresh past this size. */
const WAL_BYTES = 64 * 1024 * 1024;

export class EmbeddedLog implements TopicLog {
  readonly kind = 'embedded' as const;
  private readonly topics = new Map<string, TopicState>();
  private groups: Record<string, Record<string, number>> = {};
  private readonly listeners = new Set<AppendListener>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly segmentBytes: number;
  private readonly now: () => number;
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Appended commit lines (groups.log) and journal (txn.wal): descriptors and sizes. */
  private groupsLog: { fd: number; size: number } | undefined;
  private wal: { fd: number; size: number; seq: number } | undefined;
  /** Characters held by all partitions' tail caches, and the budget they share. */
  private tailChars = 0;
  private readonly tailBudget: number;

  private constructor(private readonly opts: EmbeddedLogOptions) {
    this.segmentBytes = opts.segmentBytes ?? 64 * 1024 * 1024;
    this.tailBudget = opts.tailCacheChars ?? 0;
    this.now = opts.now ?? Date.now;
    this.logger = opts.log ?? silentLogger;
  }

  /** Opens (or creates) the log in `opts.dir`, recovering torn writes and a pending atomic batch. */
  static async open(opts: EmbeddedLogOptions): Promise<EmbeddedLog> {
    const log = new EmbeddedLog(opts);
    log.load();
    const every = opts.retentionCheckMs ?? 5 * 60_000;
    if (every > 0) {
      log.timer = setInterval(() => void log.enforceRetention().catch(() => {}), every);
      log.timer.unref();
    }
    return log;
  }

  // ---------------------------------------------------------------------------------- topics

  async createTopic(name: string, config: Partial<TopicConfig> = {}): Promise<boolean> {
    this.assertOpen();
    if (this.topics.has(name)) return false;
    this.addTopic(name, config);
    return true;
  }

  async listTopics(opts: { includeInternal?: boolean } = {}): Promise<string[]> {
    return [...this.topics.keys()].filter((t) => opts.includeInternal || !INTERNAL.test(t)).sort();
  }

  async describeTopic(name: string): Promise<TopicDescription | undefined> {
    const t = this.topics.get(name);
    if (!t) return undefined;
    return {
      name,
      config: { ...t.config, cleanupPolicy: [...t.config.cleanupPolicy] },
      internal: INTERNAL.test(name),
      partitions: t.partitions.map((p) => ({ partition: p.partition, beginOffset: p.begin, endOffset: p.end })),
    };
  }

  async deleteTopic(name: string): Promise<boolean> {
    const t = this.topics.get(name);
    if (!t) return false;
    // Forgotten first, then removed: a kill in between leaves directories that open() removes,
    // never a topic whose first segments are gone.
    this.topics.delete(name);
    this.saveTopics();
    for (const p of t.partitions) {
      if (p.tail) this.tailChars -= p.tail.clear();
      for (const s of p.segments) fs.closeSync(s.fd);
      fs.rmSync(p.dir, { recursive: true, force: true });
    }
    // Kafka's GroupCoordinator.onPartitionsDeleted: the group's offsets for the topic go, and a
    // group left without offsets goes too (Empty → Dead), so a re-created topic starts unread.
    for (const [group, g] of Object.entries(this.groups)) {
      let had = false;
      for (const k of Object.keys(g)) {
        if (k.slice(0, k.lastIndexOf(':')) === name) {
          delete g[k];
          had = true;
        }
      }
      if (had && Object.keys(g).length === 0) delete this.groups[group];
    }
    this.saveGroups();
    return true;
  }

  // -------------------------------------------------------------------------------- produce

  async produce(topic: string, records: ProduceRecord[]): Promise<ProduceResult[]> {
    const [res] = await this.produceAtomic([{ topic, records }]);
    return res!;
  }

  async produceAtomic(batches: TopicBatch[]): Promise<ProduceResult[][]> {
    this.assertOpen();
    // Assign partitions and offsets first, so the journal knows every partition the write touches.
    const planned: { p: PartitionLog; line: StoredLine }[][] = [];
    const nextOffset = new Map<PartitionLog, number>();
    let total = 0;
    let nonEmpty = 0;
    const now = this.now();
    for (const b of batches) {
      const t = this.topics.get(b.topic) ?? this.addTopic(b.topic, {});
      const rows: { p: PartitionLog; line: StoredLine }[] = [];
      const { maxMessageBytes, messageTimestampType } = t.config;
      const compacted = compacts(t.config.cleanupPolicy);
      const appendTime = messageTimestampType === 'LogAppendTime';
      for (const r of b.records) {
        const pIdx = this.choosePartition(t, b.topic, r);
        const p = t.partitions[pIdx]!;
        // Refused before anything is written, so the whole write fails as Kafka fails the batch.
        if (r.key === null && compacted) {
          throw new LogError(`Compacted topic cannot accept message without key in topic partition ${b.topic}-${pIdx}.`, 'INVALID_RECORD');
        }
        if (r.timestamp !== undefined && r.timestamp < 0) throw new LogError(`Invalid timestamp: ${r.timestamp}. Timestamp should always be non-negative or null.`, 'INVALID_REQUEST');
        const size = roughRecordBytes(r);
        if (size * 3 + 64 > maxMessageBytes) {
          const exact = recordBatchBytes(r);
          if (exact > maxMessageBytes) {
            throw new LogError(`The record batch size in the append to ${b.topic}-${pIdx} is ${exact} bytes which exceeds the maximum configured value of ${maxMessageBytes}.`, 'RECORD_TOO_LARGE');
          }
        }
        const o = nextOffset.get(p) ?? p.end;
        nextOffset.set(p, o + 1);
        const line: StoredLine = { o, t: appendTime ? now : (r.timestamp ?? now), k: r.key, v: r.value };
        if (r.headers && r.headers.length) line.h = r.headers;
        rows.push({ p, line });
      }
      planned.push(rows);
      total += rows.length;
      if (rows.length) nonEmpty++;
    }
    const multi = nonEmpty > 1 || nextOffset.size > 1;
    const seq = multi && total > 0 ? this.journalBegin(nextOffset.keys()) : 0;
    for (const rows of planned) this.appendPlanned(rows);
    if (seq) this.journalEnd(seq);
    this.notify(nextOffset);
    return planned.map((rows) => rows.map(({ p, line }) => ({ topic: p.topic, partition: p.partition, offset: line.o })));
  }

  // ---------------------------------------------------------------------------------- fetch

  async fetch(topic: string, partition: number, offset: number, opts: FetchOptions = {}): Promise<LogRecord[]> {
    this.assertOpen();
    const p = this.partitionOf(topic, partition);
    const out: LogRecord[] = [];
    for (const { s, i0, i1 } of this.planFetch(p, offset, opts)) {
      const tail = p.tail;
      if (tail && !s.offsets && s.base + i0 >= tail.base && s.base + i1 <= tail.end) {
        // the same records, as they were appended
        for (let o = s.base + i0, j = o - tail.base; o < s.base + i1; o++, j++) {
          const h = tail.headers[j];
          out.push({ topic, partition, offset: o, key: tail.keys[j]!, value: tail.values[j]!, headers: h ? h.map((x) => ({ ...x })) : [], timestamp: tail.timestamps[j]! });
        }
      } else parseStoredLines(topic, partition, this.readRange(s, i0, i1).toString('utf8'), out);
    }
    return out;
  }

  /**
   * The records `fetch` would return, as the stored lines themselves (one buffer per segment
   * read; `parseStoredLines` turns them into records): for a consumer in another thread, which
   * parses them there instead of on the thread that owns the log.
   */
  async fetchStored(topic: string, partition: number, offset: number, opts: FetchOptions = {}): Promise<Buffer[]> {
    this.assertOpen();
    const p = this.partitionOf(topic, partition);
    return this.planFetch(p, offset, opts).map(({ s, i0, i1 }) => this.readRange(s, i0, i1));
  }

  /** Which records of which segments a fetch from `offset` returns: index ranges [i0, i1) per segment. */
  private planFetch(p: PartitionLog, offset: number, opts: FetchOptions): { s: Segment; i0: number; i1: number }[] {
    const maxRecords = opts.maxRecords ?? 500;
    const maxBytes = opts.maxBytes ?? 1024 * 1024;
    if (opts.outOfRange === 'error' && (offset < p.begin || offset > p.end)) {
      // the consumer's OffsetOutOfRangeException with auto.offset.reset=none
      throw new LogError(`Offsets out of range with no configured reset policy for partitions: {${p.topic}-${p.partition}=${offset}}`, 'OFFSET_OUT_OF_RANGE');
    }
    let from = Math.max(offset, p.begin);
    const plan: { s: Segment; i0: number; i1: number }[] = [];
    let count = 0;
    let bytes = 0;
    for (const s of p.segments) {
      if (from >= s.end || !s.positions.length) continue; // compaction can leave a segment empty
      if (count >= maxRecords) break;
      const i0 = s.indexOf(from);
      let i1 = i0;
      // Stop at the record that would cross maxBytes, but always return at least one record.
      while (i1 < s.positions.length && count + (i1 - i0) < maxRecords) {
        const len = (i1 + 1 < s.positions.length ? s.positions[i1 + 1]! : s.size) - s.positions[i1]!;
        if (bytes + len > maxBytes && (count > 0 || i1 > i0)) break;
        bytes += len;
        i1++;
      }
      if (i1 === i0) break;
      plan.push({ s, i0, i1 });
      count += i1 - i0;
      from = s.end;
      // stopped inside this segment (maxRecords or maxBytes): the next segment must not be read from here
      if (bytes >= maxBytes || i1 < s.positions.length) break;
    }
    return plan;
  }

  /** The stored lines of records [i0, i1) of a segment. */
  private readRange(s: Segment, i0: number, i1: number): Buffer {
    const start = s.positions[i0]!;
    const stop = i1 < s.positions.length ? s.positions[i1]! : s.size;
    const buf = Buffer.allocUnsafe(stop - start);
    fs.readSync(s.fd, buf, 0, buf.length, start);
    return buf;
  }

  async offsets(topic: string, partition: number): Promise<{ begin: number; end: number }> {
    const p = this.partitionOf(topic, partition);
    return { begin: p.begin, end: p.end };
  }

  waitForData(topic: string, partition: number, offset: number, timeoutMs: number): Promise<boolean> {
    const t = this.topics.get(topic);
    const p = t?.partitions[partition];
    if (p && p.end > offset) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    const key = `${topic}:${partition}`;
    return new Promise((resolve) => {
      let set = this.waiters.get(key);
      if (!set) this.waiters.set(key, (set = new Set()));
      const done = (value: boolean) => {
        clearTimeout(timer);
        set!.delete(wake);
        resolve(value);
      };
      const wake = () => {
        const cur = this.topics.get(topic)?.partitions[partition];
        if (this.closed) done(false);
        else if (cur && cur.end > offset) done(true);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      set.add(wake);
    });
  }

  onAppend(listener: AppendListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // -------------------------------------------------------------------------------- groups

  async commitOffsets(group: string, offsets: TopicPartitionOffset[]): Promise<void> {
    this.assertOpen();
    const g = (this.groups[group] ??= {});
    for (const o of offsets) {
      if (!Number.isInteger(o.offset) || o.offset < 0) throw new LogError(`invalid offset ${o.offset} for ${o.topic}-${o.partition}`, 'INVALID_REQUEST');
      g[`${o.topic}:${o.partition}`] = o.offset;
    }
    this.saveGroups({ group, offsets: { ...g } });
  }

  async committedOffsets(group: string): Promise<TopicPartitionOffset[]> {
    const g = this.groups[group] ?? {};
    return Object.entries(g).map(([k, offset]) => {
      const i = k.lastIndexOf(':');
      return { topic: k.slice(0, i), partition: Number(k.slice(i + 1)), offset };
    });
  }

  async listGroups(): Promise<string[]> {
    return Object.keys(this.groups).sort();
  }

  async deleteGroup(group: string): Promise<boolean> {
    if (!(group in this.groups)) return false;
    delete this.groups[group];
    this.saveGroups({ group, offsets: null });
    return true;
  }

  // ----------------------------------------------------------------------------- retention

  /**
   * The log cleaner on topics whose cleanup.policy has `compact`, then retention
   * (UnifiedLog.deleteOldSegments) on those whose policy has `delete`; `compact,delete` gets both,
   * in that order, as Kafka's cleaner thread runs deleteOldSegments on the compacted logs after
   * each cleaning (LogCleaner.cleanFilthiestLog, LogCleanerManager.deletableLogs).
   */
  async enforceRetention(): Promise<void> {
    if (this.closed) return;
    const now = this.now();
    for (const t of this.topics.values()) {
      const { cleanupPolicy } = t.config;
      for (const p of t.partitions) {
        if (compacts(cleanupPolicy)) this.clean(p, now);
        if (deletes(cleanupPolicy)) this.deleteOldSegments(p, now);
      }
    }
  }

  /**
   * retention.bytes first, then retention.ms, as UnifiedLog: oldest segments go while what
   * remains is still at least retention.bytes, and while their largest timestamp is more than
   * retention.ms old. The active segment is no exception (an idle topic empties): it is replaced
   * by an empty one at the log end offset, so offsets go on. Only a last segment that is empty
   * stays. The log start offset moves to the first segment left.
   */
  private deleteOldSegments(p: PartitionLog, now: number): void {
    const { retentionBytes, retentionMs } = p.config;
    const segs = p.segments;
    const deletable = (i: number) => !(i === segs.length - 1 && segs[i]!.size === 0);
    let n = 0;
    if (retentionBytes >= 0) {
      let diff = segs.reduce((sum, s) => sum + s.size, 0) - retentionBytes;
      while (n < segs.length && deletable(n) && diff - segs[n]!.size >= 0) diff -= segs[n++]!.size;
    }
    if (retentionMs >= 0) while (n < segs.length && deletable(n) && now - segs[n]!.maxTimestamp > retentionMs) n++;
    if (!n) return;
    if (n === segs.length) this.rollSegment(p);
    for (const s of segs.splice(0, n)) {
      fs.closeSync(s.fd);
      fs.rmSync(s.file, { force: true });
      this.logger.debug('retention deleted segment', { topic: p.topic, partition: p.partition, base: s.base });
    }
    p.begin = Math.max(p.begin, segs[0]!.base);
  }

  /**
   * Kafka's log cleaner (LogCleanerManager.cleanableOffsets, Cleaner.doClean). The dirty part
   * runs from the checkpoint to the active segment (or the first segment with records younger
   * than min.compaction.lag.ms); once its share of those bytes exceeds min.cleanable.dirty.ratio,
   * the newest offset of each key in it is collected and every closed segment up to it is
   * rewritten without the records a later one of the same key supersedes. Offsets are kept
   * (fetch skips the gaps), the log start offset stays. A tombstone kept gets a delete horizon of
   * now + delete.retention.ms and goes in the first cleaning after it. Each rewritten group of
   * segments is swapped in as Kafka does (.cleaned, renamed .swap, old segments deleted, renamed
   * .log), so a kill at any point leaves the old segments or the new one.
   */
  private clean(p: PartitionLog, now: number): void {
    const segs = p.segments;
    if (segs.length < 2) return;
    const { minCompactionLagMs, minCleanableDirtyRatio, deleteRetentionMs, segmentBytes } = p.config;
    let firstDirty = p.cleanedTo;
    if (firstDirty < p.begin || firstDirty > p.end) firstDirty = p.begin;
    let uncleanable = segs[segs.length - 1]!.base;
    if (minCompactionLagMs > 0) {
      const young = segs.find((s, i) => i < segs.length - 1 && s.end > firstDirty && s.maxTimestamp > now - minCompactionLagMs);
      if (young) uncleanable = Math.min(uncleanable, young.base);
    }
    uncleanable = Math.max(firstDirty, uncleanable);
    let cleanBytes = 0;
    let dirtyBytes = 0;
    for (const s of segs) {
      if (s.base >= uncleanable) break;
      if (s.end <= firstDirty) cleanBytes += s.size;
      else dirtyBytes += s.size;
    }
    if (dirtyBytes === 0 || dirtyBytes / (cleanBytes + dirtyBytes) <= minCleanableDirtyRatio) return;

    const newest = new Map<string, number>();
    let latest = -1;
    for (const s of segs) {
      if (s.base >= uncleanable) break;
      if (s.end <= firstDirty) continue;
      for (const line of this.storedLines(s)) {
        if (line.o < firstDirty || line.o >= uncleanable) continue;
        if (line.k !== null) newest.set(line.k, line.o);
        latest = line.o;
      }
    }
    if (latest < 0) return;
    const endOffset = latest + 1;

    // Cleaner.groupSegmentsBySize: consecutive segments below endOffset, together at most segment.bytes
    const groups: Segment[][] = [];
    for (let i = 0; i < segs.length - 1 && segs[i]!.base < endOffset; ) {
      const group = [segs[i++]!];
      let size = group[0]!.size;
      while (i < segs.length - 1 && segs[i]!.base < endOffset && size + segs[i]!.size <= segmentBytes) {
        size += segs[i]!.size;
        group.push(segs[i++]!);
      }
      groups.push(group);
    }
    let records = 0;
    let kept = 0;
    for (const group of groups) {
      const out: string[] = [];
      for (const s of group) {
        for (const line of this.storedLines(s)) {
          records++;
          const retain =
            line.o > latest || (line.k !== null && line.o >= (newest.get(line.k) ?? -1) && (line.v !== null || line.d === undefined || now < line.d));
          if (!retain) continue;
          if (line.v === null && line.d === undefined) line.d = now + deleteRetentionMs;
          out.push(JSON.stringify(line) + '\n');
          kept++;
        }
      }
      const first = group[0]!;
      const upper = segs[segs.indexOf(group[group.length - 1]!) + 1]!.base;
      const replaced = this.swapIn(p, group, out.join(''), upper);
      segs.splice(segs.indexOf(first), group.length, replaced);
    }
    p.cleanedTo = endOffset;
    writeFileAtomicSync(path.join(p.dir, CHECKPOINT), `${endOffset}\n`);
    this.logger.debug('compacted', { topic: p.topic, partition: p.partition, records, kept });
  }

  /** Replaces the segments of `group` (offsets below `upper`) by one segment of `text`. */
  private swapIn(p: PartitionLog, group: Segment[], text: string, upper: number): Segment {
    const base = group[0]!.base;
    const cleaned = path.join(p.dir, `${pad(base)}.cleaned`);
    fs.writeFileSync(cleaned, text);
    if (this.opts.fsync) fsyncFile(cleaned);
    const swap = path.join(p.dir, `${pad(base)}.${pad(upper)}.swap`);
    fs.renameSync(cleaned, swap);
    for (const s of group) {
      fs.closeSync(s.fd);
      fs.rmSync(s.file, { force: true });
    }
    const file = path.join(p.dir, `${pad(base)}.log`);
    fs.renameSync(swap, file);
    return this.readSegment(file, base);
  }

  /** Every record line of a segment, parsed. */
  private storedLines(s: Segment): StoredLine[] {
    if (!s.positions.length) return [];
    const out: StoredLine[] = [];
    for (const line of this.readRange(s, 0, s.positions.length).toString('utf8').split('\n')) if (line) out.push(parseLine(line));
    return out;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    for (const set of this.waiters.values()) for (const w of [...set]) w();
    this.waiters.clear();
    for (const t of this.topics.values()) for (const p of t.partitions) for (const s of p.segments) fs.closeSync(s.fd);
    if (this.groupsLog) fs.closeSync(this.groupsLog.fd);
    if (this.wal) fs.closeSync(this.wal.fd);
    this.groupsLog = this.wal = undefined;
    this.listeners.clear();
  }

  // ------------------------------------------------------------------------------ internals

  private assertOpen(): void {
    if (this.closed) throw new LogError('the log is closed', 'CLOSED');
  }

  private partitionOf(topic: string, partition: number): PartitionLog {
    const t = this.topics.get(topic);
    const p = t?.partitions[partition];
    if (!p) throw new LogError(`This server does not host this topic-partition: ${topic}-${partition}`, 'UNKNOWN_TOPIC_OR_PARTITION');
    return p;
  }

  private choosePartition(t: TopicState, topic: string, r: ProduceRecord): number {
    const n = t.partitions.length;
    if (r.partition !== undefined) {
      if (!Number.isInteger(r.partition) || r.partition < 0 || r.partition >= n) {
        throw new LogError(`Invalid partition given with record: ${r.partition} is not in the range [0...${n}].`, 'UNKNOWN_TOPIC_OR_PARTITION');
      }
      return r.partition;
    }
    if (n === 1) return 0; // what any key hashes to
    if (r.key !== null) return partitionForKey(r.key, n);
    void topic;
    return t.sticky.partition(n, roughRecordBytes(r));
  }

  private addTopic(name: string, config: Partial<TopicConfig>): TopicState {
    if (!TOPIC_NAME.test(name) || name === '.' || name === '..') {
      throw new LogError(`Invalid topic name "${name}": legal characters are ASCII alphanumerics, '.', '_' and '-', at most 249`, 'INVALID_REQUEST');
    }
    const merged = this.resolveConfig({ ...this.opts.defaultTopicConfig, ...stripUndefined(config) });
    validateConfig(merged);
    const state: TopicState = { config: merged, partitions: [], sticky: new StickyPartitioner() };
    for (let i = 0; i < merged.partitions; i++) {
      const dir = path.join(this.opts.dir, 'data', `${name}-${i}`);
      // a directory left by a deleted topic of the same name holds none of this topic's records
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      state.partitions.push(this.newPartition(dir, name, i, merged));
    }
    this.topics.set(name, state);
    this.saveTopics();
    return state;
  }

  /**
   * Every field set: what is given, else Kafka's default, else (segment.bytes) this log's. The
   * cleanup policy becomes its list (topics.json of earlier versions holds `"delete"` or
   * `"compact"`, read as Kafka reads a one-item list); a bad one is refused with Kafka's text.
   */
  private resolveConfig(config: Partial<TopicConfig>): Required<TopicConfig> {
    const merged = { ...DEFAULT_TOPIC_CONFIG, ...config } as Required<TopicConfig>;
    if (!Number.isInteger(merged.partitions) || merged.partitions < 1) merged.partitions = DEFAULT_TOPIC_CONFIG.partitions;
    merged.cleanupPolicy = parseCleanupPolicy(merged.cleanupPolicy);
    merged.segmentBytes ??= compacts(merged.cleanupPolicy) ? Math.min(this.segmentBytes, COMPACTED_SEGMENT_BYTES) : this.segmentBytes;
    return merged;
  }

  private newPartition(dir: string, topic: string, partition: number, config: Required<TopicConfig>): PartitionLog {
    const p = new PartitionLog(dir, topic, partition, config);
    if (this.tailBudget > 0) p.tail = new TailCache();
    return p;
  }

  private appendPlanned(rows: { p: PartitionLog; line: StoredLine }[]): void {
    // Group consecutive lines per partition into one write each.
    const byPart = new Map<PartitionLog, { line: StoredLine }[]>();
    for (const row of rows) {
      let arr = byPart.get(row.p);
      if (!arr) byPart.set(row.p, (arr = []));
      arr.push(row);
    }
    for (const [p, lines] of byPart) this.appendLines(p, lines);
  }

  private appendLines(p: PartitionLog, lines: { line: StoredLine }[]): void {
    let chunks: string[] = [];
    let seg = this.activeSegment(p);
    let pending = 0;
    const flush = () => {
      if (!chunks.length) return;
      const buf = Buffer.from(chunks.join(''), 'utf8');
      fs.writeSync(seg.fd, buf, 0, buf.length, seg.size);
      if (this.opts.fsync) fs.fsyncSync(seg.fd);
      seg.size += buf.length;
      chunks = [];
      pending = 0;
    };
    const { segmentBytes, segmentMs } = p.config;
    for (const { line } of lines) {
      const text = lineText(line) + '\n';
      const len = Buffer.byteLength(text);
      // LogSegment.shouldRoll: the record would take the segment past segment.bytes, or the
      // segment's records would span more than segment.ms
      if (seg.positions.length > 0 && (seg.size + pending > segmentBytes - len || line.t - seg.firstTimestamp > segmentMs)) {
        flush();
        seg = this.rollSegment(p);
      }
      seg.addRecord(seg.size + pending, line);
      if (p.tail) this.tailChars += p.tail.add(line);
      pending += len;
      chunks.push(text);
    }
    flush();
    this.trimTails();
  }

  /** Keeps the tail caches within their shared budget: the largest gives up its older half first. */
  private trimTails(): void {
    while (this.tailChars > this.tailBudget) {
      let largest: TailCache | undefined;
      for (const t of this.topics.values()) for (const q of t.partitions) if (q.tail && (!largest || q.tail.chars > largest.chars)) largest = q.tail;
      if (!largest || largest.chars === 0) break;
      this.tailChars -= largest.dropOldestHalf();
    }
  }

  private activeSegment(p: PartitionLog): Segment {
    return p.segments[p.segments.length - 1] ?? this.rollSegment(p);
  }

  private rollSegment(p: PartitionLog): Segment {
    const base = p.end;
    const file = path.join(p.dir, `${pad(base)}.log`);
    const fd = fs.openSync(file, 'a+');
    const seg = new Segment(file, base, fd);
    p.segments.push(seg);
    return seg;
  }

  private notify(ends: Map<PartitionLog, number>): void {
    for (const [p] of ends) {
      const end = p.end;
      for (const l of this.listeners) {
        try {
          l(p.topic, p.partition, end);
        } catch (err) {
          this.logger.warn('append listener failed', { error: (err as Error).message });
        }
      }
      const set = this.waiters.get(`${p.topic}:${p.partition}`);
      if (set) for (const w of [...set]) w();
    }
  }

  private saveTopics(): void {
    const out: Record<string, TopicConfig> = {};
    for (const [n, t] of this.topics) out[n] = t.config;
    writeFileAtomicSync(path.join(this.opts.dir, 'topics.json'), JSON.stringify(out, null, 2) + '\n');
  }

  /**
   * Committed offsets change with every sink batch: written whole and renamed into place (atomic
   * for a killed process), fsynced only with `fsync: true`, like the segments.
   */
  private saveGroups(changed?: { group: string; offsets: Record<string, number> | null }): void {
    if (!changed) return this.snapshotGroups();
    const line = Buffer.from(JSON.stringify(changed) + '\n');
    if (!this.groupsLog || this.groupsLog.size + line.length > GROUPS_LOG_BYTES) {
      this.snapshotGroups();
      const fd = fs.openSync(path.join(this.opts.dir, 'groups.log'), 'a');
      this.groupsLog = { fd, size: 0 };
    }
    fs.writeSync(this.groupsLog.fd, line);
    this.groupsLog.size += line.length;
    if (this.opts.fsync) fs.fsyncSync(this.groupsLog.fd);
  }

  /** All groups written whole (atomic rename), then the commit lines it includes removed. */
  private snapshotGroups(): void {
    writeFileAtomicSync(path.join(this.opts.dir, 'groups.json'), JSON.stringify(this.groups) + '\n');
    if (this.groupsLog) fs.closeSync(this.groupsLog.fd);
    this.groupsLog = undefined;
    // Replaying lines already in the snapshot gives the same state, so a crash between the two is harmless.
    fs.rmSync(path.join(this.opts.dir, 'groups.log'), { force: true });
  }

  /**
   * Starts one atomic write in the journal: a begin line and an undo line saying where each
   * partition it touches ends now (offset, active segment and its size). The records go straight
   * to their segments; an end line closes the write. After a crash, a write without its end line
   * is rolled back on open (each partition truncated to where the undo line says), so a write is
   * whole or absent, and the journal never copies the data. The file is started afresh when it
   * grows large (unlinked, never truncated or replaced).
   */
  private journalBegin(parts: Iterable<PartitionLog>): number {
    const file = path.join(this.opts.dir, 'txn.wal');
    if (this.wal && this.wal.size > WAL_BYTES) {
      fs.closeSync(this.wal.fd);
      fs.rmSync(file, { force: true });
      this.wal = undefined;
    }
    this.wal ??= { fd: fs.openSync(file, 'a'), size: 0, seq: 0 };
    const seq = ++this.wal.seq;
    const undo: UndoEntry[] = [];
    for (const p of parts) {
      const seg = p.segments[p.segments.length - 1];
      undo.push({ topic: p.topic, partition: p.partition, end: p.end, segment: seg ? seg.base : null, size: seg ? seg.size : 0 });
    }
    this.journalWrite(`${JSON.stringify({ begin: seq })}\n${JSON.stringify({ undo })}\n`);
    return seq;
  }

  private journalEnd(seq: number): void {
    this.journalWrite(JSON.stringify({ end: seq }) + '\n');
  }

  private journalWrite(text: string): void {
    const buf = Buffer.from(text);
    fs.writeSync(this.wal!.fd, buf);
    this.wal!.size += buf.length;
    if (this.opts.fsync) fs.fsyncSync(this.wal!.fd);
  }

  private load(): void {
    fs.mkdirSync(path.join(this.opts.dir, 'data'), { recursive: true });
    const unfinished = this.readJournal();
    if (unfinished.kind === 'undo') this.rollBack(unfinished.entries);
    const topics = readJsonOrBackup<Record<string, TopicConfig>>(path.join(this.opts.dir, 'topics.json'));
    if (topics.kind === 'corrupt') this.logger.error('topics.json was corrupt; kept a backup', { backup: topics.backup });
    if (topics.kind === 'ok') {
      for (const [name, config] of Object.entries(topics.value)) {
        const state: TopicState = { config: this.resolveConfig(config), partitions: [], sticky: new StickyPartitioner() };
        for (let i = 0; i < state.config.partitions; i++) {
          const dir = path.join(this.opts.dir, 'data', `${name}-${i}`);
          fs.mkdirSync(dir, { recursive: true });
          const p = this.newPartition(dir, name, i, state.config);
          this.loadPartition(p);
          state.partitions.push(p);
        }
        this.topics.set(name, state);
      }
    }
    const groups = readJsonOrBackup<Record<string, Record<string, number>>>(path.join(this.opts.dir, 'groups.json'));
    if (groups.kind === 'ok') this.groups = groups.value;
    if (groups.kind === 'corrupt') this.logger.error('groups.json was corrupt; kept a backup', { backup: groups.backup });
    this.replayGroupsLog();
    if (unfinished.kind === 'redo') this.replayJournal(unfinished.entries);
    fs.rmSync(path.join(this.opts.dir, 'txn.wal'), { force: true });
    this.removeOrphans();
    // what an earlier run left to clean
    for (const t of this.topics.values()) if (compacts(t.config.cleanupPolicy)) for (const p of t.partitions) this.clean(p, this.now());
  }

  private loadPartition(p: PartitionLog): void {
    const names = fs.readdirSync(p.dir);
    // Kafka's LogLoader: a .cleaned file was never swapped in; a .swap file was complete, and
    // replaces whatever of the segments it covers the kill left.
    for (const f of names) if (f.endsWith('.cleaned')) fs.rmSync(path.join(p.dir, f), { force: true });
    for (const f of names) {
      const m = SWAP_FILE.exec(f);
      if (!m) continue;
      const base = Number(m[1]);
      const upper = Number(m[2]);
      for (const g of names) if (SEGMENT_FILE.test(g) && Number(g.slice(0, 20)) >= base && Number(g.slice(0, 20)) < upper) fs.rmSync(path.join(p.dir, g), { force: true });
      fs.renameSync(path.join(p.dir, f), path.join(p.dir, `${m[1]}.log`));
      this.logger.warn('completing a compaction interrupted by a crash', { topic: p.topic, partition: p.partition, base });
    }
    const files = fs
      .readdirSync(p.dir)
      .filter((f) => SEGMENT_FILE.test(f))
      .sort();
    for (const f of files) p.segments.push(this.readSegment(path.join(p.dir, f), Number(f.slice(0, 20))));
    p.begin = p.segments[0]?.base ?? 0;
    const checkpoint = path.join(p.dir, CHECKPOINT);
    p.cleanedTo = fs.existsSync(checkpoint) ? Number(fs.readFileSync(checkpoint, 'utf8').trim()) || 0 : p.begin;
  }

  /** A segment file's records; a torn last line (a write the kill interrupted) is cut off. */
  private readSegment(file: string, base: number): Segment {
    const seg = new Segment(file, base, fs.openSync(file, 'r+'));
    const buf = fs.readFileSync(file);
    let pos = 0;
    let expected = seg.base;
    while (pos < buf.length) {
      const nl = buf.indexOf(10, pos);
      if (nl < 0) break; // torn tail
      let line: StoredLine;
      try {
        line = parseLine(buf.toString('utf8', pos, nl));
      } catch {
        break;
      }
      // offsets only grow; compaction leaves gaps
      if (typeof line.o !== 'number' || line.o < expected) break;
      seg.addRecord(pos, line);
      expected = line.o + 1;
      pos = nl + 1;
    }
    if (pos < buf.length) {
      this.logger.warn('truncating a torn write at the end of a segment', { file, at: pos, size: buf.length });
      fs.ftruncateSync(seg.fd, pos);
    }
    seg.size = pos;
    return seg;
  }

  /** Partition directories of no topic: a topic deleted by a process killed before it removed them. */
  private removeOrphans(): void {
    const known = new Set<string>();
    for (const [name, t] of this.topics) for (let i = 0; i < t.partitions.length; i++) known.add(`${name}-${i}`);
    const data = path.join(this.opts.dir, 'data');
    for (const d of fs.readdirSync(data)) {
      if (known.has(d)) continue;
      this.logger.warn('removing the data of a deleted topic', { dir: d });
      fs.rmSync(path.join(data, d), { recursive: true, force: true });
    }
  }

  /** Commit lines after the last groups.json snapshot (a torn last line never completed). */
  private replayGroupsLog(): void {
    const file = path.join(this.opts.dir, 'groups.log');
    if (!fs.existsSync(file)) return;
    for (const l of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!l) continue;
      let c: { group: string; offsets: Record<string, number> | null };
      try {
        c = JSON.parse(l) as typeof c;
      } catch {
        break;
      }
      if (c.offsets === null) delete this.groups[c.group];
      else this.groups[c.group] = c.offsets;
    }
    this.snapshotGroups();
  }

  /**
   * What the journal says after a crash. Only its last write can be unfinished (writes are
   * sequential and the journal is removed on open). Two layouts:
   * - undo (this version): begin, undo, end lines around segment appends; a write without its
   *   end line is rolled back;
   * - redo (earlier versions): the records themselves, between begin and end lines or (older
   *   still) as the whole file; the last complete write is finished, one torn before its end
   *   line never reached a segment.
   */
  private readJournal(): { kind: 'none' } | { kind: 'undo'; entries: UndoEntry[] } | { kind: 'redo'; entries: JournalRecord[] } {
    const wal = path.join(this.opts.dir, 'txn.wal');
    if (!fs.existsSync(wal)) return { kind: 'none' };
    const lines = fs.readFileSync(wal, 'utf8').split('\n');
    type Line = JournalRecord & { begin?: number; end?: number; undo?: UndoEntry[] };
    let last: JournalRecord[] = [];
    let cur: JournalRecord[] | null = null;
    let undo: UndoEntry[] | null = null;
    let framed = false;
    for (const l of lines) {
      if (!l) continue;
      let r: Line;
      try {
        r = JSON.parse(l) as Line;
      } catch {
        break; // torn tail
      }
      if (r.begin !== undefined) {
        framed = true;
        cur = [];
        undo = null;
      } else if (r.undo !== undefined) {
        undo = r.undo;
      } else if (r.end !== undefined) {
        if (cur) last = cur;
        cur = null;
        undo = null;
      } else if (cur) cur.push(r);
      else if (!framed) last.push(r);
    }
    if (cur && undo) return { kind: 'undo', entries: undo };
    return last.length ? { kind: 'redo', entries: last } : { kind: 'none' };
  }

  /** Undoes an unfinished atomic write: each partition back to where it ended before the write. */
  private rollBack(entries: UndoEntry[]): void {
    let cut = 0;
    for (const u of entries) {
      const dir = path.join(this.opts.dir, 'data', `${u.topic}-${u.partition}`);
      if (!fs.existsSync(dir)) continue;
      for (const f of fs.readdirSync(dir).filter((n) => /^\d{20}\.log$/.test(n))) {
        const base = Number(f.slice(0, 20));
        const file = path.join(dir, f);
        if (base === u.segment) {
          const size = fs.statSync(file).size;
          if (size > u.size) {
            fs.truncateSync(file, u.size);
            cut += size - u.size;
          }
        } else if (base >= u.end && (u.segment === null || base > u.segment)) {
          // a segment the write rolled to
          cut += fs.statSync(file).size;
          fs.rmSync(file, { force: true });
        }
      }
    }
    if (cut) this.logger.warn('rolling back an atomic write interrupted by a crash', { bytes: cut, partitions: entries.length });
  }

  /** Finishes the last complete write of an earlier version's redo journal (records already appended are skipped). */
  private replayJournal(last: JournalRecord[]): void {
    const rows: { p: PartitionLog; line: StoredLine }[] = [];
    for (const r of last) {
      const t = this.topics.get(r.topic) ?? this.addTopic(r.topic, {});
      const p = t.partitions[r.partition];
      if (!p) continue;
      if (r.o < p.end) continue;
      rows.push({ p, line: { o: r.o, t: r.t, k: r.k, v: r.v, ...(r.h ? { h: r.h } : {}) } });
    }
    if (rows.length) this.logger.warn('completing an atomic write interrupted by a crash', { records: rows.length });
    this.appendPlanned(rows);
  }
}

/** Records from stored lines (as `fetchStored` returns them), appended to `out`. */
export function parseStoredLines(topic: string, partition: number, text: string, out: LogRecord[]): void {
  for (const line of text.split('\n')) if (line) out.push(parseStoredLine(topic, partition, line));
}

/** The record of one non-empty stored line. */
export function parseStoredLine(topic: string, partition: number, line: string): LogRecord {
  const l = parseLine(line);
  return { topic, partition, offset: l.o, key: l.k, value: l.v, headers: l.h ?? [], timestamp: l.t };
}

/** A text a segment line can carry as it is: no line break, and well-formed UTF-16. */
const plainText = (s: string) => !s.includes('\n') && s.isWellFormed();

/**
 * A segment line: `<offset> <timestamp> <key length>[ <headers JSON>]`, a tab, then the key and
 * the value as they are, back to back (a null key has length -1). Keys and values are mostly the
 * JSON converter's text, which a JSON field would escape on every write and unescape on every read;
 * a header parsed with JSON.parse cost more than the value itself (1.1 µs a record on bench:cdc).
 *
 * Lines whose value is null, whose key or value holds a line break (the line's end) or a lone
 * surrogate (which UTF-8 cannot carry), or whose offset or timestamp is not a safe integer are
 * written as JSON: JSON.stringify(line) with the fields in the order o, t, k, v, h, as every line
 * of the first version was (and compaction still writes them, with a tombstone's horizon `d`).
 * The second version wrote `{"o","t","k","h"}`, a tab, then the value; all three are read.
 */
export function lineText(line: StoredLine): string {
  const { o, t, k, v, h } = line;
  if (v === null || typeof v !== 'string' || line.d !== undefined || !Number.isSafeInteger(o) || !Number.isSafeInteger(t) || (k !== null && (typeof k !== 'string' || !plainText(k))) || !plainText(v)) {
    return JSON.stringify(line);
  }
  const head = `${o} ${t} ${k === null ? -1 : k.length}`;
  return `${h?.length ? `${head} ${JSON.stringify(h)}` : head}\t${k ?? ''}${v}`;
}

const notALine = (text: string) => new SyntaxError(`not a segment line: ${text.slice(0, 60)}`);

/** The integer whose decimal digits (and a leading minus) are text[from, to). */
function integerAt(text: string, from: number, to: number): number {
  const negative = text.charCodeAt(from) === 45;
  let i = negative ? from + 1 : from;
  if (i >= to) throw notALine(text);
  let n = 0;
  for (; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) throw notALine(text);
    n = n * 10 + d;
  }
  return negative ? -n : n;
}

/** A segment line read back (any form of `lineText`). JSON holds no raw tab, so the first one ends the head. */
export function parseLine(text: string): StoredLine {
  const tab = text.indexOf('\t');
  if (tab < 0) return JSON.parse(text) as StoredLine;
  if (text.charCodeAt(0) === 123) {
    // `{"o","t","k","h"}` then the value
    const l = JSON.parse(text.slice(0, tab)) as StoredLine;
    l.v = text.slice(tab + 1);
    return l;
  }
  const s1 = text.indexOf(' ');
  const s2 = s1 < 0 ? -1 : text.indexOf(' ', s1 + 1);
  if (s2 < 0 || s2 > tab) throw notALine(text);
  let s3 = text.indexOf(' ', s2 + 1);
  if (s3 < 0 || s3 > tab) s3 = tab;
  const klen = integerAt(text, s2 + 1, s3);
  const at = tab + 1 + (klen < 0 ? 0 : klen);
  const line: StoredLine = { o: integerAt(text, 0, s1), t: integerAt(text, s1 + 1, s2), k: klen < 0 ? null : text.slice(tab + 1, at), v: text.slice(at) };
  if (s3 < tab) line.h = JSON.parse(text.slice(s3 + 1, tab)) as LogHeader[];
  return line;
}

function pad(offset: number): string {
  return String(offset).padStart(20, '0');
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Characters of a record's key, value and headers: a cheap lower bound of its bytes. */
function roughRecordBytes(r: ProduceRecord): number {
  let n = (r.key?.length ?? 0) + (r.value?.length ?? 0);
  if (r.headers) for (const h of r.headers) n += h.key.length + (h.value?.length ?? 0);
  return n;
}

function varintBytes(n: number): number {
  let z = n < 0 ? -2 * n - 1 : 2 * n; // zigzag, as Kafka's ByteUtils.sizeOfVarint
  let bytes = 1;
  while (z >= 0x80) {
    z = Math.floor(z / 128);
    bytes++;
  }
  return bytes;
}

/** The record's size as Kafka counts it against max.message.bytes: a v2 batch holding it alone, uncompressed. */
function recordBatchBytes(r: ProduceRecord): number {
  const field = (s: string | null) => (s === null ? varintBytes(-1) : varintBytes(Buffer.byteLength(s)) + Buffer.byteLength(s));
  let body = 1 + varintBytes(0) + varintBytes(0) + field(r.key) + field(r.value) + varintBytes(r.headers?.length ?? 0);
  for (const h of r.headers ?? []) body += field(h.key) + field(h.value);
  return 61 + varintBytes(body) + body; // DefaultRecordBatch.RECORD_BATCH_OVERHEAD
}

/** Kafka's ConfigDef checks of the topic configs that mean something here (cleanup.policy: parseCleanupPolicy, in resolveConfig). */
function validateConfig(c: Required<TopicConfig>): void {
  const atLeast = (name: string, v: number, min: number) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min) throw new LogError(`Invalid value ${v} for configuration ${name}: Value must be at least ${min}`, 'INVALID_REQUEST');
  };
  atLeast('retention.ms', c.retentionMs, -1);
  atLeast('segment.bytes', c.segmentBytes, 14);
  atLeast('segment.ms', c.segmentMs, 1);
  atLeast('max.message.bytes', c.maxMessageBytes, 0);
  atLeast('min.compaction.lag.ms', c.minCompactionLagMs, 0);
  atLeast('delete.retention.ms', c.deleteRetentionMs, 0);
  atLeast('min.insync.replicas', c.minInsyncReplicas, 1);
  atLeast('min.cleanable.dirty.ratio', c.minCleanableDirtyRatio, 0);
  if (c.minCleanableDirtyRatio > 1) throw new LogError(`Invalid value ${c.minCleanableDirtyRatio} for configuration min.cleanable.dirty.ratio: Value must be no more than 1`, 'INVALID_REQUEST');
  if (c.messageTimestampType !== 'CreateTime' && c.messageTimestampType !== 'LogAppendTime') {
    throw new LogError(`Invalid value ${String(c.messageTimestampType)} for configuration message.timestamp.type: String must be one of: CreateTime, LogAppendTime`, 'INVALID_REQUEST');
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
