/**
 * MySQL's `INSERT … [INTO] t SET a = 1, b = 'x' [ON DUPLICATE KEY UPDATE …]` (and REPLACE … SET),
 * which SQLite does not have: written as `INSERT … INTO t (a, b) VALUES (1, 'x') …`.
 */

const HEAD = /^\s*((?:insert(?:\s+or\s+ignore)?|replace))\s+(?:into\s+)?(`[^`]+`|"[^"]+"|[A-Za-z_][\w$]*)\s+set\s+/i;

/** The statement in VALUES form, or undefined when it is not an INSERT/REPLACE … SET. */
export function rewriteInsertSet(sql: string): string | undefined {
  const head = HEAD.exec(sql);
  if (!head) return undefined;
  const rest = sql.slice(head[0].length);
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  let end = rest.length;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < rest.length && rest[i] !== c; i++) if (rest[i] === '\\' && c !== '`') i++;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === ',') {
      parts.push(rest.slice(from, i));
      from = i + 1;
    } else if (depth === 0 && /o/i.test(c) && /^on\s+duplicate\s+key\s+update\b/i.test(rest.slice(i)) && /\s/.test(rest[i - 1] ?? '')) {
      end = i;
      break;
    }
  }
  parts.push(rest.slice(from, end));
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
