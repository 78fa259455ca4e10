/**
 * CHECK constraints as MySQL 8.0.16 and later keep them (manual, "CHECK Constraints"): named as
 * given or `<table>_chk_<n>` (n counting the unnamed ones in the order written), enforced unless
 * NOT ENFORCED, and printed by SHOW CREATE TABLE in name order as MySQL's item printer prints the
 * expression: names quoted, strings with their charset introducer, each operation in
 * parentheses, keywords and function names in lower case (`CHECK ((\`n\` > 0))`). A row for which
 * an enforced constraint is false fails with 3819 "Check constraint 'x' is violated." (a NULL
 * result passes); embedded-source.ts checks it with a trigger.
 */
import type { Database } from 'sql.js';
import { ignoring, warn } from './diagnostics.js';
import type { TableDef } from './mysql-ddl.js';
import { MySqlError, mysqlErrors } from './mysql-error.js';
import { closingParen, maskQuoted, NAME_PATTERN, unquotedName } from './sql-text.js';
import { significant, tokenize, type Token } from './sql-tokens.js';

export interface CheckDef {
  name: string;
  /** The expression as written. */
  expr: string;
  enforced: boolean;
}

/** A CHECK clause as parsed, before the unnamed ones are named. */
export interface CheckClause {
  name?: string;
  expr: string;
  enforced: boolean;
}

/** The clauses named: each unnamed one `<table>_chk_<n>`, n after the highest such name taken. */
export function namedChecks(table: string, clauses: CheckClause[], taken: CheckDef[] = []): CheckDef[] {
  const prefix = `${table}_chk_`.toLowerCase();
  let n = Math.max(0, ...taken.map((c) => (c.name.toLowerCase().startsWith(prefix) ? Number(c.name.slice(prefix.length)) || 0 : 0)));
  return clauses.map((c) => ({ name: c.name ?? `${table}_chk_${++n}`, expr: c.expr, enforced: c.enforced }));
}

/** The violation error's text, as MySQL words it (ER_CHECK_CONSTRAINT_VIOLATED). */
export const violated = (name: string) => `Check constraint '${name}' is violated.`;

/**
 * loupe_ignoring(): 1 under INSERT/UPDATE … IGNORE (REPLACE and upserts, which relax only the key
 * checks, are 0); loupe_row_skipped(code, message): a row IGNORE skips, its error as a warning
 * (a constraint's 3819, a view's CHECK OPTION's 1369).
 */
export function registerCheckFunctions(db: Database): void {
  db.create_function('loupe_ignoring', () => (ignoring() ? 1 : 0));
  db.create_function('loupe_row_skipped', (code: unknown, message: unknown) => {
    warn(Number(code), String(message));
    return null;
  });
}

/** The constraints in name order, as SHOW CREATE TABLE lists them. */
export const sortedChecks = (checks: readonly CheckDef[]): CheckDef[] => [...checks].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0));

/** SHOW CREATE TABLE's lines for the constraints, in name order. */
export function showChecks(checks: readonly CheckDef[]): string[] {
  return sortedChecks(checks)
    .map((c) => `CONSTRAINT \`${c.name.replace(/`/g, '``')}\` CHECK (${printed(c.expr)})${c.enforced ? '' : ' /*!80016 NOT ENFORCED */'}`);
}

/** CHECK_CLAUSE of INFORMATION_SCHEMA.CHECK_CONSTRAINTS: the printed expression. */
export const checkClause = (c: CheckDef) => printed(c.expr);

const COMPARISONS = new Set(['=', '<>', '!=', '<', '<=', '>', '>=', '<=>']);

/** The expression as MySQL prints it, or as written where it has what this printer does not know. */
export function printed(expr: string): string {
  const t = tokenize(expr).filter(significant);
  const p = new Printer(t);
  try {
    const out = p.or();
    if (p.i === t.length) return out;
  } catch {
    // not understood: as written
  }
  return expr.trim();
}

class Printer {
  i = 0;
  constructor(readonly t: Token[]) {}

  private peek(): Token | undefined {
    return this.t[this.i];
  }
  private word(...words: string[]): boolean {
    const tok = this.peek();
    return tok?.kind === 'word' && words.includes(tok.text.toUpperCase());
  }
  private op(...ops: string[]): boolean {
    const tok = this.peek();
    return tok?.kind === 'op' && ops.includes(tok.text);
  }
  private fail(): never {
    throw new Error('not printed');
  }

