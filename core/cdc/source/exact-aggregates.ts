/**
 * SUM and AVG of an arithmetic expression as MySQL computes them: `SUM(price * qty)` adds the
 * rows' exact DECIMAL values (21.69), where SQLite's SUM adds doubles (21.689999999999998), and
 * AVG divides that sum as a DECIMAL, with div_precision_increment more decimals (MySQL 8.0 manual,
 * "Aggregate Function Descriptions": SUM and AVG "return a DECIMAL value for exact-value
 * arguments"). arithmetic-rewrite.ts writes `loupe_sum(loupe_calc('x…', …))`: the program hands
 * each row's value over as exact text (mysql-arithmetic.ts, mode `x`), and a DOUBLE operand makes
 * the whole aggregate a DOUBLE, as in MySQL.
 *
 * The result goes back to SQLite as the double nearest to the DECIMAL MySQL shows, so that HAVING
 * and ORDER BY compare it as a number; the select list shows it as that DECIMAL's text
 * (decimal-display.ts). A DECIMAL with more digits than a double holds (a SUM of BIGINTs beyond
 * 2^53, or past 2^63) goes back as its text, which the rewrite CASTs to the exact INTEGER or the
 * nearest double, and the select list shows that text (aggregateValue in mysql-arithmetic.ts). A
 * window (`SUM(…) OVER …`) is left to SQLite: sql.js registers no window functions.
 */
import type { Database, SqlValue } from 'sql.js';
import { aggregateValue, exactAverage, exactResult, exactSum, toDouble, valueNum, type Exact } from './mysql-arithmetic.js';

interface Total {
  /** The program of the select item, when the rewrite gives it (exactTextOf's key). */
  program?: string;
  count: number;
  exact: Exact | undefined;
  /** The double sum, once a row's value was not exact. */
  approx: number | undefined;
}

function step(total: Total, v: SqlValue): Total {
  if (v === null || v === undefined) return total;
  const n = typeof v === 'string' ? (exactResult(v) ?? valueNum(v, '', false)) : valueNum(v, 'f', false);
  if (!n) return total;
  total.count++;
  if (n.exact && total.approx === undefined) {
    total.exact = total.exact ? exactSum(total.exact, n) : n;
    return total;
  }
  total.approx = (total.approx ?? (total.exact ? toDouble(total.exact) : 0)) + toDouble(n);
  total.exact = undefined;
  return total;
}

const start = (): Total => ({ count: 0, exact: undefined, approx: undefined });

/** A step given the select item's program as well (sql.js counts a step's parameters for the SQL function's arguments). */
function stepOfItem(total: Total, v: SqlValue, program: SqlValue): Total {
  if (typeof program === 'string') total.program = program;
  return step(total, v);
}

const sum = (t: Total) => (t.count === 0 ? null : t.exact ? aggregateValue(t.exact, t.program) : (t.approx ?? null));
const average = (t: Total) => (t.count === 0 ? null : t.exact ? aggregateValue(exactAverage(t.exact, t.count), t.program) : (t.approx ?? 0) / t.count);

export function registerExactAggregates(db: Database): void {
  const aggregates = db as unknown as AggregateDatabase;
  // loupe_sum(value) for DISTINCT (one argument only), loupe_sum(value, program) otherwise
  for (const s of [step, stepOfItem]) {
    aggregates.create_aggregate('loupe_sum', { init: start, step: s, finalize: sum });
    aggregates.create_aggregate('loupe_avg', { init: start, step: s, finalize: average });
  }
}

/** sql.js's create_aggregate, which its type definitions leave out. */
export interface AggregateDatabase {
  create_aggregate<S>(name: string, fns: { init: () => S; step: (state: S, ...args: SqlValue[]) => S; finalize: (state: S) => SqlValue }): void;
}
