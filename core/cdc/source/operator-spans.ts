/**
 * The operands of an operator in a MySQL statement, found by MySQL's precedence (MySQL 8.0
 * Reference Manual, "Operator Precedence", highest first: BINARY and COLLATE; `!`; unary `-` and
 * `~`; `^`; `*`, `/`, DIV, `%`, MOD; `-`, `+`; … comparisons …; NOT; AND; XOR; OR), so that an
 * operator SQLite lacks or reads otherwise can be written as a function call of its operands.
 * Indexes are into the significant tokens (sql-tokens.ts).
 */
import { significant, tokenize, type Token } from './sql-tokens.js';

/** Words that are operators, never operands. */
const OPERATOR_WORDS = new Set(['AND', 'OR', 'XOR', 'NOT', 'IS', 'IN', 'LIKE', 'REGEXP', 'RLIKE', 'GLOB', 'BETWEEN', 'DIV', 'MOD', 'COLLATE', 'ESCAPE', 'SOUNDS', 'BINARY', 'INTERVAL']);
/** Words that begin or end a clause or an item: never operands either. */
const CLAUSE_WORDS = new Set([
  'SELECT', 'FROM', 'WHERE', 'HAVING', 'GROUP', 'ORDER', 'BY', 'LIMIT', 'OFFSET', 'ON', 'USING', 'SET', 'VALUES', 'VALUE', 'INTO', 'UPDATE', 'INSERT', 'DELETE', 'REPLACE',
  'THEN', 'WHEN', 'ELSE', 'CASE', 'AS', 'UNION', 'ALL', 'DISTINCT', 'DISTINCTROW', 'ASC', 'DESC', 'JOIN', 'LEFT', 'RIGHT', 'INNER', 'CROSS', 'OUTER', 'NATURAL', 'STRAIGHT_JOIN',
  'FOR', 'LOCK', 'WINDOW', 'OVER', 'PARTITION', 'RETURNING', 'DUPLICATE', 'KEY', 'SEPARATOR', 'WITH', 'IGNORE', 'LOW_PRIORITY', 'HIGH_PRIORITY', 'DELAYED', 'QUICK', 'EXCEPT', 'INTERSECT', 'ROWS', 'RANGE', 'DO',
]);
/** Words before a string that make one literal with it (X'0a', _utf8mb4'x', DATE '2024-01-01'). */
const LITERAL_PREFIX = /^(?:_\w+|x|b|n|date|time|timestamp)$/i;

const upper = (t: Token | undefined) => (t?.kind === 'word' ? t.text.toUpperCase() : '');
const isOp = (t: Token | undefined, ...ops: string[]) => t?.kind === 'op' && ops.includes(t.text);
const isOperandWord = (t: Token) => t.kind === 'word' && !OPERATOR_WORDS.has(t.text.toUpperCase()) && !CLAUSE_WORDS.has(t.text.toUpperCase());

/** Whether the token can end an operand (so that a `-` after it is binary, and a word after it an alias). */
export function endsOperand(t: Token | undefined): boolean {
  if (!t) return false;
  if (t.kind === 'number' || t.kind === 'string' || t.kind === 'name' || t.kind === 'variable' || t.kind === 'close') return true;
  if (t.kind === 'op') return t.text === '?';
  return upper(t) === 'END' || isOperandWord(t);
}

/** The significant tokens of a statement. */
export function significantTokens(sql: string): Token[] {
  return tokenize(sql).filter(significant);
}

export function matchClose(t: Token[], open: number): number {
  let depth = 0;
  for (let j = open; j < t.length; j++) {
    if (t[j]!.kind === 'open') depth++;
    else if (t[j]!.kind === 'close' && --depth === 0) return j;
  }
  return -1;
}

export function matchOpen(t: Token[], close: number): number {
  let depth = 0;
  for (let j = close; j >= 0; j--) {
    if (t[j]!.kind === 'close') depth++;
    else if (t[j]!.kind === 'open' && --depth === 0) return j;
  }
  return -1;
}

/** The END of the CASE at `i` (nested CASEs and parentheses skipped), or -1. */
function caseEnd(t: Token[], i: number): number {
  let depth = 0;
  for (let j = i; j < t.length; j++) {
    if (t[j]!.kind === 'open') j = matchClose(t, j);
    if (j < 0) return -1;
    const w = upper(t[j]);
    if (w === 'CASE') depth++;
    else if (w === 'END' && --depth === 0) return j;
  }
  return -1;
}

/** The CASE of the END at `i`, or -1. */
function caseStart(t: Token[], i: number): number {
  let depth = 0;
  for (let j = i; j >= 0; j--) {
    if (t[j]!.kind === 'close') j = matchOpen(t, j);
    if (j < 0) return -1;
    const w = upper(t[j]);
    if (w === 'END') depth++;
    else if (w === 'CASE' && --depth === 0) return j;
  }
  return -1;
}