  or(): string {
    let left = this.and();
    while (this.word('OR') || this.op('||')) {
      this.i++;
      left = `(${left} or ${this.and()})`;
    }
    return left;
  }
  private and(): string {
    let left = this.not();
    while (this.word('AND') || this.op('&&')) {
      this.i++;
      left = `(${left} and ${this.not()})`;
    }
    return left;
  }
  private not(): string {
    if (this.word('NOT') || this.op('!')) {
      this.i++;
      return `(not(${this.not()}))`;
    }
    return this.predicate();
  }
  private predicate(): string {
    const left = this.sum();
    if (this.peek()?.kind === 'op' && COMPARISONS.has(this.peek()!.text)) {
      const op = this.t[this.i++]!.text;
      return `(${left} ${op === '!=' ? '<>' : op} ${this.sum()})`;
    }
    if (this.word('IS')) {
      this.i++;
      const not = this.word('NOT') ? (this.i++, ' not') : '';
      if (!this.word('NULL', 'TRUE', 'FALSE', 'UNKNOWN')) this.fail();
      return `(${left} is${not} ${this.t[this.i++]!.text.toLowerCase()})`;
    }
    const not = this.word('NOT') ? (this.i++, 'not ') : '';
    if (this.word('IN')) {
      this.i++;
      if (this.peek()?.kind !== 'open') this.fail();
      this.i++;
      const items = [this.or()];
      while (this.peek()?.kind === 'comma') {
        this.i++;
        items.push(this.or());
      }
      if (this.peek()?.kind !== 'close') this.fail();
      this.i++;
      return `(${left} ${not}in (${items.join(',')}))`;
    }
    if (this.word('BETWEEN')) {
      this.i++;
      const low = this.sum();
      if (!this.word('AND')) this.fail();
      this.i++;
      return `(${left} ${not}between ${low} and ${this.sum()})`;
    }
    if (this.word('LIKE')) {
      this.i++;
      return `(${left} ${not}like ${this.sum()})`;
    }
    if (not) this.fail();
    return left;
  }
  private sum(): string {
    let left = this.product();
    while (this.op('+', '-')) {
      const op = this.t[this.i++]!.text;
      left = `(${left} ${op} ${this.product()})`;
    }
    return left;
  }
  private product(): string {
    let left = this.unary();
    while (this.op('*', '/', '%') || this.word('DIV', 'MOD')) {
      const op = this.t[this.i++]!.text;
      left = `(${left} ${op === '%' || op.toUpperCase() === 'MOD' ? '%' : op.toLowerCase()} ${this.unary()})`;
    }
    return left;
  }
  private unary(): string {
    if (this.op('-')) {
      this.i++;
      return `-(${this.unary()})`;
    }
    if (this.op('+')) this.i++;
    return this.primary();
  }
  private primary(): string {
    const tok = this.peek() ?? this.fail();
    this.i++;
    if (tok.kind === 'number') return tok.text;
    if (tok.kind === 'string') {
      if (tok.text.startsWith('"') || tok.text.includes('\\')) this.fail();
      return `_utf8mb4'${tok.text.slice(1, -1).replace(/''/g, "\\'")}'`;
    }
    if (tok.kind === 'open') {
      const inner = this.or();
      if (this.peek()?.kind !== 'close') this.fail();
      this.i++;
      return inner;
    }
    if (tok.kind === 'name' || tok.kind === 'word') {
      const upper = tok.text.toUpperCase();
      if (tok.kind === 'word' && (upper === 'NULL' || upper === 'TRUE' || upper === 'FALSE')) return upper === 'NULL' ? 'NULL' : upper.toLowerCase();
      if (this.peek()?.kind === 'open' && tok.kind === 'word') {
        if (/^(?:CASE|CAST|CONVERT|INTERVAL|EXISTS|SELECT|MATCH|TRIM|EXTRACT|POSITION|SUBSTRING|CHAR)$/.test(upper)) this.fail();
        this.i++;
        const args: string[] = [];
        if (this.peek()?.kind !== 'close') {
          args.push(this.or());
          while (this.peek()?.kind === 'comma') {
            this.i++;
            args.push(this.or());
          }
        }
        if (this.peek()?.kind !== 'close') this.fail();
        this.i++;
        return `${tok.text.toLowerCase()}(${args.join(',')})`;
      }
      if (tok.kind === 'word' && /^(?:CASE|WHEN|THEN|ELSE|END|REGEXP|RLIKE|SOUNDS|INTERVAL|BINARY|COLLATE|XOR|ESCAPE)$/.test(upper)) this.fail();
      const name = tok.kind === 'name' ? tok.text.slice(1, -1).replace(/``/g, '`') : tok.text;
      return `\`${name.replace(/`/g, '``')}\``;
    }
    return this.fail();
  }
}

