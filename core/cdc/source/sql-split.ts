/** The server version executable comments are read against (`/*!80003 … *\/` runs on 8.0.3 and later). */
const SERVER_VERSION = 80036;

/**
 * Splits a script into statements at top-level semicolons, as the mysql client does: quotes
 * ('…', "…", `…`), comments (-- …, # …, /* … *\/) and escapes are respected. Empty statements
 * are dropped. MySQL's executable comments are part of the statement, as the server reads them:
 * `/*! … *\/` always, `/*!NNNNN … *\/` when the server is version NNNNN or later (mysqldump's
 * `/*!40014 SET FOREIGN_KEY_CHECKS=0 *\/`), so that a dump loads as it does into MySQL 8.0.
 */
export function splitStatements(input: string): string[] {
  return splitScript(input).map((s) => s.sql);
}

/** A statement of a script: as the server reads it (`sql`), and as it was written (`text`: comments kept, trimmed). */
export interface ScriptStatement {
  sql: string;
  text: string;
}

/** splitStatements, with each statement's text as written beside it (what MySQL's binary log keeps of a statement). */
export function splitScript(input: string): ScriptStatement[] {
  const out: ScriptStatement[] = [];
  const n = input.length;
  let cur = '';
  let start = 0;
  // inside an executable comment whose text is read: its closing `*/` is dropped
  let executing = false;
  let i = 0;
  while (i < n) {
    const c = input[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n) {
        if (input[j] === '\\' && c !== '`') j += 2;
        else if (input[j] === c && input[j + 1] === c) j += 2;
        else if (input[j] === c) break;
        else j++;
      }
      cur += input.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if ((c === '-' && input[i + 1] === '-' && /\s|$/.test(input[i + 2] ?? '')) || c === '#') {
      const j = input.indexOf('\n', i);
      i = j < 0 ? n : j;
      continue;
    }
    if (executing && c === '*' && input[i + 1] === '/') {
      executing = false;
      cur += ' ';
      i += 2;
      continue;
    }
    if (c === '/' && input[i + 1] === '*') {
      const j = input.indexOf('*/', i + 2);
      const executable = input[i + 2] === '!' && j >= 0 ? /^!(\d{5,6})?/.exec(input.slice(i + 2, j)) : null;
      if (executable && (executable[1] === undefined || Number(executable[1]) <= SERVER_VERSION)) {
        // the comment's text takes its place and is read like the rest of the statement
        executing = true;
        cur += ' ';
        i += 2 + executable[0].length;
        continue;
      }
      i = j < 0 ? n : j + 2;
      cur += ' ';
      continue;
    }
    if (c === ';') {
      if (cur.trim()) out.push({ sql: cur.trim(), text: input.slice(start, i).trim() });
      cur = '';
      start = i + 1;
      i++;
      continue;
    }
    cur += c;
    i++;
  }
  if (cur.trim()) out.push({ sql: cur.trim(), text: input.slice(start).trim() });
  return out;
}
