/**
 * MySQL operators SQLite does not have, as SQLite: `~x` and `a ^ b` (bit inversion and XOR on
 * BIGINT UNSIGNED) and `a XOR b` (logical XOR) as calls of the connection's functions
 * (bitwise.ts), `a <=> b` (NULL-safe equal) as SQLite's IS, and `LIKE BINARY 'pattern'` (a
 * case-sensitive LIKE) as GLOB. Each is looked for with a plain text test first, so a statement
 * without them is not parsed.
 */
import { warn } from './diagnostics.js';
import { rewriteBitOperators } from './bit-operators.js';
import { booleanEnd, booleanStart, endsOperand, rewriteOperators, textOf, unaryEnd, unaryStart } from './operator-spans.js';
import type { Token } from './sql-tokens.js';
import { replaceOutsideQuotes } from './sql-text.js';

const isOp = (tok: Token, op: string) => tok.kind === 'op' && tok.text === op;

/** `~x` as loupe_bitnot(x). */
function rewriteBitNot(sql: string): string {
  return rewriteOperators(
    sql,
    (tok) => isOp(tok, '~'),
    (text, t, k) => {
      const to = unaryEnd(t, k + 1);
      return to < 0 ? undefined : { from: k, to, text: `loupe_bitnot(${textOf(text, t, k + 1, to)})` };
    },
  );
}

/** `a ^ b` as loupe_bitxor(a, b), left to right. */
function rewriteBitXor(sql: string): string {
  return rewriteOperators(
    sql,
    (tok) => isOp(tok, '^'),
    (text, t, k) => {
      const from = k > 0 ? unaryStart(t, k - 1) : -1;
      const to = unaryEnd(t, k + 1);
      return from < 0 || to < 0 ? undefined : { from, to, text: `loupe_bitxor(${textOf(text, t, from, k - 1)}, ${textOf(text, t, k + 1, to)})` };
    },
  );
}

/** `a XOR b` as loupe_xor(a, b): AND and NOT bind tighter, OR looser. */
function rewriteXor(sql: string): string {
  return rewriteOperators(
    sql,
    (tok) => tok.kind === 'word' && tok.text.toUpperCase() === 'XOR',
    (text, t, k) => {
      const from = k > 0 ? booleanStart(t, k - 1) : -1;
      const to = booleanEnd(t, k + 1);
      return from < 0 || to < 0 ? undefined : { from, to, text: `loupe_xor(${textOf(text, t, from, k - 1)}, ${textOf(text, t, k + 1, to)})` };
    },
  );
}

/**
 * `a <=> b`: where both sides are a name or a literal, `coalesce(a = b, a IS NULL AND b IS NULL)`,
 * which keeps `a = b` for the steps that read DECIMAL columns as numbers where they are compared
 * (column-comparisons.ts); otherwise SQLite's IS, which is the same test.
 */
function rewriteNullSafeEqual(sql: string): string {
  return rewriteOperators(
    sql,
    (tok) => isOp(tok, '<=>'),
    (text, t, k) => {
      const simple = (i: number) => t[i] && (t[i]!.kind === 'number' || t[i]!.kind === 'string' || t[i]!.kind === 'name' || t[i]!.kind === 'word');
      let from = k - 1;
      while (from >= 2 && t[from - 1]!.text === '.' && simple(from - 2)) from -= 2;
      let to = k + 1;
      while (t[to + 1]?.text === '.' && simple(to + 2)) to += 2;
      const before = t[from - 1];
      const after = t[to + 1];
      const bounded = (tok: Token | undefined) => !tok || tok.kind === 'comma' || tok.kind === 'open' || tok.kind === 'close' || (tok.kind === 'word' && !endsOperand(tok) && !/^(?:collate|binary|escape)$/i.test(tok.text));
      if (simple(from) && simple(to) && unaryEnd(t, k + 1) === to && bounded(before) && bounded(after) && after?.kind !== 'open') {
        const a = textOf(text, t, from, k - 1);
        const b = textOf(text, t, k + 1, to);
        return { from, to, text: `coalesce(${a} = ${b}, ${a} IS NULL AND ${b} IS NULL)` };
      }
      return { from: k, to: k, text: ' IS ' };
    },
  );
}

/** MySQL's LIKE pattern (% _ and \ escapes) as a GLOB pattern. */
function globOf(like: string): string {
  let out = '';
  for (let i = 0; i < like.length; i++) {
    const c = like[i]!;
    if (c === '\\' && i + 1 < like.length) {
      const n = like[++i]!;
      out += n === '*' || n === '?' || n === '[' ? `[${n}]` : n;
    } else if (c === '%') out += '*';
    else if (c === '_') out += '?';
    else if (c === '*' || c === '?' || c === '[') out += `[${c}]`;
    else out += c;
  }
  return out;
}

/** `LIKE BINARY 'pattern'` as `GLOB 'pattern'` (the pattern a string literal; MySQL reads backslash escapes in it first). */
function rewriteLikeBinary(sql: string): string {
  return replaceOutsideQuotes(sql, /\blike\s+binary\s+'((?:[^'\\]|\\.|'')*)'/gi, (_m, body: string) => {
    const literal = body.replace(/''/g, "'").replace(/\\(.)/gs, (_e, c: string) => (c === '%' || c === '_' || c === '\\' ? `\\${c}` : c === 'n' ? '\n' : c === 't' ? '\t' : c === '0' ? '\0' : c));
    return `GLOB '${globOf(literal).replace(/'/g, "''")}'`;
  });
}

/** The statement with MySQL's `~`, `^`, XOR, `<=>` and LIKE BINARY written for SQLite. */
export function rewriteMySqlOperators(sql: string): string {
  let out = sql;
  if (out.includes('~')) out = rewriteBitNot(out);
  if (out.includes('^')) out = rewriteBitXor(out);
  out = rewriteBitOperators(out);
  if (out.includes('<=>')) out = rewriteNullSafeEqual(out);
  if (/\bxor\b/i.test(out)) out = rewriteXor(out);
  if (/\blike\s+binary\b/i.test(out)) out = rewriteLikeBinary(out);
  if (/\bbinary\b/i.test(out)) out = rewriteBinaryOperator(out);
  return out;
}

/**
 * `BINARY operand` (a string, a column, a variable or a number) as the operand compared byte for
 * byte, `(operand COLLATE BINARY)`, with MySQL 8.0.27's deprecation warning. CAST(… AS BINARY),
 * `_binary'…'` and LIKE BINARY (rewritten before) are left alone.
 */
function rewriteBinaryOperator(sql: string): string {
  return replaceOutsideQuotes(sql, /(?<![\w$.])(?<!collate\s+)binary\s+('(?:[^'\\]|\\.|'')*'|@?(?:`[^`]+`|[A-Za-z_][\w$]*)(?:\.(?:`[^`]+`|[A-Za-z_][\w$]*))?|-?\d+(?:\.\d+)?)(?!\s*\()/gi, (m, operand: string) => {
    if (/^(?:as|collate|asc|desc|and|or|not|is|in|like|between|from|where|order|group|limit|then|else|end)$/i.test(operand)) return m;
    warn(1287, "'BINARY expr' is deprecated and will be removed in a future release. Please use CAST instead");
    return `(${operand} COLLATE BINARY)`;
  });
}
