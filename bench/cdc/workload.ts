/**
 * The benchmark's change workload against the source table `demo.customers`: transactions of
 * multi-row statements with 60 % inserts, 30 % updates and 10 % deletes (counted in changed
 * rows), on ids chosen by a seeded PRNG. Tracks the source state it leads to, so the target
 * can be checked row for row afterwards.
 */
import { seededRandom } from '../bench-util.js';

export interface ChangeTx {
  sql: string;
  changes: number;
  /** Ids this transaction inserted (ascending). */
  inserted: number[];
}

export class Workload {
  readonly live = new Map<number, string>();
  private ids: number[] = [];
  private nextId = 1_000_000;
  private readonly rand: () => number;
  private txNo = 0;

  constructor(seed = 7) {
    this.rand = seededRandom(seed);
  }

  /** One transaction of `size` changes (at least 10), in the 60/30/10 proportions. */
  next(size: number): ChangeTx {
    const tx = ++this.txNo;
    const inserts = Math.round(size * 0.6);
    let updates = Math.round(size * 0.3);
    let deletes = size - inserts - updates;
    const stmts: string[] = ['BEGIN'];
    const values: string[] = [];
    const inserted: number[] = [];
    for (let i = 0; i < inserts; i++) {
      const id = this.nextId++;
      const name = `c${id}-${tx}`;
      values.push(`(${id}, '${name}')`);
      inserted.push(id);
      this.live.set(id, name);
      this.ids.push(id);
    }
    stmts.push(`INSERT INTO customers (id, name) VALUES ${values.join(', ')}`);
    updates = Math.min(updates, this.ids.length);
    const upd = this.pickDistinct(updates);
    if (upd.length) {
      const name = `u${tx}`;
      stmts.push(`UPDATE customers SET name = '${name}' WHERE id IN (${upd.join(', ')})`);
      for (const id of upd) this.live.set(id, name);
    }
    deletes = Math.min(deletes, this.ids.length);
    const del = this.pickDistinct(deletes);
    if (del.length) {
      stmts.push(`DELETE FROM customers WHERE id IN (${del.join(', ')})`);
      const gone = new Set(del);
      for (const id of del) this.live.delete(id);
      this.ids = this.ids.filter((id) => !gone.has(id));
    }
    stmts.push('COMMIT');
    return { sql: stmts.join(';\n'), changes: inserts + upd.length + del.length, inserted };
  }

  private pickDistinct(n: number): number[] {
    const out = new Set<number>();
    while (out.size < n && out.size < this.ids.length) out.add(this.ids[Math.floor(this.rand() * this.ids.length)]!);
    return [...out];
  }
}
