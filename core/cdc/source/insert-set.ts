/**
 * MySQL's `INSERT … [INTO] t SET a = 1, b = 'x' [ON DUPLICATE KEY UPDATE …]` (and REPLACE … SET),
 * which SQLite does not have: written as `INSERT … INTO t (a, b) VALUES (1, 'x') …`.
 */
import { maskQuoted, topLevel, topLevelItems } from './sql-text.js';

const HEAD = /^\s*((?:insert(?:\s+or\s+ignore)?|replace))\s+(?:into\s+)?(`[^`]+`|"[^"]+"|[A-Za-z_][\w$]*)\s+set\s+/i;

/** The statement in VALUES form, or undefined when it is not an INSERT/REPLACE … SET. */
export function rewriteInsertSet(sql: string): string | undefined {
  const head = HEAD.exec(sql);
  if (!head) return undefined;
  const rest = sql.slice(head[0].length);
  // the assignments: split at top-level commas, up to a top-level ON DUPLICATE KEY UPDATE
  const masked = maskQuoted(rest);
  const odku = topLevel(masked).search(/(?<=\s)on\s+duplicate\s+key\s+update\b/i);
  const end = odku < 0 ? rest.length : odku;
  const parts = topLevelItems(masked, 0, end).map(([s, e]) => rest.slice(s, e));
  const cols: string[] = [];
  const values: string[] = [];
  for (const p of parts) {
    const eq = /^\s*(`[^`]+`|"[^"]+"|[A-Za-z_][\w$]*)\s*=(?!=)/.exec(p);
    if (!eq) return undefined;
    cols.push(eq[1]!);
    values.push(p.slice(eq[0].length).trim());
  }
  const tail = rest.slice(end).trim();
  return `${head[1]} INTO ${head[2]} (${cols.join(', ')}) VALUES (${values.join(', ')})${tail ? ` ${tail}` : ''}`;
}
