/**
 * Just enough of ClickHouse's SQL lexer to find statement boundaries, keywords and clauses
 * without being fooled by strings, quoted identifiers or comments. Positions index the source
 * text, so callers can cut and splice the user's SQL without re-printing it.
 */
export type TokenKind = 'word' | 'string' | 'quoted' | 'number' | 'punct';

export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
}

const WORD_START = /[A-Za-z_]/;
const WORD = /[A-Za-z0-9_$]/;
const DIGIT = /[0-9]/;

/** Tokens of `sql` from `from`; stops early when `until` returns true for a token (inclusive). */
export function tokenize(sql: string, from = 0, until?: (t: Token, i: number) => boolean): Token[] {
  const out: Token[] = [];
  let i = from;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if ((c === '-' && sql[i + 1] === '-') || c === '#') {
      while (i < n && sql[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
      continue;
    }
    let tok: Token;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n) {
        if (sql[j] === '\\') j += 2;
        else if (sql[j] === c && sql[j + 1] === c) j += 2;
        else if (sql[j] === c) break;
        else j++;
      }
      tok = { kind: c === "'" ? 'string' : 'quoted', text: sql.slice(i, j + 1), start: i, end: Math.min(j + 1, n) };
    } else if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < n && WORD.test(sql[j]!)) j++;
      tok = { kind: 'word', text: sql.slice(i, j), start: i, end: j };
    } else if (DIGIT.test(c)) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(sql[j]!)) j++;
      tok = { kind: 'number', text: sql.slice(i, j), start: i, end: j };
    } else {
      tok = { kind: 'punct', text: c, start: i, end: i + 1 };
    }
    out.push(tok);
    i = tok.end;
    if (until?.(tok, out.length - 1)) break;
  }
  return out;
}

export const isWord = (t: Token | undefined, ...words: string[]): boolean =>
  !!t && t.kind === 'word' && words.some((w) => w.toUpperCase() === t.text.toUpperCase());

/** The first keyword of a statement, upper-cased ('' when there is none). */
export function firstKeyword(tokens: Token[]): string {
  let i = 0;
  while (tokens[i]?.kind === 'punct' && tokens[i]!.text === '(') i++;
  return tokens[i]?.kind === 'word' ? tokens[i]!.text.toUpperCase() : '';
}

/** Value of a string literal or quoted identifier token, unescaped. */
export function unquote(t: Token): string {
  if (t.kind !== 'string' && t.kind !== 'quoted') return t.text;
  const q = t.text[0]!;
  const body = t.text.slice(1, -1);
  return body.replace(new RegExp(`\\\\(.)|${q}${q}`, 'g'), (_m, esc: string | undefined) => {
    if (esc === undefined) return q;
    return ({ n: '\n', t: '\t', r: '\r', '0': '\0' } as Record<string, string>)[esc] ?? esc;
  });
}

/** Index of the token that closes the bracket opened at `open`, or -1. */
export function matchingClose(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'punct') continue;
    if (t.text === '(' || t.text === '[') depth++;
    else if (t.text === ')' || t.text === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Splits the tokens between `open` and its closing bracket at top-level commas. */
export function splitArgs(tokens: Token[], open: number, close: number): Token[][] {
  const args: Token[][] = [];
  let cur: Token[] = [];
  let depth = 0;
  for (let i = open + 1; i < close; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct' && (t.text === '(' || t.text === '[')) depth++;
    if (t.kind === 'punct' && (t.text === ')' || t.text === ']')) depth--;
    if (depth === 0 && t.kind === 'punct' && t.text === ',') {
      args.push(cur);
      cur = [];
    } else cur.push(t);
  }
  if (cur.length) args.push(cur);
  return args;
}

/**
 * Where a second statement starts after a top-level `;`, or -1. ClickHouse's HTTP interface
 * refuses multi-statements; a trailing `;` alone is fine.
 */
export function secondStatementAt(tokens: Token[]): number {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct' && t.text === ';') {
      const next = tokens.slice(i + 1).find((x) => !(x.kind === 'punct' && x.text === ';'));
      if (next) return next.start;
    }
  }
  return -1;
}

/** The output format named by a top-level trailing `FORMAT X` clause of a read query. */
export function formatClause(tokens: Token[]): { name: string; index: number } | undefined {
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct' && t.text === '(') depth++;
    else if (t.kind === 'punct' && t.text === ')') depth--;
    else if (depth === 0 && isWord(t, 'FORMAT') && (tokens[i + 1]?.kind === 'word' || tokens[i + 1]?.kind === 'quoted')) {
      return { name: unquote(tokens[i + 1]!), index: i };
    }
  }
  return undefined;
}

/** Escapes a string as a ClickHouse single-quoted literal. */
export function quoteString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
