/**
 * Kafka Connect parses request bodies with Jackson, and its exception mapper turns a parse
 * failure into a 500 carrying Jackson's message. This reproduces those messages for the common
 * mistakes (trailing comma, unquoted name, missing colon, bad token, truncated body).
 */
const SOURCE = 'REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled)';

class JsonSyntaxError extends Error {}

export function jacksonParseError(text: string): string | null {
  let i = 0;
  let line = 1;
  let col = 1;
  const loc = () => `\n at [Source: ${SOURCE}; line: ${line}, column: ${col}]`;
  const fail = (msg: string): never => {
    throw new JsonSyntaxError(msg + loc());
  };
  const adv = () => {
    if (text[i] === '\n') {
      line++;
      col = 1;
    } else col++;
    i++;
  };
  const ws = () => {
    while (i < text.length && /[ \t\r\n]/.test(text[i]!)) adv();
  };
  const ch = (c: string) => `'${c}' (code ${c.codePointAt(0)})`;
  const unexpected = (what: string): never => {
    const c = text[i]!;
    // Jackson reports the column after consuming the character.
    adv();
    return fail(`Unexpected character (${ch(c)}): ${what}`);
  };
  const eof = (what: string, startLine: number, startCol: number): never =>
    fail(`Unexpected end-of-input: expected close marker for ${what} (start marker at [Source: ${SOURCE}; line: ${startLine}, column: ${startCol}])`);
  const value = (): void => {
    ws();
    if (i >= text.length) fail('No content to map due to end-of-input');
    const c = text[i]!;
    if (c === '{') return obj();
    if (c === '[') return arr();
    if (c === '"') return str();
    if (/[-0-9]/.test(c)) {
      while (i < text.length && /[-+0-9.eE]/.test(text[i]!)) adv();
      return;
    }
    const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i));
    if (m) {
      if (m[0] === 'true' || m[0] === 'false' || m[0] === 'null') {
        for (let k = 0; k < m[0].length; k++) adv();
        return;
      }
      for (let k = 0; k < m[0].length; k++) adv();
      fail(`Unrecognized token '${m[0]}': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')`);
    }
    unexpected("expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
  };
  const str = (): void => {
    adv();
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') adv();
      adv();
    }
    if (i >= text.length) fail('Unexpected end-of-input: was expecting closing quote for a string value');
    adv();
  };
  const obj = (): void => {
    const sl = line;
    const sc = col;
    adv();
    ws();
    if (text[i] === '}') return adv();
    for (;;) {
      ws();
      if (i >= text.length) eof('OBJECT', sl, sc);
      if (text[i] !== '"') unexpected('was expecting double-quote to start field name');
      str();
      ws();
      if (i >= text.length) eof('OBJECT', sl, sc);
      if (text[i] !== ':') unexpected('was expecting a colon to separate field name and value');
      adv();
      value();
      ws();
      if (i >= text.length) eof('OBJECT', sl, sc);
      if (text[i] === ',') {
        adv();
        continue;
      }
      if (text[i] === '}') return adv();
      unexpected('was expecting comma to separate Object entries');
    }
  };
  const arr = (): void => {
    const sl = line;
    const sc = col;
    adv();
    ws();
    if (text[i] === ']') return adv();
    for (;;) {
      value();
      ws();
      if (i >= text.length) eof('ARRAY', sl, sc);
      if (text[i] === ',') {
        adv();
        continue;
      }
      if (text[i] === ']') return adv();
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
