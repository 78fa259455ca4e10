/**
 * PREPARE, EXECUTE … USING and DEALLOCATE PREPARE (MySQL 8.0 Reference Manual, "Prepared
 * Statements"): a session's named statements, with `?` for the values EXECUTE takes from user
 * variables. The statement text comes from a string literal or a user variable. Executing one puts
 * the values into the text as literals (a string quoted, bytes as X'…'), which the statement then
 * reads as MySQL reads a bound parameter of that type.
 */
import type { SqlValue } from 'sql.js';
import { unquoteIdent, unquoteString } from './mysql-ddl.js';
import { MySqlError, mysqlErrors } from './mysql-error.js';
import { splitStatements } from './sql-split.js';
import { tokenize } from './sql-tokens.js';

export type PreparedStatement =
  | { kind: 'prepare'; name: string; text: { literal: string } | { variable: string } }
  | { kind: 'execute'; name: string; using: string[] }
  | { kind: 'deallocate'; name: string };

const NAME = '(`(?:[^`]|``)+`|[\\w$]+)';
const VARIABLE = "@(`[^`]+`|'[^']+'|\"[^\"]+\"|[\\w$.]+)";
const PREPARE = new RegExp(`^prepare\\s+${NAME}\\s+from\\s+(?:('(?:[^'\\\\]|\\\\.|'')*'|"(?:[^"\\\\]|\\\\.|"")*")|${VARIABLE})\\s*;?$`, 'is');
const EXECUTE = new RegExp(`^execute\\s+${NAME}(?:\\s+using\\s+(${VARIABLE}(?:\\s*,\\s*${VARIABLE})*))?\\s*;?$`, 'is');
const DEALLOCATE = new RegExp(`^(?:deallocate|drop)\\s+prepare\\s+${NAME}\\s*;?$`, 'is');

const variableName = (raw: string) => unquoteIdent(raw.replace(/^['"]|['"]$/g, '')).toLowerCase();
/** As written (for messages); statements are found by it case-insensitively. */
const statementName = (raw: string) => unquoteIdent(raw).replace(/``/g, '`');

/** The statement `sql` is, or undefined when it is none of the three. */
export function parsePrepared(sql: string): PreparedStatement | undefined {
  const text = sql.trim();
  let m = PREPARE.exec(text);
  if (m) return { kind: 'prepare', name: statementName(m[1]!), text: m[2] ? { literal: unquoteString(m[2].replace(/^"(.*)"$/s, (_a, inner: string) => `'${inner.replace(/""/g, '"').replace(/'/g, "''")}'`)) } : { variable: variableName(m[3]!) } };
  if ((m = EXECUTE.exec(text))) return { kind: 'execute', name: statementName(m[1]!), using: m[2] ? m[2].split(',').map((v) => variableName(v.trim().slice(1))) : [] };
  if ((m = DEALLOCATE.exec(text))) return { kind: 'deallocate', name: statementName(m[1]!) };
  return undefined;
}

/** A prepared statement's text, checked as PREPARE checks it: one statement, and not one of these three. */
export function preparedText(text: string): string {
  const statements = splitStatements(text);
  if (statements.length === 0) throw mysqlErrors.emptyQuery();
  if (statements.length > 1) throw mysqlErrors.syntax(statements[1]!.trim().slice(0, 80));
  if (parsePrepared(statements[0]!)) throw new MySqlError(1295, 'HY000', 'This command is not supported in the prepared statement protocol yet');
  return statements[0]!;
}

function literal(v: SqlValue | bigint | undefined): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof Uint8Array) return `X'${Buffer.from(v).toString('hex')}'`;
  return `'${String(v).replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The statement with each `?` replaced by its value, in order; ER_WRONG_ARGUMENTS when the counts differ. */
export function bindPlaceholders(text: string, values: (SqlValue | bigint)[]): string {
  const tokens = tokenize(text);
  const marks = tokens.filter((t) => t.kind === 'op' && t.text === '?');
  if (marks.length !== values.length) throw new MySqlError(1210, 'HY000', 'Incorrect arguments to EXECUTE');
  let out = '';
  let at = 0;
  marks.forEach((t, i) => {
    out += text.slice(at, t.start) + literal(values[i]);
    at = t.end;
  });
  return out + text.slice(at);
}

export const unknownHandler = (name: string, to: 'EXECUTE' | 'DEALLOCATE PREPARE') => new MySqlError(1243, 'HY000', `Unknown prepared statement handler (${name}) given to ${to}`);
