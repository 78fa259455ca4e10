/**
 * Word boundaries as Lucene's StandardTokenizer finds them (Unicode UAX #29 word break rules)
 * for ordinary text: letters and digits join into words, `_` joins anything, `.` and `'` join
 * letters on both sides (WB6/7), `.` and `,` join digits (WB11/12), ideographs and hiragana are
 * one token per character. Tokens longer than 255 characters are split, as Lucene does.
 */
import { TERM_HASH_PRIME, TERM_HASH_SEED } from './term-hash.js';

export type TokenType = '<ALPHANUM>' | '<NUM>' | '<IDEOGRAPHIC>' | '<HIRAGANA>' | '<KATAKANA>' | '<HANGUL>' | '<EMOJI>';

export interface RawToken {
  text: string;
  start: number;
  end: number;
  type: TokenType;
}

const enum C {
  Other,
  Letter,
  Numeric,
  ExtendNumLet,
  MidLetter,
  MidNumLet,
  MidNum,
  Ideo,
  Hira,
  Kata,
  Extend,
}

const LETTER = /[\p{L}]/u;
const MARK = /[\p{M}\u200d]/u;
const DIGIT = /\p{Nd}/u;
const HAN = /\p{Script=Han}/u;
const HIRA = /\p{Script=Hiragana}/u;
const KATA = /\p{Script=Katakana}/u;
const HANGUL = /\p{Script=Hangul}/u;

function classify(cp: number, ch: string): C {
  if (cp < 128) {
    if ((cp >= 97 && cp <= 122) || (cp >= 65 && cp <= 90)) return C.Letter;
    if (cp >= 48 && cp <= 57) return C.Numeric;
    if (cp === 95) return C.ExtendNumLet;
    if (cp === 46 || cp === 39) return C.MidNumLet; // . '
    if (cp === 58) return C.MidLetter; // :
    if (cp === 44 || cp === 59) return C.MidNum; // , ;
    return C.Other;
  }
  if (MARK.test(ch)) return C.Extend;
  if (HAN.test(ch)) return C.Ideo;
  if (HIRA.test(ch)) return C.Hira;
  if (KATA.test(ch)) return C.Kata;
  if (LETTER.test(ch)) return C.Letter;
  if (DIGIT.test(ch)) return C.Numeric;
  if (cp === 0x2019 || cp === 0x2018 || cp === 0x2024 || cp === 0xfe52 || cp === 0xff07 || cp === 0xff0e) return C.MidNumLet;
  if (cp === 0xb7 || cp === 0x387 || cp === 0x5f4 || cp === 0x2027 || cp === 0xfe13 || cp === 0xfe55 || cp === 0xff1a) return C.MidLetter;
  if (cp === 0x37e || cp === 0x589 || cp === 0x60c || cp === 0x60d || cp === 0x66c || cp === 0x7f8 || cp === 0x2044 || cp === 0xfe10 || cp === 0xfe14 || cp === 0xfe50 || cp === 0xfe54 || cp === 0xff0c || cp === 0xff1b) return C.MidNum;
  if (cp === 0x203f || cp === 0x2040 || cp === 0x2054 || cp === 0xfe33 || cp === 0xfe34 || cp === 0xfe4d || cp === 0xfe4e || cp === 0xfe4f || cp === 0xff3f) return C.ExtendNumLet;
  return C.Other;
}

const MAX_TOKEN_LENGTH = 255;

/** Class of the character at `pos` (low surrogates get Extend so they stick to their high half). */
function classOf(text: string, pos: number): C {
  const cp = text.charCodeAt(pos);
  if (cp < 128) return ASCII_CLASS[cp]!;
  const full = text.codePointAt(pos)!;
  if (cp >= 0xdc00 && cp <= 0xdfff) return C.Extend;
  return classify(full, full > 0xffff ? String.fromCodePoint(full) : text[pos]!);
}

const ASCII_CLASS: C[] = Array.from({ length: 128 }, (_, cp) => classify(cp, String.fromCharCode(cp)));

