/**
 * The local file system as a ClickHouse server lets an HTTP client reach it, enforced in front
 * of chDB. chDB is clickhouse-local underneath: it reads and writes any path the process can,
 * relative to its working directory, and takes no user_files_path. A server refuses INTO OUTFILE
 * over HTTP (executeQuery runs with allow_into_outfile off) and INSERT … FROM INFILE
 * (InterpreterInsertQuery: the client reads that file), and keeps these paths inside user_files,
 * relative ones included:
 *
 * - the file() table and scalar function's path (StorageFile's checkCreationIsAllowed);
 * - the File table engine's, when it has one (`File(TSV)` keeps its data in the table's directory);
 * - the Filesystem database engine's (DatabaseFilesystem);
 * - the SQLite database file of sqlite() and the SQLite engines (validateSQLiteDatabasePath).
 *
 * Other ways clickhouse-local has to a path (the *Local data-lake functions, dictionary FILE
 * sources) are not confined here; the HTTP interface refuses requests a web page could make
 * (browser-guard.ts), and a local process can read the user's files anyway. BACKUP … TO File is
 * refused by chDB itself (no backups.allowed_path).
 */
import path from 'node:path';
import { ClickHouseError } from './errors.js';
import { isWord, matchingClose, quoteString, splitArgs, unquote, type Token } from './sql-lexer.js';

/**
 * Which argument of which call is a path, and what a server says about one outside user_files.
 * Names are matched exactly: functions and engines are case-sensitive (FILE() is no function).
 */
const PATH_ARGUMENTS: Record<string, { arg: number; literalOnly: boolean; outside: (resolved: string, jail: string, given: string) => ClickHouseError }> = {
  file: { arg: 0, literalOnly: true, outside: fileOutside },
  // File(format[, path]): a path that is not a string is a file descriptor (0, stdin …)
  File: { arg: 1, literalOnly: false, outside: fileOutside },
  Filesystem: { arg: 0, literalOnly: false, outside: (_p, jail) => new ClickHouseError(36, 'BAD_ARGUMENTS', `Path must be inside user-files path: ${jail}`) },
  sqlite: { arg: 0, literalOnly: false, outside: (_p, _j, given) => sqliteOutside(given) },
  // the SQLite table engine (path, table) and database engine (path)
  SQLite: { arg: 0, literalOnly: false, outside: (_p, _j, given) => sqliteOutside(given) },
};

/** StorageFile's checkCreationIsAllowed. */
function fileOutside(resolved: string, jail: string): ClickHouseError {
  return new ClickHouseError(291, 'DATABASE_ACCESS_DENIED', `File \`${resolved}\` is not inside \`${jail}\``);
}

function sqliteOutside(given: string): ClickHouseError {
  return new ClickHouseError(481, 'PATH_ACCESS_DENIED', `SQLite database file path '${given}' must be inside 'user_files' directory`);
}

/** `sql` with every confined path made absolute inside `userFiles`; throws what a server would. */
export function confineLocalFiles(sql: string, tokens: Token[], userFiles: string): string {
  const edits: { start: number; end: number; text: string }[] = [];
  const jail = `${userFiles}${path.sep}`;
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
    const rule = Object.hasOwn(PATH_ARGUMENTS, name) ? PATH_ARGUMENTS[name] : undefined;
    if (!rule || next?.text !== '(') continue;
    const close = matchingClose(tokens, i + 1);
    const arg = splitArgs(tokens, i + 1, close < 0 ? tokens.length : close)[rule.arg];
    const literal = arg?.length === 1 && arg[0]!.kind === 'string' ? arg[0]! : undefined;
    if (!literal) {
      if (rule.literalOnly) {
        throw new ClickHouseError(291, 'DATABASE_ACCESS_DENIED', `Embedded ClickHouse takes the path of ${name}() only as a string literal, so that it can keep it inside \`${jail}\``);
      }
      continue;
    }
    const given = unquote(literal);
    const resolved = path.resolve(userFiles, given);
    // "/dev/null" is allowed, as on a server (for performance tests)
    if (resolved !== '/dev/null' && resolved !== userFiles && !resolved.startsWith(jail)) throw rule.outside(resolved, jail, given);
    edits.push({ start: literal.start, end: literal.end, text: quoteString(resolved) });
  }
  let out = sql;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
