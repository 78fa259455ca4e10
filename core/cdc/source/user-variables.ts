/**
 * MySQL's user variables (`SET @id = LAST_INSERT_ID(); INSERT … VALUES (@id)`), which live as
 * long as the session. SQLite reads `@name` as a named parameter, so a statement gets the
 * session's values bound to the names it uses; a variable never set is NULL, as in MySQL. Names
 * are case-insensitive (MySQL 8.0 manual, User-Defined Variables).
 */
import type { BindParams, Database, SqlValue } from 'sql.js';
import { warn } from './diagnostics.js';
import { statementScope } from './statement-scope.js';
import { unquoteIdent } from './mysql-ddl.js';
import { closingParen, maskQuoted, replaceOutsideQuotes, spliceText, splitTopLevel } from './sql-text.js';

/** A variable's value; a bigint for an INTEGER beyond ±(2^53 − 1), which castBigVariables reads back exactly. */
export type UserVariables = Map<string, SqlValue | bigint>;

const USED = /(?<![@\w$])@([A-Za-z_][\w$]*)/g;

/** The values for the `@name` parameters a statement uses, or undefined when it uses none. */
export function boundVariables(sql: string, vars: UserVariables): BindParams | undefined {
  if (!sql.includes('@')) return undefined;
  let params: Record<string, SqlValue> | undefined;
  // sql.js binds a bigint as its digits (text): castBigVariables has made those reads INTEGERs again
  for (const m of maskQuoted(sql).matchAll(USED)) (params ??= {})[`@${m[1]}`] = (vars.get(m[1]!.toLowerCase()) ?? null) as SqlValue;
  return params;
}

/**
 * The statement with each read of a variable holding a bigint (a BIGINT beyond 2^53, from
 * `SET @id = …` or SELECT … INTO) as `CAST(@v AS INTEGER)`: sql.js binds a bigint as its digits,
 * text to SQLite, which would compare and add as a string does; CAST makes it the exact INTEGER.
 */
export function castBigVariables(sql: string, vars: UserVariables): string {
  if (!sql.includes('@')) return sql;
  let big: Set<string> | undefined;
  for (const [name, v] of vars) if (typeof v === 'bigint') (big ??= new Set()).add(name);
  if (!big) return sql;
  const names = big;
  return replaceOutsideQuotes(sql, USED, (all, name) => (names.has(name!.toLowerCase()) ? `CAST(${all} AS INTEGER)` : all));
}

/** One assignment of a SET statement. */
export type SetItem = { user: string; expr: string } | { system: string; value: string; global: boolean };

