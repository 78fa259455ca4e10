/**
 * JSON values as MySQL 8.0 keeps them: read from text by its rules (RapidJSON's error messages and
 * positions, 3140/3141), integers exact to 64 bits and kept apart from doubles (1.0 stays a
 * double, printed 1.0), the last of a duplicate key winning; and written two ways — MySQL's text
 * (`{"a": 1, "b": [2, 3]}`: a space after each colon and comma, object keys in the order MySQL
 * stores them, shorter keys first, then by their bytes), which SELECT, JDBC and so Debezium's
 * snapshot read, and the binlog's text as Debezium's streaming events carry it (mysql-binlog-
 * connector's JsonStringFormatter: no spaces, doubles as Java's Double.toString).
 */

/** A JSON number that is a double (a fraction or an exponent was written), kept apart from an integer. */
export class JsonDouble {
  constructor(readonly value: number) {}
}

export type Json = null | boolean | number | bigint | JsonDouble | string | Json[] | { [key: string]: Json };

/** Text that is no JSON: RapidJSON's reason and the character offset MySQL reports. */
export class JsonTextError extends Error {
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(`"${reason}" at position ${position}`);
  }
}

const WS = new Set([' ', '\t', '\n', '\r']);

/** Reads JSON text as MySQL does (json_binary, RapidJSON's parser with its error messages). */
export function parseMySqlJson(text: string): Json {
  let i = 0;
  const fail = (reason: string, at = i): never => {
    throw new JsonTextError(reason, at);
  };
  const ws = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const value = (): Json => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    return fail('Invalid value.');
  };
  const object = (): Json => {
    i++;
    const out: { [key: string]: Json } = {};
    ws();
    if (text[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') fail('Missing a name for object member.');
      const key = string();
      ws();
      if (text[i] !== ':') fail('Missing a colon after a name of object member.');
      i++;
      out[key] = value();
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === '}') {
        i++;
        return out;
      } else fail("Missing a comma or '}' after an object member.");
    }
  };
  const array = (): Json => {
    i++;
    const out: Json[] = [];
    ws();
    if (text[i] === ']') {
      i++;
      return out;
    }
    for (;;) {
      out.push(value());
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === ']') {
        i++;
        return out;
      } else fail("Missing a comma or ']' after an array element.");
    }
  };
  const string = (): string => {
    i++;
    let out = '';
    for (;;) {
      const c = text[i];
      if (c === undefined) return fail('Missing a closing quotation mark in string.');
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && simple[e] !== undefined) {
          out += simple[e];
          i += 2;
          continue;
        }
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('Incorrect hex digit after \\u escape in string.');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
          continue;
        }
        // RapidJSON reports an escape at its backslash
        fail('Invalid escape character in string.');
      }
      if (c < ' ') fail('Invalid encoding in string.');
      out += c;
      i++;
    }
  };
  const number = (): Json => {
    const m = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = i;
    const found = m.exec(text);
    if (!found) return fail('Invalid value.');
    const t = found[0];
    if (text[i + t.length] === '.' || /[eE]/.test(text[i + t.length] ?? '')) fail(text[i + t.length] === '.' ? 'Missing fraction part in number.' : 'Missing exponent in number.', i + t.length + 1);
    i += t.length;
    if (found[1] === undefined && found[2] === undefined) {
      const n = Number(t);
      if (Number.isSafeInteger(n)) return n;
      const big = BigInt(t);
      // beyond 64 bits MySQL keeps a double (json_binary: the number did not fit an integer type)
      return big >= -(1n << 63n) && big < 1n << 64n ? big : new JsonDouble(Number(t));
    }
    return new JsonDouble(Number(t));
  };
  ws();
  if (i >= text.length) fail('The document is empty.');
  const v = value();
  ws();
  if (i < text.length) fail('The document root must not be followed by other values.');
  return v;
}

/** MySQL's order of an object's keys: shorter first, then by their bytes. */
export function mysqlKeyOrder(o: { [key: string]: Json }): string[] {
  return Object.keys(o).sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** MySQL's text of a double in JSON: %.17g trimmed to the shortest that reads back, with `.0` on an integral value. */
function mysqlDouble(v: number): string {
  if (!Number.isFinite(v)) return 'null';
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return `${v}.0`;
  return String(v).replace('e+', 'e');
}

/** MySQL's text of a JSON value (SELECT, CAST(… AS CHAR), JDBC). */
export function mysqlJsonText(v: Json): string {
  if (v === null) return 'null';
  if (v instanceof JsonDouble) return mysqlDouble(v.value);
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map(mysqlJsonText).join(', ')}]`;
  if (typeof v === 'object') return `{${mysqlKeyOrder(v).map((k) => `${JSON.stringify(k)}: ${mysqlJsonText(v[k]!)}`).join(', ')}}`;
  return JSON.stringify(v);
}

/** Java's Double.toString of a double, as the binlog's JSON formatter writes it (plain digits where Java would use an exponent). */
function javaDouble(v: number): string {
  if (!Number.isFinite(v)) return 'null';
  const abs = Math.abs(v);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e7)) {
    // Java writes 1.0E7; the formatter writes BigDecimal(value).toPlainString() instead
    return plainDecimal(v);
  }
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

/** BigDecimal(double).toPlainString(): the double's exact binary value in plain decimal digits. */
function plainDecimal(v: number): string {
  const [mantissa, exponent] = exactBinary(v);
  if (exponent >= 0) return (mantissa << BigInt(exponent)).toString();
  const scale = -exponent;
  const digits = (mantissa * 5n ** BigInt(scale)).toString();
  const neg = digits.startsWith('-');
  const body = (neg ? digits.slice(1) : digits).padStart(scale + 1, '0');
  return `${neg ? '-' : ''}${body.slice(0, -scale)}.${body.slice(-scale)}`;
}

/** A double as mantissa × 2^exponent, both integers. */
function exactBinary(v: number): [bigint, number] {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, v);
  const bits = buf.getBigUint64(0);
  const sign = bits >> 63n ? -1n : 1n;
  const e = Number((bits >> 52n) & 0x7ffn);
  const f = bits & ((1n << 52n) - 1n);
  let mantissa = e === 0 ? f : f | (1n << 52n);
  let exponent = (e === 0 ? 1 : e) - 1075;
  while (mantissa !== 0n && (mantissa & 1n) === 0n) {
    mantissa >>= 1n;
    exponent++;
  }
  return [sign * mantissa, exponent];
}

/** The binlog's text of a JSON value, as Debezium's streaming events carry it (JsonStringFormatter). */
export function binlogJsonText(v: Json): string {
  if (v === null) return 'null';
  if (v instanceof JsonDouble) return javaDouble(v.value);
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map(binlogJsonText).join(',')}]`;
  if (typeof v === 'object') return `{${mysqlKeyOrder(v).map((k) => `${binlogString(k)}:${binlogJsonText(v[k]!)}`).join(',')}}`;
  if (typeof v === 'string') return binlogString(v);
  return String(v);
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\t': '\\t', '\f': '\\f', '\n': '\\n', '\r': '\\r' };

/** A string as JsonStringFormatter quotes it: `"` and `\\` and b, t, f, n, r escaped short, other control characters as \\u00XX (upper-case hex), the rest as it is. */
function binlogString(s: string): string {
  let out = '"';
  for (const c of s) {
    const code = c.charCodeAt(0);
    if (SHORT_ESCAPES[c] !== undefined) out += SHORT_ESCAPES[c];
    else if (code < 0x20) out += `\\u00${code.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += c;
  }
  return `${out}"`;
}
