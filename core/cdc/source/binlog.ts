/**
 * The embedded source's change log: committed transactions appended to `mysql-bin.NNNNNN` files,
 * one JSON line each, addressed like MySQL's binlog by (file, byte position). The first line of
 * each file is a header, so the first transaction's position is above zero as in MySQL (4).
 * Appends reach the OS before a commit returns (write(2)); the file is the source's durability.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseExactJson, stringifyExactJson } from '../../common/exact-json.js';
import { lowerBound } from '../../common/sorted.js';
import type { BinlogPosition, BinlogTransaction, RowChange } from './types.js';

const ROTATE_BYTES = 256 * 1024 * 1024;

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
}

type Stored = Omit<BinlogTransaction, 'file' | 'pos' | 'nextPos'>;

export class Binlog {
  private files: FileIndex[] = [];

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
    const line = Buffer.from(stringifyExactJson(tx) + '\n', 'utf8');
    const pos = f.size;
    fs.writeSync(f.fd, line, 0, line.length, pos);
    f.positions.push(pos);
    f.size += line.length;
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
      const start = f.positions[i]!;
      const end = i + take < f.positions.length ? f.positions[i + take]! : f.size;
      const buf = Buffer.allocUnsafe(end - start);
      fs.readSync(f.fd, buf, 0, buf.length, start);
      let off = 0;
      for (let k = 0; k < take; k++, i++) {
        const p = f.positions[i]!;
        const next = i + 1 < f.positions.length ? f.positions[i + 1]! : f.size;
        // a BIGINT beyond 2^53 in a row image as the bigint it is (exact-integers.ts)
        const tx = parseExactJson(buf.toString('utf8', off, off + (next - p))) as Stored;
        out.push({ ...tx, file: f.name, pos: p, nextPos: next });
        off += next - p;
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
    return { name, fd, positions: [], firstSeq, size: header.length };
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
    return { name, fd, positions, firstSeq, size: pos };
  }
}
