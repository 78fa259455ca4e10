/**
 * SQLite's INTEGER is 64-bit and sql.js hands it to JavaScript as a double unless asked for
 * BigInts, so a BIGINT beyond 2^53 (4611686018427387907) would come out rounded
 * (4611686018427388000). The rows the source hands out are read here with every INTEGER as a
 * BigInt, and those a double holds exactly narrowed back to numbers (common/exact-json.ts).
 */
import type { BindParams, Database, SqlValue, Statement } from 'sql.js';
import { narrowInteger } from '../../common/exact-json.js';

/** A value as sql.js gives it with useBigInt, once narrowed: a bigint only outside ±(2^53 − 1). */
export type ExactValue = SqlValue | bigint;

export interface ExactResult {
  columns: string[];
  values: ExactValue[][];
}

const BIG_INTEGERS = { useBigInt: true };

type ExecWithConfig = (sql: string, params: BindParams | undefined, config: typeof BIG_INTEGERS) => ExactResult[];
type GetWithConfig = (params: BindParams | null, config: typeof BIG_INTEGERS) => ExactValue[];

function narrowRow(row: ExactValue[]): ExactValue[] {
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    if (typeof v === 'bigint') row[i] = narrowInteger(v);
  }
  return row;
}

/** db.exec, with the INTEGERs of its rows exact: bigints beyond ±(2^53 − 1), numbers otherwise. */
export function execExact(db: Database, sql: string, params?: BindParams): ExactResult[] {
  const results = (db.exec as unknown as ExecWithConfig).call(db, sql, params, BIG_INTEGERS);
  for (const r of results) r.values.forEach(narrowRow);
  return results;
}

/** stmt.get() of the current row, with its INTEGERs exact as execExact's. */
export function getExact(stmt: Statement): ExactValue[] {
  return narrowRow((stmt.get as unknown as GetWithConfig).call(stmt, null, BIG_INTEGERS));
}

/**
 * Columns (quoted or qualified), numbers and arithmetic: no call, subquery, string, variable or
 * parameter. Such an expression is cheap and the same each time it is evaluated, so SQL may
 * write it twice: once to ask whether it is an INTEGER beyond a double (beyondDouble), once for
 * the value.
 */
export const isSimpleExpression = (expr: string): boolean => /^[\w$."` +\-*%]+$/.test(expr);

/**
 * SQL that is true when `expr` is an INTEGER outside ±(2^53 − 1): a JavaScript function (sql.js
 * gives it a double) would get it rounded, so SQL keeps it where it can.
 */
export const beyondDouble = (expr: string): string => `typeof(${expr}) = 'integer' AND (${expr}) NOT BETWEEN ${-Number.MAX_SAFE_INTEGER} AND ${Number.MAX_SAFE_INTEGER}`;
