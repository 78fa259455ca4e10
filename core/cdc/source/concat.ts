/**
 * MySQL's CONCAT: NULL when any argument is NULL (MySQL 8.0 manual, String Functions). SQLite's
 * own concat() reads NULL as '' — CONCAT_WS's rule, which SQLite's concat_ws already follows — so
 * `UPDATE t SET note = CONCAT(note, '!')` would turn a NULL into '!' where MySQL leaves it NULL.
 */
import type { Database, SqlValue } from 'sql.js';
import { range, withArities } from './mysql-functions.js';

const asText = (v: SqlValue): string => (typeof v === 'string' ? v : v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : String(v));

export function concat(...args: SqlValue[]): string | null {
  return args.some((a) => a === null) ? null : args.map(asText).join('');
}

/** Registers CONCAT for one to 64 arguments over SQLite's. */
export function registerConcat(db: Database): void {
  for (const fn of withArities(range(1, 64), concat)) db.create_function('concat', fn);
}