/** Whether the `-` or `+` at `i` is unary (nothing that ends an operand before it). */
const unaryAt = (t: Token[], i: number) => isOp(t[i], '-', '+') && !endsOperand(t[i - 1]);
const prefixAt = (t: Token[], i: number) => isOp(t[i], '~', '!') || upper(t[i]) === 'BINARY' || unaryAt(t, i);

/** Start of the unary expression (prefix operators, a primary, COLLATE) that ends at `e`, or -1. */
export function unaryStart(t: Token[], e: number): number {
  const tok = t[e];
  if (!tok) return -1;
  let s: number;
  if (tok.kind === 'close') {
    s = matchOpen(t, e);
    if (s < 0) return -1;
    // a function call, or a qualified one (db.f(…))
    if (t[s - 1]?.kind === 'word' && isOperandWord(t[s - 1]!)) s--;
  } else if (upper(tok) === 'END') s = caseStart(t, e);
  else if (tok.kind === 'string') {
    s = e;
    while (t[s - 1]?.kind === 'string') s--;
    if (t[s - 1]?.kind === 'word' && LITERAL_PREFIX.test(t[s - 1]!.text)) s--;
  } else if (tok.kind === 'number' || tok.kind === 'variable' || isOp(tok, '?')) s = e;
  else if (tok.kind === 'name' || (tok.kind === 'word' && isOperandWord(tok))) s = e;
  else return -1;
  if (s < 0) return -1;
  while (isOp(t[s - 1], '.') && (t[s - 2]?.kind === 'name' || t[s - 2]?.kind === 'word')) s -= 2;
  // x COLLATE name: the operand before COLLATE
  if (upper(t[s - 1]) === 'COLLATE') return unaryStart(t, s - 2);
  while (s > 0 && prefixAt(t, s - 1)) s--;
  return s;
}

/** End of the unary expression that starts at `i` (prefix operators, a primary, COLLATE), or -1. */
export function unaryEnd(t: Token[], i: number): number {
  while (t[i] && prefixAt(t, i)) i++;
  const tok = t[i];
  if (!tok) return -1;
  let e: number;
  if (tok.kind === 'open') e = matchClose(t, i);
  else if (upper(tok) === 'CASE') e = caseEnd(t, i);
  else if (tok.kind === 'word' && LITERAL_PREFIX.test(tok.text) && t[i + 1]?.kind === 'string') {
    e = i + 1;
    while (t[e + 1]?.kind === 'string') e++;
  } else if (tok.kind === 'string') {
    e = i;
    while (t[e + 1]?.kind === 'string') e++;
  } else if (tok.kind === 'number' || tok.kind === 'variable' || isOp(tok, '?')) e = i;
  else if (tok.kind === 'name' || (tok.kind === 'word' && isOperandWord(tok))) {
    e = i;
    while (isOp(t[e + 1], '.') && (t[e + 2]?.kind === 'name' || t[e + 2]?.kind === 'word')) e += 2;
    if (t[e + 1]?.kind === 'open' && t[e]!.kind === 'word') e = matchClose(t, e + 1);
  } else return -1;
  if (e < 0) return -1;
  if (upper(t[e + 1]) === 'COLLATE' && t[e + 2] && t[e + 2]!.kind !== 'op') e += 2;
  return e;
}

/** Start of the chain of unary expressions joined by `ops` (left-associative, one level) that ends at `e`, or -1. */
export function chainStart(t: Token[], e: number, ops: (tok: Token) => boolean): number {
  let s = unaryStart(t, e);
  while (s > 1 && ops(t[s - 1]!)) {
    const before = unaryStart(t, s - 2);
    if (before < 0) break;
    s = before;
  }
  return s;
}

/** Words that end a boolean operand on its left. */
const BOOLEAN_STOP_LEFT = new Set(['OR', 'XOR', 'SELECT', 'WHERE', 'HAVING', 'ON', 'WHEN', 'THEN', 'ELSE', 'SET', 'CASE', 'VALUES', 'VALUE', 'DISTINCT', 'DISTINCTROW', 'ALL', 'BY', 'RETURN', 'DO', 'LIMIT']);
/** Words that end a boolean operand on its right. */
const BOOLEAN_STOP_RIGHT = new Set(['OR', 'XOR', 'FROM', 'WHERE', 'GROUP', 'ORDER', 'HAVING', 'LIMIT', 'THEN', 'WHEN', 'ELSE', 'END', 'UNION', 'AS', 'INTO', 'FOR', 'LOCK', 'WINDOW', 'ASC', 'DESC', 'SEPARATOR', 'ON', 'USING', 'JOIN', 'INNER', 'LEFT', 'RIGHT', 'CROSS', 'EXCEPT', 'INTERSECT']);

