/**
 * JSON whose integers beyond 2^53 stay exact. MySQL's BIGINT, Kafka Connect's INT64 and
 * ClickHouse's Int64/UInt64 carry 64 bits, and JSON carries their digits exactly; JSON.parse
 * rounds them to doubles (4611686018427387907 → 4611686018427388000) and JSON.stringify refuses
 * a bigint. Here such integers are JavaScript bigints; every other number stays a number.
 *
 * Both directions keep the built-in JSON on the common path: a text is parsed by lossless-json
 * only when it holds a run of 16 digits (every integer above 2^53 has at least 16), and a value
 * is written by it only when JSON.stringify has refused a bigint.
 */
import { parse as losslessParse, stringify as losslessStringify } from 'lossless-json';

const LONG_DIGITS = /\d{16}/;
const INTEGER = /^-?\d+$/;

/** A number's JSON text as a JavaScript value: a bigint for an integer outside ±(2^53 − 1). */
export function exactNumber(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) || !INTEGER.test(text) ? n : BigInt(text);
}

/** JSON.parse, with integers beyond 2^53 as bigints. */
export function parseExactJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
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
