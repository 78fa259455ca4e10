/**
 * The built-in analyzers Elasticsearch offers for text fields: standard (UAX #29 words +
 * lowercase, no stop words — Elasticsearch's default), simple (runs of letters + lowercase),
 * whitespace (split on whitespace, case kept) and keyword (the whole value as one token).
 */
import { illegalArgument } from '../errors.js';
import { standardTokenize } from './standard-tokenizer.js';

export interface AnalyzedToken {
  token: string;
  start_offset: number;
  end_offset: number;
  type: string;
  position: number;
}

export interface Analyzer {
  readonly name: string;
  /** Whether terms are the lower-cased token text (else the token text as is). */
  readonly lowercase: boolean;
  /** Whether plain ASCII text may be split by asciiWordRanges (the standard tokenizer's words). */
  readonly asciiWords?: boolean;
  /** Token ranges of `text`, in order; the indexing fast path (no strings made). */
  ranges(text: string, emit: (start: number, end: number) => void): void;
  /** Terms only, in order; the indexing fast path. */
  terms(text: string): string[];
  /** Tokens with offsets, types and positions, as `_analyze` shows them. */
  tokens(text: string): AnalyzedToken[];
}

const lower = (s: string) => s.toLowerCase();

const standard: Analyzer = {
  name: 'standard',
  lowercase: true,
  asciiWords: true,
  ranges(text, emit) {
    standardTokenize(text, emit);
  },
  terms(text) {
    const out: string[] = [];
    standardTokenize(text, (s, e) => out.push(lower(text.slice(s, e))));
    return out;
  },
  tokens(text) {
    const out: AnalyzedToken[] = [];
    standardTokenize(text, (s, e, type) => out.push({ token: lower(text.slice(s, e)), start_offset: s, end_offset: e, type, position: out.length }));
    return out;
  },
};

function regexAnalyzer(name: string, re: RegExp, transform: (s: string) => string, lowercase: boolean): Analyzer {
  return {
    name,
    lowercase,
    ranges(text, emit) {
      for (const m of text.matchAll(re)) emit(m.index!, m.index! + m[0].length);
    },
    terms(text) {
      const out: string[] = [];
      for (const m of text.matchAll(re)) out.push(transform(m[0]));
      return out;
    },
    tokens(text) {
      const out: AnalyzedToken[] = [];
      for (const m of text.matchAll(re)) {
        out.push({ token: transform(m[0]), start_offset: m.index!, end_offset: m.index! + m[0].length, type: 'word', position: out.length });
      }
      return out;
    },
  };
}

const simple = regexAnalyzer('simple', /\p{L}+/gu, lower, true);
const whitespace = regexAnalyzer('whitespace', /[^\s]+/gu, (s) => s, false);

const keyword: Analyzer = {
  name: 'keyword',
  lowercase: false,
  ranges: (text, emit) => emit(0, text.length),
  terms: (text) => [text],
  tokens: (text) => [{ token: text, start_offset: 0, end_offset: text.length, type: 'word', position: 0 }],
};

const ANALYZERS: Record<string, Analyzer> = { standard, simple, whitespace, keyword, default: standard };

export const ANALYZER_NAMES = ['standard', 'simple', 'whitespace', 'keyword'] as const;

export function getAnalyzer(name: string): Analyzer {
  const a = ANALYZERS[name];
  if (!a) throw illegalArgument(`failed to find analyzer [${name}]`);
  return a;
}

export function hasAnalyzer(name: string): boolean {
  return name in ANALYZERS;
}
