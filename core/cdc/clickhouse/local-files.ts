/**
 * The local file system as a ClickHouse server lets an HTTP client reach it, enforced in front
 * of chDB. chDB is clickhouse-local underneath: it reads and writes any path the process can,
 * relative to its working directory, and takes no user_files_path. A server refuses INTO OUTFILE
 * over HTTP (executeQuery runs with allow_into_outfile off) and INSERT … FROM INFILE
 * (InterpreterInsertQuery: the client reads that file), and keeps file() inside user_files
 * (StorageFile's checkCreationIsAllowed), relative paths included.
 *
 * Other ways clickhouse-local has to a path (the File table engine's path argument, the
 * Filesystem database engine, BACKUP … TO File) are not confined here; the HTTP interface
 * refuses requests a web page could make (browser-guard.ts), and a local process can read the
 * user's files anyway.
 */
import path from 'node:path';
import { ClickHouseError } from './errors.js';
import { isWord, quoteString, unquote, type Token } from './sql-lexer.js';

/** `sql` with every file() path made absolute inside `userFiles`; throws what a server would. */
export function confineLocalFiles(sql: string, tokens: Token[], userFiles: string): string {
  const edits: { start: number; end: number; text: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (isWord(t, 'INTO') && isWord(next, 'OUTFILE') && tokens[i + 2]?.kind === 'string') {
      throw new ClickHouseError(358, 'INTO_OUTFILE_NOT_ALLOWED', 'INTO OUTFILE is not allowed');
    }
    if (isWord(t, 'FROM') && isWord(next, 'INFILE') && tokens[i + 2]?.kind === 'string') {
      throw new ClickHouseError(78, 'UNKNOWN_TYPE_OF_QUERY', 'Query has infile and was send directly to server');
    }
    const name = t.kind === 'word' || (t.kind === 'quoted' && t.text.startsWith('`')) ? unquote(t) : '';
    if (name.toLowerCase() !== 'file' || next?.text !== '(') continue;
    const arg = tokens[i + 2];
    const jail = `${userFiles}${path.sep}`;
    if (arg?.kind !== 'string') {
      throw new ClickHouseError(291, 'DATABASE_ACCESS_DENIED', `Embedded ClickHouse takes the path of file() only as a string literal, so that it can keep it inside \`${jail}\``);
    }
    const resolved = path.resolve(userFiles, unquote(arg));
    // "/dev/null" is allowed, as on a server (for performance tests)
    if (resolved !== '/dev/null' && resolved !== userFiles && !resolved.startsWith(jail)) {
      throw new ClickHouseError(291, 'DATABASE_ACCESS_DENIED', `File \`${resolved}\` is not inside \`${jail}\``);
    }
    edits.push({ start: arg.start, end: arg.end, text: quoteString(resolved) });
  }
  let out = sql;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
