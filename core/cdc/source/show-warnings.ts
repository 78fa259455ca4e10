/**
 * SHOW WARNINGS, SHOW ERRORS and their COUNT(*) forms (MySQL 8.0 Reference Manual, "SHOW
 * WARNINGS"): the previous statement's diagnostics, in the columns Level, Code, Message. Errors
 * end the script that raised them (the embedded source runs a script as one session and stops at
 * the first error), so the statement before a SHOW ERRORS never failed and it lists nothing.
 */
import type { Diagnostics } from './diagnostics.js';
import { mysqlErrors } from './mysql-error.js';

/** Statements that read the diagnostics area and so leave it as it is. */
export const READS_DIAGNOSTICS = /^\s*(?:show\s+(?:warnings|errors|count\s*\(\s*\*\s*\)\s+(?:warnings|errors))\b|select\s+@@(?:session\.)?(?:warning|error)_count(?:\s*,\s*@@(?:session\.)?(?:warning|error)_count)*\s*;?\s*$)/i;

const SHOW = /^\s*show\s+(?:(warnings|errors)(?:\s+limit\s+(?:(\d+)\s*,\s*)?(\d+))?|count\s*\(\s*\*\s*\)\s+(warnings|errors))\s*;?\s*$/i;

/** The rows a SHOW WARNINGS / SHOW ERRORS statement shows, or undefined when `sql` is none. */
export function showDiagnostics(sql: string, previous: Diagnostics): { columns: string[]; rows: unknown[][] } | undefined {
  if (!/^\s*show\s+(?:warnings|errors|count)\b/i.test(sql)) return undefined;
  const m = SHOW.exec(sql);
  if (!m) throw mysqlErrors.syntax(sql.trim().slice(0, 80));
  if (m[4]) {
    const warnings = m[4].toLowerCase() === 'warnings';
    return { columns: [`@@session.${warnings ? 'warning' : 'error'}_count`], rows: [[warnings ? previous.count : 0]] };
  }
  const listed = m[1]!.toLowerCase() === 'warnings' ? previous.conditions : [];
  const offset = Number(m[2] ?? 0);
  const limit = m[3] === undefined ? listed.length : Number(m[3]);
  return { columns: ['Level', 'Code', 'Message'], rows: listed.slice(offset, offset + limit).map((c) => [c.level, c.code, c.message]) };
}
