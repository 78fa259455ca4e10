/** Turns JSON.parse failures into Elasticsearch's parsing_exception with line and col. */
import { EsError, parsingError } from '../errors.js';

export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const pos = /position (\d+)/.exec(message);
    const offset = pos ? Number(pos[1]) : text.length;
    const { line, col } = lineCol(text, offset);
    throw new EsError('parsing_exception', `Failed to parse request body: ${message.replace(/ in JSON at position \d+.*$/, '')} at [line: ${line}, column: ${col}]`, 400, { line, col });
  }
}

export function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < Math.min(offset, text.length); i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, col: offset - last };
}

/** Where a key first appears in the raw body, for errors about a known key (unknown query, bad value). */
export function keyPosition(text: string | undefined, key: string): { line: number; col: number } {
  if (!text) return { line: 1, col: 1 };
  const at = text.indexOf(JSON.stringify(key));
  if (at < 0) return { line: 1, col: 1 };
  return lineCol(text, at + JSON.stringify(key).length + 1);
}

export function parsingAt(text: string | undefined, key: string, reason: string): EsError {
  const { line, col } = keyPosition(text, key);
  return parsingError(reason, line, col);
}
