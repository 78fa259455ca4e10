/**
 * Kafka Connect parses request bodies with Jackson, and its exception mapper turns a parse
 * failure into a 500 carrying Jackson's message. This reproduces those messages for the common
 * mistakes (trailing comma, unquoted name, missing colon, bad token, truncated body).
 */
import { JACKSON_SOURCE as SOURCE, JsonCursor } from './json-cursor.js';

class JsonSyntaxError extends Error {}

export function jacksonParseError(text: string): string | null {
  const cur = new JsonCursor(text);
  const loc = () => `\n at [Source: ${SOURCE}; line: ${cur.line}, column: ${cur.col}]`;
  const fail = (msg: string): never => {
    throw new JsonSyntaxError(msg + loc());
  };
  const ch = (c: string) => `'${c}' (code ${c.codePointAt(0)})`;
  const unexpected = (what: string): never => {
    const c = cur.ch!;
    // Jackson reports the column after consuming the character.
    cur.adv();
    return fail(`Unexpected character (${ch(c)}): ${what}`);
  };
  const eof = (what: string, startLine: number, startCol: number): never =>
    fail(`Unexpected end-of-input: expected close marker for ${what} (start marker at [Source: ${SOURCE}; line: ${startLine}, column: ${startCol}])`);
  const value = (): void => {
    cur.ws();
    if (cur.done) fail('No content to map due to end-of-input');
    const c = cur.ch!;
    if (c === '{') return obj();
    if (c === '[') return arr();
    if (c === '"') return str();
    if (/[-0-9]/.test(c)) {
      while (!cur.done && /[-+0-9.eE]/.test(cur.ch!)) cur.adv();
      return;
    }
    const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(cur.i));
    if (m) {
      if (m[0] === 'true' || m[0] === 'false' || m[0] === 'null') {
        for (let k = 0; k < m[0].length; k++) cur.adv();
        return;
      }
      for (let k = 0; k < m[0].length; k++) cur.adv();
      fail(`Unrecognized token '${m[0]}': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')`);
    }
    unexpected("expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
  };
  const str = (): void => {
    cur.adv();
    while (!cur.done && cur.ch !== '"') {
      if (cur.ch === '\\') cur.adv();
      cur.adv();
    }
    if (cur.done) fail('Unexpected end-of-input: was expecting closing quote for a string value');
    cur.adv();
  };
  const obj = (): void => {
    const sl = cur.line;
    const sc = cur.col;
    cur.adv();
    cur.ws();
    if (cur.ch === '}') return cur.adv();
    for (;;) {
      cur.ws();
      if (cur.done) eof('OBJECT', sl, sc);
      if (cur.ch !== '"') unexpected('was expecting double-quote to start field name');
      str();
      cur.ws();
      if (cur.done) eof('OBJECT', sl, sc);
      if (cur.ch !== ':') unexpected('was expecting a colon to separate field name and value');
      cur.adv();
      value();
      cur.ws();
      if (cur.done) eof('OBJECT', sl, sc);
      if (cur.ch === ',') {
        cur.adv();
        continue;
      }
      if (cur.ch === '}') return cur.adv();
      unexpected('was expecting comma to separate Object entries');
    }
  };
  const arr = (): void => {
    const sl = cur.line;
    const sc = cur.col;
    cur.adv();
    cur.ws();
    if (cur.ch === ']') return cur.adv();
    for (;;) {
      value();
      cur.ws();
      if (cur.done) eof('ARRAY', sl, sc);
      if (cur.ch === ',') {
        cur.adv();
        continue;
      }
      if (cur.ch === ']') return cur.adv();
      unexpected('was expecting comma to separate Array entries');
    }
  };
  try {
    value();
    return null;
  } catch (err) {
    if (err instanceof JsonSyntaxError) return err.message;
    throw err;
  }
}
