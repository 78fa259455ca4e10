/**
 * The embedded source's change log: committed transactions appended to `mysql-bin.NNNNNN` files,
 * one JSON line each, addressed like MySQL's binlog by (file, byte position). The first line of
 * each file is a header, so the first transaction's position is above zero as in MySQL (4).
 * Appends reach the OS before a commit returns (write(2)); the file is the source's durability.
 */
import fs from 'node:fs';
import path from 'node:path';
import { mayHoldUnsafeInteger, parseExactJson, stringifyExactJson } from '../../common/exact-json.js';
import { lowerBound } from '../../common/sorted.js';
import type { BinlogPosition, BinlogTransaction, RowChange } from './types.js';

const ROTATE_BYTES = 256 * 1024 * 1024;
/** Row events of the newest transactions kept parsed (the recent cache), at most. */
const RECENT_EVENTS = 300_000;

/**
 * Whether a transaction reads back from its JSON line as the very object it is, so that the
 * object may stand for the line: no schema change (its definitions may hold what JSON drops),
 * no integer the parser would make a bigint of (or a bigint it would make a number of), rowids
 * that are numbers, and row values that are strings, finite numbers other than -0 (which JSON
 * writes as 0), booleans or null.
 */
function readsBackAsItself(tx: Stored, line: string): boolean {
  if (tx.ddl || mayHoldUnsafeInteger(line)) return false;
  const plain = (row: Record<string, unknown> | null) => {
    if (row === null) return true;
    for (const k in row) {
      const v = row[k];
      const t = typeof v;
      if (v === null || t === 'string' || t === 'boolean') continue;
      if (t !== 'number' || (v === 0 && 1 / (v as number) < 0) || !Number.isFinite(v)) return false;
    }
    return true;
  };
  for (const list of [tx.events, tx.cascaded ?? []]) {
    for (const ev of list) if (typeof ev.rowid !== 'number' || !plain(ev.before) || !plain(ev.after)) return false;
  }
  return true;
}

/**
 * A transaction's row changes in the order they were made: its row events with the rows that
 * cascading foreign key actions changed (which have no row events) in their places.
 */
export function rowChangesMade(tx: Pick<BinlogTransaction, 'events' | 'cascaded'>): RowChange[] {
  if (!tx.cascaded?.length) return tx.events;
  const changes: RowChange[] = [...tx.events];
  for (const c of [...tx.cascaded].reverse()) changes.splice(c.at, 0, c);
  return changes;
}

interface FileIndex {
  name: string;
  fd: number;
  /** Start position of each transaction line. */
  positions: number[];
  /** Global sequence of the first transaction in this file. */
  firstSeq: number;
  size: number;
  /** Transactions kept parsed, by position (see Binlog.recent). */
  recent: Map<number, Stored>;
}

type Stored = Omit<BinlogTransaction, 'file' | 'pos' | 'nextPos'>;

export class Binlog {
  private files: FileIndex[] = [];
  /**
   * The newest transactions as the objects that were appended, oldest first, up to RECENT_EVENTS
   * row events: a reader that keeps up (a connector streaming) gets them without parsing their
   * lines again, which was most of reading the log. Only those that read back as themselves are
   * kept (readsBackAsItself); readers get the same objects, which no reader changes.
   */
  private readonly recentOrder: { file: FileIndex; pos: number; events: number }[] = [];
  private recentEvents = 0;

  constructor(
    private readonly dir: string,
    private readonly serverUuid: string,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    const names = fs
      .readdirSync(dir)
      .filter((f) => /^mysql-bin\.\d{6}$/.test(f))
      .sort();
    let seq = 1;
    for (const name of names) {
      const idx = this.load(name, seq);
      seq = idx.firstSeq + idx.positions.length;
      this.files.push(idx);
    }
    if (this.files.length === 0) this.files.push(this.create(1, 1));
  }

  get nextSeq(): number {
    const f = this.current();
    return f.firstSeq + f.positions.length;
  }

  /** Where the next transaction will start. */
  position(): BinlogPosition {
    const f = this.current();
    return { file: f.name, pos: f.size };
  }

  /** MySQL's gtid_executed shape for one server: `uuid:1-N` (empty before the first commit). */
  gtidSet(): string {
    const last = this.nextSeq - 1;
    return last > 0 ? `${this.serverUuid}:1-${last}` : '';
  }

  append(tx: Stored): BinlogTransaction {
    let f = this.current();
    if (f.size > ROTATE_BYTES) {
      f = this.create(this.files.length + 1, this.nextSeq);
      this.files.push(f);
    }
    // a BIGINT beyond 2^53 in a row image is a bigint: written as its digits
    const text = stringifyExactJson(tx);
    const line = Buffer.from(text + '\n', 'utf8');
    const pos = f.size;
    fs.writeSync(f.fd, line, 0, line.length, pos);
    f.positions.push(pos);
    f.size += line.length;
    if (readsBackAsItself(tx, text)) this.keepRecent(f, pos, tx);
    return { ...tx, file: f.name, pos, nextPos: f.size };
  }

