/**
 * JSON whose integers beyond 2^53 stay exact. MySQL's BIGINT, Kafka Connect's INT64 and
 * ClickHouse's Int64/UInt64 carry 64 bits, and JSON carries their digits exactly; JSON.parse
 * rounds them to doubles (4611686018427387907 → 4611686018427388000) and JSON.stringify refuses
 * a bigint. Here such integers are JavaScript bigints; every other number stays a number.
 *
 * Both directions keep the built-in JSON on the common path: a text is parsed by lossless-json
 * only when mayHoldUnsafeInteger finds a digit run long enough, and a value is written by it only
 * when JSON.stringify has refused a bigint.
 */
import { parse as losslessParse, stringify as losslessStringify } from 'lossless-json';

const INTEGER = /^-?\d+$/;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Whether a JSON text may hold an integer JSON.parse would round: a run of 17 or more digits, or
 * of 16 above 9007199254740991 (2^53 − 1). It looks at every 16th character only (a run of 16
 * digits covers one of them) and measures the runs found there: a regular expression for any
 * 16-digit run cost as much as JSON.parse on a short record and sent every record with a
 * DATETIME(6) column (MicroTimestamp, 16 digits, ~1.7e15) to the slow parser. A false positive
 * (digits in a string) only costs the slow parse.
 */
export function mayHoldUnsafeInteger(text: string): boolean {
  for (let i = 15; i < text.length; i += 16) {
    if (!isDigit(text.charCodeAt(i))) continue;
    let start = i;
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < text.length && isDigit(text.charCodeAt(end))) end++;
    // a fraction's digits (0.33333333333333332, as SQLite writes 1/3) or a double's integral part
    // (9007199254740994.0, 1234567890123456789e3) read the same either way
    const c = text.charCodeAt(end);
    if (text.charCodeAt(start - 1) === 46 || c === 46 || c === 101 || c === 69) continue;
    if (end - start > 16 || (end - start === 16 && text.slice(start, end) > '9007199254740991')) return true;
  }
  return false;
}

/** A number's JSON text as a JavaScript value: a bigint for an integer outside ±(2^53 − 1). */
export function exactNumber(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) || !INTEGER.test(text) ? n : BigInt(text);
}

/** JSON.parse, with integers beyond 2^53 as bigints. */
export function parseExactJson(text: string): unknown {
  if (!mayHoldUnsafeInteger(text)) return JSON.parse(text);
  try {
    return losslessParse(text, null, exactNumber);
  } catch (err) {
    // the built-in parser's message for bad JSON, which callers report as the real systems do
    JSON.parse(text);
    throw err;
  }
}

/** JSON.stringify, writing bigints as their digits. */
export function stringifyExactJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError) || !/BigInt/.test(err.message)) throw err;
    return losslessStringify(value) as string;
  }
}

/** A bigint back to a number where the number is exact. */
export const narrowInteger = (v: bigint): number | bigint => (v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v);