/** Whether the `=` at `i` assigns (UPDATE … SET col = …, ON DUPLICATE KEY UPDATE col = …) rather than compares. */
export function assigns(t: Token[], i: number): boolean {
  let s = i - 1;
  if (t[s]?.kind !== 'name' && t[s]?.kind !== 'word') return false;
  while (isOp(t[s - 1], '.')) s -= 2;
  // back over the earlier items of the list to the word that starts it
  for (let j = s - 1; j >= 0; j--) {
    const tok = t[j]!;
    if (tok.kind === 'close') j = matchOpen(t, j);
    else if (tok.kind === 'open' || j < 0) return false;
    else if (tok.kind === 'word' && (CLAUSE_WORDS.has(upper(tok)) || upper(tok) === 'END')) return upper(tok) === 'SET' || (upper(tok) === 'UPDATE' && upper(t[j - 1]) === 'KEY');
  }
  return false;
}

/** The first clause word before token `i` at its level of parentheses (earlier items and groups skipped), or '' at an opening parenthesis. */
export function clauseBefore(t: Token[], i: number): string {
  for (let j = i; j >= 0; j--) {
    const tok = t[j]!;
    if (tok.kind === 'close') j = matchOpen(t, j);
    else if (tok.kind === 'open' || j < 0) return '';
    else if (tok.kind === 'word' && CLAUSE_WORDS.has(upper(tok))) return upper(tok);
  }
  return '';
}

/** Start of the boolean operand (between OR/XOR and the clause around it) that ends at `e`. */
export function booleanStart(t: Token[], e: number): number {
  let j = e;
  for (; j >= 0; j--) {
    const tok = t[j]!;
    if (tok.kind === 'close') {
      j = matchOpen(t, j);
      if (j < 0) return -1;
    } else if (upper(tok) === 'END') {
      j = caseStart(t, j);
      if (j < 0) return -1;
    } else if (tok.kind === 'open' || tok.kind === 'comma' || isOp(tok, ';', '||', ':=') || BOOLEAN_STOP_LEFT.has(upper(tok)) || (isOp(tok, '=') && assigns(t, j))) break;
  }
  return j + 1 <= e ? j + 1 : -1;
}

/** End of the boolean operand that starts at `i`. */
export function booleanEnd(t: Token[], i: number): number {
  let j = i;
  for (; j < t.length; j++) {
    const tok = t[j]!;
    if (tok.kind === 'open') {
      j = matchClose(t, j);
      if (j < 0) return -1;
    } else if (upper(tok) === 'CASE') {
      j = caseEnd(t, j);
      if (j < 0) return -1;
    } else if (tok.kind === 'close' || tok.kind === 'comma' || isOp(tok, ';', '||') || BOOLEAN_STOP_RIGHT.has(upper(tok))) break;
    // an alias without AS: a name right after a complete operand
    else if (j > i && (tok.kind === 'name' || (tok.kind === 'word' && isOperandWord(tok) && t[j + 1]?.kind !== 'open')) && endsOperand(t[j - 1]) && !isOp(t[j - 1], '?')) break;
  }
  return j - 1 >= i ? j - 1 : -1;
}

/**
 * The statement with each operator `is(token)` (outside quotes and comments) replaced, leftmost
 * first: `span` gives the first and last token of the text that becomes `build`'s, or undefined
 * to leave that operator as it is. The statement is tokenized once; an edit's own text is
 * tokenized in its place, and the search goes on from where the edit starts (it may hold more
 * such operators, as in `a / (b / c)`), so many operators cost one pass, not one pass each.
 */
export function rewriteOperators(sql: string, is: (tok: Token, t: Token[], i: number) => boolean, span: (sql: string, t: Token[], i: number) => { from: number; to: number; text: string } | undefined): string {
  let out = sql;
  const t = significantTokens(out);
  // a declined operator is passed once; the edits are bounded, as an edit may hold its operator again
  for (let i = 0, edits = 0; i < t.length && edits < 10_000; ) {
    const edit = is(t[i]!, t, i) ? span(out, t, i) : undefined;
    if (!edit) {
      i++;
      continue;
    }
    const start = t[edit.from]!.start;
    const end = t[edit.to]!.end;
    out = out.slice(0, start) + edit.text + out.slice(end);
    edits++;
    // the tokens after the edit move by its change in length; its own tokens are placed where it starts
    const delta = edit.text.length - (end - start);
    for (let j = edit.to + 1; j < t.length; j++) {
      t[j]!.start += delta;
      t[j]!.end += delta;
    }
    const inserted = significantTokens(edit.text);
    for (const tok of inserted) {
      tok.start += start;
      tok.end += start;
    }
    t.splice(edit.from, edit.to - edit.from + 1, ...inserted);
    i = edit.from;
  }
  return out;
}

/** The original text from token `from` to token `to`, inclusive. */
export const textOf = (sql: string, t: Token[], from: number, to: number) => sql.slice(t[from]!.start, t[to]!.end);