  /**
   * Transactions starting at or after `from`. A position inside a transaction line is rounded up
   * to the next transaction; an unknown file starts from the oldest file kept.
   */
  read(from: BinlogPosition, max: number): BinlogTransaction[] {
    const out: BinlogTransaction[] = [];
    let fi = this.files.findIndex((f) => f.name === from.file);
    let pos = from.pos;
    if (fi < 0) {
      fi = 0;
      pos = 0;
    }
    for (; fi < this.files.length && out.length < max; fi++, pos = 0) {
      const f = this.files[fi]!;
      let i = lowerBound(f.positions, pos);
      if (i >= f.positions.length) continue;
      const take = Math.min(f.positions.length - i, max - out.length);
      const end = i + take < f.positions.length ? f.positions[i + take]! : f.size;
      // read from the file from the first transaction not kept parsed on, when there is one
      let buf: Buffer | undefined;
      let bufStart = 0;
      for (let k = 0; k < take; k++, i++) {
        const p = f.positions[i]!;
        const next = i + 1 < f.positions.length ? f.positions[i + 1]! : f.size;
        const kept = f.recent.get(p);
        if (kept) {
          out.push({ ...kept, file: f.name, pos: p, nextPos: next });
          continue;
        }
        if (!buf) {
          bufStart = p;
          buf = Buffer.allocUnsafe(end - p);
          fs.readSync(f.fd, buf, 0, buf.length, p);
        }
        // a BIGINT beyond 2^53 in a row image as the bigint it is (exact-integers.ts)
        const tx = parseExactJson(buf.toString('utf8', p - bufStart, next - bufStart)) as Stored;
        out.push({ ...tx, file: f.name, pos: p, nextPos: next });
      }
    }
    return out;
  }

  /** True when a transaction starts at or after `from`. */
  hasAfter(from: BinlogPosition): boolean {
    const fi = this.files.findIndex((f) => f.name === from.file);
    if (fi < 0) return this.files.some((f) => f.positions.length > 0);
    if (fi < this.files.length - 1) return true;
    const f = this.files[fi]!;
    return f.positions.length > 0 && f.positions[f.positions.length - 1]! >= from.pos;
  }

  close(): void {
    for (const f of this.files) fs.closeSync(f.fd);
    this.files = [];
    this.recentOrder.length = 0;
    this.recentEvents = 0;
  }

  private keepRecent(f: FileIndex, pos: number, tx: Stored): void {
    const events = tx.events.length + (tx.cascaded?.length ?? 0) + 1;
    f.recent.set(pos, tx);
    this.recentOrder.push({ file: f, pos, events });
    this.recentEvents += events;
    let drop = 0;
    while (this.recentEvents > RECENT_EVENTS && drop < this.recentOrder.length - 1) {
      const old = this.recentOrder[drop++]!;
      old.file.recent.delete(old.pos);
      this.recentEvents -= old.events;
    }
    if (drop) this.recentOrder.splice(0, drop);
  }

  private current(): FileIndex {
    return this.files[this.files.length - 1]!;
  }

  private create(n: number, firstSeq: number): FileIndex {
    const name = `mysql-bin.${String(n).padStart(6, '0')}`;
    const file = path.join(this.dir, name);
    const header = Buffer.from(JSON.stringify({ format: 'loupe-binlog', version: 1, server_uuid: this.serverUuid, first_seq: firstSeq }) + '\n');
    const fd = fs.openSync(file, 'w+');
    fs.writeSync(fd, header, 0, header.length, 0);
    return { name, fd, positions: [], firstSeq, size: header.length, recent: new Map() };
  }

  private load(name: string, expectedSeq: number): FileIndex {
    const file = path.join(this.dir, name);
    const buf = fs.readFileSync(file);
    const fd = fs.openSync(file, 'r+');
    const firstNl = buf.indexOf(10);
    let firstSeq = expectedSeq;
    try {
      firstSeq = (JSON.parse(buf.toString('utf8', 0, firstNl)) as { first_seq: number }).first_seq ?? expectedSeq;
    } catch {
      /* keep expected */
    }
    const positions: number[] = [];
    let pos = firstNl + 1;
    // A line is written whole with its newline; only a line without one can be torn.
    while (pos < buf.length) {
      const nl = buf.indexOf(10, pos);
      if (nl < 0) break;
      positions.push(pos);
      pos = nl + 1;
    }
    if (pos < buf.length) fs.ftruncateSync(fd, pos); // a torn last write never committed
    return { name, fd, positions, firstSeq, size: pos, recent: new Map() };
  }
}
