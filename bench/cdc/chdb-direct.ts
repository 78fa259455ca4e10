/**
 * The peer of the CDC benchmarks, as each of them runs it: the messages straight into chDB
 * (session.insert, JSONEachRow, 5000-row blocks), timed from a quiet server, that is once the
 * background merges of earlier runs have ended.
 */
import type { Session } from 'chdb';

/** Messages per insert block, as the seed sink's consumer.override.max.poll.records. */
export const BLOCK_ROWS = 5000;

/** The JSONEachRow bodies of `lines` in blocks of BLOCK_ROWS. */
export function bodiesOf(lines: string[]): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < lines.length; i += BLOCK_ROWS) out.push(Buffer.from(lines.slice(i, i + BLOCK_ROWS).join('\n') + '\n'));
  return out;
}

/** Waits (at most a minute) until a server has no merge running; `query` answers SQL with its text. */
export async function mergesEnded(query: (sql: string) => Promise<string>): Promise<void> {
  for (const until = Date.now() + 60_000; Date.now() < until; ) {
    if (Number((await query('SELECT count() FROM system.merges FORMAT TabSeparated')).trim()) === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `bodies` into `table` one after another; the wall time and the process CPU of the inserts. */
export async function insertDirect(session: Session, table: string, bodies: Buffer[]): Promise<{ ms: number; cpu: NodeJS.CpuUsage }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const b of bodies) await session.insert({ table, values: b, format: 'JSONEachRow', settings: { input_format_skip_unknown_fields: 1 } });
  return { ms: performance.now() - t0, cpu: process.cpuUsage(cpu0) };
}

/** A chDB session's SQL as text, for mergesEnded. */
export const sessionQuery = (session: Session) => async (sql: string) => (await session.queryAsync(sql, { format: 'TabSeparated' })).text();
