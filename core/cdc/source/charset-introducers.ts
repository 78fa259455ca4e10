/**
 * MySQL's charset introducers and prefixed string literals (MySQL 8.0 Reference Manual, "Character
 * Set Introducers", "String Literals", "Bit-Value Literals"): `_charset'text'`, `_charset X'hex'`,
 * `_charset 0xhex` and `_charset B'bits'` are the literal's bytes read in that character set,
 * `N'text'` is a national (utf8mb3) string, and `B'bits'` alone a binary string. mysqldump writes
 * `_binary 'bytes'` for a BLOB's value and b'101' for a BIT's, and MySQL writes `_utf8mb4'…'` into
 * a view's definition; SQLite knows none of these, so each was a syntax error (1064) or an unknown
 * column.
 *
 * Each is written as the value SQLite then reads: a binary string as x'…' (bytes), any other as a
 * plain literal of the text its bytes spell in the charset. The statement's text is utf8mb4 (the
 * connection's character set), so `_latin1'é'` is the two latin1 characters Ã© that é's UTF-8
 * bytes are, as on the server. A COLLATE after the literal is left for the rewrite that reads it.
 */
import { MySqlError } from './mysql-error.js';
import { sqliteLiteral, stringValue } from './mysql-strings.js';
import { significant, tokenize, type Token } from './sql-tokens.js';

/**
 * The character sets of SHOW CHARACTER SET (MySQL 8.0), by the WHATWG encoding that reads their
 * bytes; null for binary, '' for those without one here (read when their bytes are ASCII only).
 * MySQL's latin1 is cp1252.
 */
const CHARSETS: Record<string, string | null> = {
  binary: null,
  utf8mb4: 'utf-8',
  utf8mb3: 'utf-8',
  utf8: 'utf-8',
  ascii: 'ascii',
  latin1: 'windows-1252',
  latin2: 'iso-8859-2',
  latin5: 'iso-8859-9',
  latin7: 'iso-8859-13',
  greek: 'iso-8859-7',
  hebrew: 'iso-8859-8',
  cp1250: 'windows-1250',
  cp1251: 'windows-1251',
  cp1256: 'windows-1256',
  cp1257: 'windows-1257',
  cp866: 'ibm866',
  koi8r: 'koi8-r',
  koi8u: 'koi8-u',
  macroman: 'macintosh',
  tis620: 'windows-874',
  big5: 'big5',
  euckr: 'euc-kr',
  gb2312: 'gbk',
  gbk: 'gbk',
  gb18030: 'gb18030',
  sjis: 'shift_jis',
  cp932: 'shift_jis',
  ujis: 'euc-jp',
  eucjpms: 'euc-jp',
  ucs2: 'utf-16be',
  utf16: 'utf-16be',
  utf16le: 'utf-16le',
  utf32: 'utf-32',
  armscii8: '',
  cp850: '',
  cp852: '',
  dec8: '',
  geostd8: '',
  hp8: '',
  keybcs2: '',
  macce: '',
  swe7: '',
};

/** Whether a word is a charset introducer (`_utf8mb4`, `_binary`, in any case). */
export const isIntroducer = (word: string): boolean => word.startsWith('_') && Object.hasOwn(CHARSETS, word.slice(1).toLowerCase());

const encoder = new TextEncoder();

/**
 * The bytes of a literal that an introducer may precede: a quoted string (its value's UTF-8 bytes),
 * X'hex' / 0xhex, or B'bits' / 0bbits; undefined for anything else. MySQL pads an odd number of
 * hex digits, and bits short of a byte, with zeros on the left.
 */
