/**
 * A MySQL statement as tokens, for the rewrites that need an operator's operands (operator-spans.ts):
 * quoted strings and names, comments (`/* *\/`, `-- `, `#`), numbers, words, and operators, each
 * with where it starts and ends, so that a rewrite can replace a span of the original text.
 */

export type TokenKind = 'space' | 'comment' | 'string' | 'name' | 'number' | 'word' | 'variable' | 'open' | 'close' | 'comma' | 'op';

export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
}

/** Operators of more than one character, longest first. */
const OPERATORS = ['<=>', '->>', '<<', '>>', '<=', '>=', '<>', '!=', '||', '&&', ':=', '->'];

/** Where the quoted text starting at `i` ends (just past its closing quote; doubled quotes and, outside names, backslashes escape). */
function quotedEnd(sql: string, i: number): number {
  const q = sql[i]!;
  for (let j = i + 1; j < sql.length; j++) {
    if (sql[j] === '\\' && q !== '`') j++;
    else if (sql[j] === q) {
      if (sql[j + 1] === q) j++;
      else return j + 1;
    }
  }
  return sql.length;
}

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const push = (kind: TokenKind, end: number) => {
    tokens.push({ kind, text: sql.slice(i, end), start: i, end });
    i = end;
  };
  while (i < sql.length) {
    const c = sql[i]!;
    const rest = sql.slice(i, i + 3);
    if (/\s/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /\s/.test(sql[j]!)) j++;
      push('space', j);
    } else if (c === '#' || (rest.startsWith('--') && (rest.length === 2 || /\s/.test(rest[2]!)))) {
      const nl = sql.indexOf('\n', i);
      push('comment', nl < 0 ? sql.length : nl);
    } else if (rest.startsWith('/*')) {
      const close = sql.indexOf('*/', i + 2);
      push('comment', close < 0 ? sql.length : close + 2);
    } else if (c === "'" || c === '"') push('string', quotedEnd(sql, i));
    else if (c === '`') push('name', quotedEnd(sql, i));
    else if (/\d/.test(c) || (c === '.' && /\d/.test(sql[i + 1] ?? ''))) {
      const m = /^(?:0x[0-9a-f]+|0b[01]+|(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(?![\w$])/i.exec(sql.slice(i));
      if (m) push('number', i + m[0].length);
      else push('word', i + /^[\w$]+/.exec(sql.slice(i))![0].length);
    } else if (/[A-Za-z_$\u0080-\uffff]/.test(c)) push('word', i + /^[\w$\u0080-\uffff]+/.exec(sql.slice(i))![0].length);
    else if (c === '@') push('variable', i + /^@@?(?:[\w$.]+|`[^`]*`|'[^']*'|"[^"]*")?/.exec(sql.slice(i))![0].length);
    else if (c === '(') push('open', i + 1);
    else if (c === ')') push('close', i + 1);
    else if (c === ',') push('comma', i + 1);
    else push('op', i + (OPERATORS.find((op) => sql.startsWith(op, i))?.length ?? 1));
  }
  return tokens;
}

/** Whether a token is one the SQL reads (not blank, not a comment). */
export const significant = (t: Token) => t.kind !== 'space' && t.kind !== 'comment';
