/**
 * The answer of the embedded source's HTTP SQL endpoint: each statement's result without the
 * statement's text, which a client already has and which may be megabytes (a dump's INSERT of
 * 4.4 MB came back whole); a digest names it instead: its size, its SHA-256 and its first words.
 */
import { createHash } from 'node:crypto';
import type { StatementResult } from '../types.js';

/** How much of a statement the answer shows, to tell the results of a script apart. */
const HEAD_CHARS = 60;

export interface StatementDigest {
  /** Its size in UTF-8 bytes. */
  bytes: number;
  /** Hex SHA-256 of its UTF-8 bytes. */
  sha256: string;
  /** Its first characters, blanks folded, with `…` when it goes on. */
  head: string;
}

export type AnsweredResult = Omit<StatementResult, 'sql'> & { statement: StatementDigest };

export function digestOf(sql: string): StatementDigest {
  const folded = sql.trim().replace(/\s+/g, ' ');
  return {
    bytes: Buffer.byteLength(sql),
    sha256: createHash('sha256').update(sql).digest('hex'),
    head: folded.length > HEAD_CHARS ? `${folded.slice(0, HEAD_CHARS)}…` : folded,
  };
}

export function sqlAnswer(results: StatementResult[]): { results: AnsweredResult[] } {
  return { results: results.map(({ sql, ...rest }) => ({ ...rest, statement: digestOf(sql) })) };
}