/** The assignments of `SET a = 1, @b := expr, SESSION c = 'x'`, split at top-level commas. */
export function setItems(sql: string): SetItem[] {
  const body = sql.trim().replace(/;$/, '').replace(/^set\s+/i, '');
  const items: SetItem[] = [];
  for (const part of splitTopLevel(body)) {
    const user = /^\s*@(`[^`]+`|'[^']+'|"[^"]+"|[\w$.]+)\s*:?=\s*([\s\S]+?)\s*$/.exec(part);
    if (user) {
      items.push({ user: unquoteIdent(user[1]!.replace(/^['"]|['"]$/g, '')).toLowerCase(), expr: user[2]! });
      continue;
    }
    const system = /^\s*((?:session|local|global|persist)\s+|@@(?:session\.|local\.|global\.)?)?([\w$]+)\s*:?=\s*([\s\S]+?)\s*$/i.exec(part);
    if (system) items.push({ system: system[2]!.toLowerCase(), value: system[3]!.replace(/^'(.*)'$/s, '$1'), global: /global|persist/i.test(system[1] ?? '') });
  }
  return items;
}

// ------------------------------------------------------------------ assignments in expressions

/** The variables of the session whose statement is running, which `@x := …` sets. */
const live = statementScope<UserVariables>();

/** Runs `run` with `vars` as the variables loupe_assign and loupe_var reach. */
export function withVariables<T>(vars: UserVariables, run: () => T): T {
  return live.run(vars, run);
}

/** loupe_assign(name, value) for `@name := value`, and loupe_var(name) for a read of it in the same statement, which sees each assignment as it is made. */
export function registerVariableFunctions(db: Database): void {
  db.create_function('loupe_assign', (name: SqlValue, value: SqlValue) => {
    live.current?.set(String(name), value);
    return value;
  });
  db.create_function('loupe_var', (name: SqlValue) => live.current?.get(String(name)) ?? null);
}

const NAME = "(`[^`]+`|'[^']+'|\"[^\"]+\"|[A-Za-z_][\\w$.]*)";
const ASSIGN = new RegExp(`(?<![@\\w$])@${NAME}\\s*:=`, 'g');
const READ = new RegExp(`(?<![@\\w$])@${NAME}`, 'g');
/** Words that end the expression on the right of `:=` (the lowest precedence of all). */
const ENDS_ASSIGNED = /^(?:from|where|group|having|order|limit|into|union|for|lock|window|on|using|then|when|else|end|as|separator)$/i;

const varName = (raw: string) => unquoteIdent(raw.replace(/^['"]|['"]$/g, '')).toLowerCase();
const quoted = (name: string) => `'${name.replace(/'/g, "''")}'`;

/** Where the expression on the right of `:=` that starts at `from` ends: a comma, a closing parenthesis or a clause word at its own level. */
function assignedEnd(masked: string, from: number): number {
  let depth = 0;
  let cases = 0;
  for (let i = from; i < masked.length; i++) {
    const c = masked[i]!;
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth-- === 0) return i;
    } else if (depth === 0 && (c === ',' || c === ';')) return i;
    else if (/[A-Za-z_]/.test(c) && !/[\w$@.]/.test(masked[i - 1] ?? '')) {
      const word = /^[A-Za-z_][\w$]*/.exec(masked.slice(i, i + 12))![0];
      if (depth === 0) {
        if (/^case$/i.test(word)) cases++;
        else if (/^end$/i.test(word) && cases > 0) cases--;
        else if (cases === 0 && ENDS_ASSIGNED.test(word)) return i;
      }
      i += word.length - 1;
    }
  }
  return masked.length;
}

/**
 * `@name := expr` inside a statement: loupe_assign, each read of a variable in that statement
 * loupe_var (a bound parameter would keep the value the statement started with), and MySQL 8.0's
 * deprecation warning for each assignment (ER_WARN_DEPRECATED_USER_SET_EXPR, 1287). Undefined when
 * the statement assigns nothing.
 */
export function rewriteVariableAssignments(sql: string): string | undefined {
  if (!sql.includes(':=')) return undefined;
  const masked = maskQuoted(sql);
  const assignments = [...masked.matchAll(ASSIGN)];
  if (!assignments.length) return undefined;
  const edits: { from: number; to: number; text: string }[] = [];
  const assigned = new Set<number>();
  for (const m of assignments) {
    const start = m.index!;
    const name = varName(sql.slice(start + 1, start + 1 + m[1]!.length));
    let from = start + m[0].length;
    while (/\s/.test(masked[from] ?? '')) from++;
    edits.push({ from: start, to: from, text: `loupe_assign(${quoted(name)}, ` });
    let end = assignedEnd(masked, from);
    while (end > from && /\s/.test(masked[end - 1]!)) end--;
    // a closing parenthesis goes before any text that starts where the expression ends
    edits.push({ from: end, to: end, text: ')' });
    assigned.add(start);
    warn(1287, "Setting user variables within expressions is deprecated and will be removed in a future release. Consider alternatives: 'SET variable=expression, ...', or 'SELECT expression(s) INTO variables(s)'.");
  }
  for (const m of masked.matchAll(READ)) {
    if (assigned.has(m.index!)) continue;
    edits.push({ from: m.index!, to: m.index! + m[0].length, text: `loupe_var(${quoted(varName(sql.slice(m.index! + 1, m.index! + m[0].length)))})` });
  }
  // an insertion (a closing parenthesis) goes before a replacement that starts where it is
  edits.sort((a, b) => a.from - b.from || a.to - a.from - (b.to - b.from));
  return spliceText(sql, edits);
}

const INTO = new RegExp(`\\binto\\s+(@${NAME}(?:\\s*,\\s*@${NAME})*)(?![\\w$@])`, 'gi');

/**
 * `SELECT … INTO @a, @b …` (after the select list or at the end): the SELECT without its INTO,
 * and the variables it sets. Undefined for any other statement.
 */
export function selectInto(sql: string): { select: string; targets: string[] } | undefined {
  if (!/^\s*(?:\(\s*)*(?:select|with)\b/i.test(sql) || !/\binto\b/i.test(sql)) return undefined;
  const masked = maskQuoted(sql);
  for (const m of masked.matchAll(INTO)) {
    // at the statement's own level, not in a subquery
    let depth = 0;
    for (let i = 0; i < m.index!; i++) depth += masked[i] === '(' ? 1 : masked[i] === ')' ? -1 : 0;
    if (depth !== 0) continue;
    const list = sql.slice(m.index! + m[0].length - m[1]!.length, m.index! + m[0].length);
    const targets = list.split(',').map((v) => varName(v.trim().slice(1)));
    return { select: `${sql.slice(0, m.index!)}${sql.slice(m.index! + m[0].length)}`, targets };
  }
  return undefined;
}

const CONSTANT_ROW = /\(\s*select\s+(?=loupe_assign\()/gi;

/**
 * A derived table that only assigns (`FROM t, (SELECT @rn := 0) r`, the row-numbering idiom):
 * MySQL fills it before reading the rows it is joined with; SQLite never reads a column nobody
 * uses, so the assignment would not happen. Its SELECT is returned to run first, and in the
 * statement it reads the variables instead.
 */
export function hoistConstantAssignments(sql: string): { first: string[]; text: string } | undefined {
  if (!sql.includes('loupe_assign(')) return undefined;
  const masked = maskQuoted(sql);
  const first: string[] = [];
  let text = '';
  let at = 0;
  for (const m of masked.matchAll(CONSTANT_ROW)) {
    if (m.index! < at) continue;
    const close = closingParen(masked, m.index!);
    const inner = masked.slice(m.index! + m[0].length, close);
    if (close < 0 || /\bfrom\b/i.test(inner)) continue;
    const from = m.index! + m[0].length;
    first.push(`SELECT ${sql.slice(from, close)}`);
    // each loupe_assign('x', …) call becomes loupe_var('x')
    let reads = '';
    let i = from;
    for (let call = masked.indexOf('loupe_assign(', i); call >= 0 && call < close; call = masked.indexOf('loupe_assign(', i)) {
      const end = closingParen(masked, call + 'loupe_assign'.length);
      const name = /^loupe_assign\(('(?:[^']|'')*')/.exec(sql.slice(call))![1]!;
      reads += `${sql.slice(i, call)}loupe_var(${name})`;
      i = end + 1;
    }
    text += `${sql.slice(at, from)}${reads}${sql.slice(i, close)}`;
    at = close;
  }
  return first.length ? { first, text: text + sql.slice(at) } : undefined;
}