/** The table columns an expression names (lower-case). */
export function columnsNamed(expr: string, columns: readonly string[]): Set<string> {
  const known = new Set(columns.map((c) => c.toLowerCase()));
  const t = tokenize(expr).filter(significant);
  const out = new Set<string>();
  t.forEach((tok, i) => {
    const name = tok.kind === 'name' ? tok.text.slice(1, -1) : tok.kind === 'word' ? tok.text : undefined;
    if (name !== undefined && known.has(name.toLowerCase()) && t[i + 1]?.kind !== 'open') out.add(name.toLowerCase());
  });
  return out;
}

/** ER_DEPENDENT_BY_CHECK_CONSTRAINT when a constraint of the table reads the column. */
export function refuseIfChecked(checks: readonly CheckDef[] | undefined, column: string, columns: readonly string[]): void {
  const using = (checks ?? []).find((c) => columnsNamed(c.expr, columns).has(column.toLowerCase()));
  if (using) throw new MySqlError(3959, 'HY000', `Check constraint '${using.name}' uses column '${column}', hence column cannot be dropped or renamed.`);
}

const NAME = `(${NAME_PATTERN})`;
const ADD_CHECK = new RegExp(`^add\\s+(?:constraint\\s+(?:${NAME}\\s+)?)?check\\s*\\(`, 'i');
const DROP_CHECK = new RegExp(`^drop\\s+(check|constraint)\\s+${NAME}$`, 'i');
const ALTER_CHECK = new RegExp(`^alter\\s+(check|constraint)\\s+${NAME}\\s+(not\\s+)?enforced$`, 'i');

/**
 * ALTER TABLE's CHECK specifications on `next` (ADD [CONSTRAINT [x]] CHECK (…) [[NOT] ENFORCED],
 * DROP CHECK x, DROP CONSTRAINT x, ALTER CHECK x [NOT] ENFORCED); false for any other. A
 * constraint added or enforced must hold for the rows there, as MySQL checks them: it goes to
 * `verify`, for when the table is altered (a column it reads may be added by the same statement).
 */
export function alterCheck(spec: string, next: TableDef, verify: CheckDef[]): boolean {
  const add = ADD_CHECK.exec(spec);
  if (add) {
    const open = add[0].length - 1;
    const close = closingParen(maskQuoted(spec), open);
    const after = spec.slice(close + 1).trim();
    if (close < 0 || !/^(?:(?:not\s+)?enforced)?$/i.test(after)) throw mysqlErrors.syntax(spec.slice(close + 1, close + 81));
    const [check] = namedChecks(next.name, [{ ...(add[1] ? { name: unquotedName(add[1]) } : {}), expr: spec.slice(open + 1, close).trim(), enforced: !/^not\b/i.test(after) }], next.checks);
    next.checks = [...(next.checks ?? []), check!];
    if (check!.enforced) verify.push(check!);
    return true;
  }
  const drop = DROP_CHECK.exec(spec);
  if (drop) {
    const name = unquotedName(drop[2]!);
    const found = (next.checks ?? []).find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (!found) {
      // DROP CONSTRAINT names any kind of constraint (MySQL 8.0.19); a foreign key is dropped as DROP FOREIGN KEY drops it
      const fk = drop[1]!.toLowerCase() === 'constraint' ? (next.foreignKeys ?? []).find((k) => k.name.toLowerCase() === name.toLowerCase()) : undefined;
      if (!fk) throw new MySqlError(3940, 'HY000', `Constraint '${name}' does not exist.`);
      next.foreignKeys = next.foreignKeys!.filter((k) => k !== fk);
      return true;
    }
    next.checks = next.checks!.filter((c) => c !== found);
    return true;
  }
  const alter = ALTER_CHECK.exec(spec);
  if (alter) {
    const name = unquotedName(alter[2]!);
    const found = (next.checks ?? []).find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (!found) throw new MySqlError(3940, 'HY000', `Constraint '${name}' does not exist.`);
    found.enforced = !alter[3];
    if (found.enforced) verify.push(found);
    return true;
  }
  return false;
}