export function literalBytes(text: string): Uint8Array | undefined {
  if (/^['"]/.test(text)) return encoder.encode(stringValue(text));
  const hex = /^x'([0-9a-f]*)'$|^0x([0-9a-f]+)$/i.exec(text);
  if (hex) {
    const digits = hex[1] ?? hex[2]!;
    return Buffer.from(digits.length % 2 ? `0${digits}` : digits, 'hex');
  }
  const bits = /^b'([01]*)'$|^0b([01]+)$/i.exec(text);
  if (bits) {
    const digits = bits[1] ?? bits[2]!;
    if (!digits) return new Uint8Array(0);
    const value = BigInt(`0b${digits}`);
    const hexDigits = value.toString(16);
    const bytes = Math.ceil(digits.length / 8);
    return Buffer.from(hexDigits.padStart(bytes * 2, '0'), 'hex');
  }
  return undefined;
}

/**
 * The bytes read in the charset: the text they spell, or the bytes themselves for binary. Bytes
 * the charset cannot read are ER_INVALID_CHARACTER_STRING (1300), as MariaDB 10.11 answers
 * `SELECT _utf8mb4 X'E9'`.
 */
export function introducedValue(charset: string, bytes: Uint8Array): string | Uint8Array {
  const name = charset.toLowerCase();
  const encoding = CHARSETS[name];
  if (encoding === null) return bytes;
  if (encoding === undefined) throw new MySqlError(1115, '42000', `Unknown character set: '${charset}'`);
  // Item::check_well_formed_result names up to three bytes from the first that is wrong
  const invalid = (at = 0) => new MySqlError(1300, 'HY000', `Invalid ${name === 'utf8' ? 'utf8mb3' : name} character string: '${Buffer.from(bytes.subarray(at, at + 3)).toString('hex').toUpperCase()}'`);
  // the wide charsets pad a literal short of a whole character with zeros on the left
  const width = { ucs2: 2, utf16: 2, utf16le: 2, utf32: 4 }[name];
  const whole = width && bytes.length % width ? Uint8Array.from([...new Uint8Array(width - (bytes.length % width)), ...bytes]) : bytes;
  // ascii's bytes past 127 are ?, as MariaDB 10.11 shows _ascii'é'
  if (encoding === 'ascii') return Buffer.from(whole).toString('latin1').replace(/[\x80-\xff]/g, '?');
  if (encoding === '') {
    if (whole.some((b) => b > 0x7f)) throw new MySqlError(1235, '42000', `This version of MySQL doesn't yet support '${name} text outside ASCII in the embedded source'`);
    return Buffer.from(whole).toString('latin1');
  }
  if (encoding === 'utf-8') {
    const bad = firstInvalidUtf8(whole, name !== 'utf8mb4');
    if (bad < whole.length) throw invalid(bad);
    return utf8Text(whole);
  }
  if (encoding === 'utf-32') {
    let out = '';
    for (let i = 0; i < whole.length; i += 4) {
      const cp = Buffer.from(whole.subarray(i, i + 4)).readUInt32BE(0);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) throw invalid();
      out += String.fromCodePoint(cp);
    }
    return out;
  }
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(whole);
  } catch {
    throw invalid();
  }
  return text;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function wellFormed(v: Uint8Array): boolean {
  try {
    utf8.decode(v);
    return true;
  } catch {
    return false;
  }
}

/** Where the bytes stop being UTF-8 (their length when they are); utf8mb3 (`bmp`) has no 4-byte characters. */
export function firstInvalidUtf8(v: Uint8Array, bmp = false): number {
  if (!bmp && wellFormed(v)) return v.length;
  for (let i = 0; i < v.length; ) {
    const b = v[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 && !bmp ? 4 : 0;
    if (n === 0 || i + n > v.length) return i;
    try {
      utf8.decode(v.subarray(i, i + n));
    } catch {
      return i;
    }
    i += n;
  }
  return v.length;
}

/** The bytes as UTF-8 text, each byte that is no part of a character as ?. */
export function utf8Text(v: Uint8Array): string {
  if (wellFormed(v)) return utf8.decode(v);
  let out = '';
  for (let i = 0; i < v.length; ) {
    const ok = firstInvalidUtf8(v.subarray(i));
    out += utf8.decode(v.subarray(i, i + ok));
    i += ok;
    if (i < v.length) {
      out += '?';
      i++;
    }
  }
  return out;
}

/** A value as SQLite reads it: bytes as x'…', text as a literal. */
const asSqlite = (v: string | Uint8Array): string => (typeof v === 'string' ? sqliteLiteral(v) : `x'${Buffer.from(v).toString('hex')}'`);

/** Whether a token is a quoted string. */
const isString = (t: Token | undefined): boolean => t?.kind === 'string';

/**
 * The prefixed literal that starts at significant token `i`: its value and the index of its last
 * token, or undefined when none starts there. Strings written next to each other are one
 * (`_utf8mb4'a' 'b'` is 'ab'), as MySQL joins them.
 */
function prefixedAt(t: Token[], i: number): { value: string | Uint8Array; last: number } | undefined {
  const word = t[i]!;
  if (word.kind !== 'word') return undefined;
  const next = t[i + 1];
  const touching = next !== undefined && next.start === word.end;
  // N'text': a national string, in utf8mb3
  if (/^n$/i.test(word.text) && touching && isString(next) && next!.text.startsWith("'")) {
    const { text, last } = joinedStrings(t, i + 1);
    return { value: introducedValue('utf8mb3', encoder.encode(text)), last };
  }
  // B'bits' alone: a binary string
  if (/^b$/i.test(word.text) && touching && isString(next) && next!.text.startsWith("'")) {
    const bytes = literalBytes(word.text + next!.text);
    if (!bytes) throw new MySqlError(1064, '42000', `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${word.text}${next!.text}' at line 1`);
    return { value: bytes, last: i + 1 };
  }
  if (!isIntroducer(word.text) || !next) return undefined;
  const charset = word.text.slice(1);
  if (isString(next)) {
    const { text, last } = joinedStrings(t, i + 1);
    checkCollation(charset, t, last);
    return { value: introducedValue(charset, encoder.encode(text)), last };
  }
  // _charset X'…' / B'…' (the prefix touching its quote) or 0x… / 0b…
  const after = t[i + 2];
  const prefixed = next.kind === 'word' && /^[xb]$/i.test(next.text) && isString(after) && after!.start === next.end ? next.text + after!.text : undefined;
  const bytes = prefixed ? literalBytes(prefixed) : next.kind === 'number' && /^0[xb]/i.test(next.text) ? literalBytes(next.text) : undefined;
  if (!bytes) return undefined;
  const last = prefixed ? i + 2 : i + 1;
  checkCollation(charset, t, last);
  return { value: introducedValue(charset, bytes), last };
}

/**
 * A COLLATE after an introduced literal must be one of its charset's: ER_COLLATION_CHARSET_MISMATCH
 * (1253) otherwise, as `SELECT _utf8mb4'x' COLLATE latin1_bin` is on the server. (utf8 is
 * utf8mb3, whose collations MySQL 8.0 names either way.)
 */
function checkCollation(charset: string, t: Token[], last: number): void {
  if (!/^collate$/i.test(t[last + 1]?.text ?? '') || !t[last + 2]) return;
  const collation = t[last + 2]!.text.replace(/^([`'"])([\s\S]*)\1$/, '$2');
  const name = charset.toLowerCase();
  const prefixes = name === 'binary' ? ['binary'] : name === 'utf8' || name === 'utf8mb3' ? ['utf8_', 'utf8mb3_'] : [`${name}_`];
  if (prefixes.some((p) => collation.toLowerCase().startsWith(p) || collation.toLowerCase() === p)) return;
  throw new MySqlError(1253, '42000', `COLLATION '${collation}' is not valid for CHARACTER SET '${name === 'utf8' ? 'utf8mb3' : name}'`);
}

/** The value of the strings from token `i` on that follow each other, joined. */
function joinedStrings(t: Token[], i: number): { text: string; last: number } {
  let text = stringValue(t[i]!.text);
  let last = i;
  while (isString(t[last + 1])) text += stringValue(t[++last]!.text);
  return { text, last };
}

/** Whether the statement may hold a prefixed literal (most do not, and are returned unread). */
const MAYBE_PREFIXED = /(?<![\w$])(?:_[a-z][a-z0-9]*\s*(?:['"]|[xb]'|0[xb])|[nb]')/i;

/** The statement with each introduced, national and bit literal written as the value SQLite reads. */
export function rewriteIntroducers(sql: string): string {
  if (!MAYBE_PREFIXED.test(sql)) return sql;
  const t = tokenize(sql).filter(significant);
  let out = '';
  let at = 0;
  for (let i = 0; i < t.length; i++) {
    const found = prefixedAt(t, i);
    if (!found) continue;
    out += `${sql.slice(at, t[i]!.start)}${asSqlite(found.value)}`;
    at = t[found.last]!.end;
    i = found.last;
  }
  return at === 0 ? sql : out + sql.slice(at);
}

/**
 * The text of a prefixed literal in a definition (`DEFAULT _utf8mb4'x'`, `N'x'`, `_binary 0x71`),
 * as its column keeps it, or undefined when `text` is none. Bytes are read as UTF-8, the column's
 * character set.
 */
export function introducedText(text: string): string | undefined {
  const t = tokenize(text).filter(significant);
  const found = t.length ? prefixedAt(t, 0) : undefined;
  if (!found || found.last !== t.length - 1) return undefined;
  const v = found.value;
  return typeof v === 'string' ? v : Buffer.from(v).toString('utf8');
}