/** Calls `emit` for each token; the fast path for indexing (no objects per token). */
export function standardTokenize(text: string, emit: (start: number, end: number, type: TokenType) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = classOf(text, i);
    if (c === C.Other || c === C.Extend || c === C.MidLetter || c === C.MidNumLet || c === C.MidNum) {
      i++;
      continue;
    }
    const start = i;
    if (c === C.Ideo || c === C.Hira) {
      let end = i + (text.codePointAt(i)! > 0xffff ? 2 : 1);
      while (end < n && classOf(text, end) === C.Extend) end++;
      emit(start, end, c === C.Ideo ? (HANGUL.test(text[start]!) ? '<HANGUL>' : '<IDEOGRAPHIC>') : '<HIRAGANA>');
      i = end;
      continue;
    }
    // a word: letters/digits/katakana joined by the UAX#29 rules
    let hasLetter = c === C.Letter || c === C.Kata;
    let allKata = c === C.Kata;
    let prev = c; // last non-Extend class in the word
    let end = i + (text.codePointAt(i)! > 0xffff ? 2 : 1);
    while (end < n) {
      const d = classOf(text, end);
      if (d === C.Extend) {
        end++;
        continue;
      }
      if (d === C.Letter || d === C.Numeric || d === C.ExtendNumLet || d === C.Kata) {
        // Katakana joins only katakana (WB13) or via ExtendNumLet
        if ((d === C.Kata) !== (prev === C.Kata) && prev !== C.ExtendNumLet && d !== C.ExtendNumLet) break;
        if (d === C.Letter || d === C.Kata) hasLetter = true;
        if (d !== C.Kata) allKata = false;
        prev = d;
        end += text.codePointAt(end)! > 0xffff ? 2 : 1;
        continue;
      }
      // Mid* characters join only when the same kind follows (WB6/7, WB11/12)
      if (d === C.MidLetter || d === C.MidNumLet || d === C.MidNum) {
        let next = end + 1;
        while (next < n && classOf(text, next) === C.Extend) next++;
        if (next >= n) break;
        const e = classOf(text, next);
        const letters = prev === C.Letter && e === C.Letter && (d === C.MidLetter || d === C.MidNumLet);
        const digits = prev === C.Numeric && e === C.Numeric && (d === C.MidNum || d === C.MidNumLet);
        if (letters || digits) {
          prev = e;
          end = next + (text.codePointAt(next)! > 0xffff ? 2 : 1);
          continue;
        }
      }
      break;
    }
    const type: TokenType = allKata ? '<KATAKANA>' : hasLetter ? '<ALPHANUM>' : '<NUM>';
    for (let s = start; s < end; s += MAX_TOKEN_LENGTH) {
      const e = Math.min(end, s + MAX_TOKEN_LENGTH);
      emit(s, e, type);
    }
    i = end;
  }
}

const isAsciiAlnum = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);

/**
 * The indexing fast path for plain ASCII text: when every character is ASCII, there is no `_`
 * and no `. : ' , ;` touches a letter or digit, the UAX #29 words are exactly the runs of letters and digits.
 * Writes each run's start and end into `out.ranges` and the termHash of its lower-cased
 * characters into `out.hashes` (both grown as needed) and the count into `out.count`; returns
 * false when the text needs the full rules (standardTokenize).
 */
export function asciiWordRanges(text: string, out: { ranges: Int32Array; hashes: Int32Array; count: number }): boolean {
  let ranges = out.ranges;
  let hashes = out.hashes;
  let n = 0;
  const len = text.length;
  let i = 0;
  while (i < len) {
    let c = text.charCodeAt(i);
    if (isAsciiAlnum(c)) {
      const start = i;
      let h = TERM_HASH_SEED;
      do {
        if (c <= 90 && c >= 65) c += 32;
        h = Math.imul(h ^ c, TERM_HASH_PRIME);
        i++;
      } while (i < len && isAsciiAlnum((c = text.charCodeAt(i))));
      if (i - start > MAX_TOKEN_LENGTH) return false;
      if (2 * n + 2 > ranges.length) {
        const grown = new Int32Array(ranges.length * 2);
        grown.set(ranges);
        ranges = out.ranges = grown;
      }
      if (n >= hashes.length) {
        const grown = new Int32Array(Math.max(8, hashes.length * 2));
        grown.set(hashes);
        hashes = out.hashes = grown;
      }
      ranges[2 * n] = start;
      ranges[2 * n + 1] = i;
      hashes[n++] = h | 0;
      continue;
    }
    // `_` is a word character of its own (ExtendNumLet)
    if (c >= 128 || c === 95) return false;
    // . : ' , ; may join the letters or digits on either side (WB6/7, WB11/12)
    if (c === 46 || c === 58 || c === 39 || c === 44 || c === 59) {
      if ((i > 0 && isAsciiAlnum(text.charCodeAt(i - 1))) || (i + 1 < len && isAsciiAlnum(text.charCodeAt(i + 1)))) return false;
    }
    i++;
  }
  out.count = n;
  return true;
}
