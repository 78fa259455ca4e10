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
  const out: string[] = [];
  let script = input;
  let cur = '';
  let i = 0;
  let n = script.length;
  while (i < n) {
    const c = script[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n) {
        if (script[j] === '\\' && c !== '`') j += 2;
        else if (script[j] === c && script[j + 1] === c) j += 2;
        else if (script[j] === c) break;
        else j++;
      }
      cur += script.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if ((c === '-' && script[i + 1] === '-' && /\s|$/.test(script[i + 2] ?? '')) || c === '#') {
      const j = script.indexOf('\n', i);
      i = j < 0 ? n : j;
      continue;
    }
    if (c === '/' && script[i + 1] === '*') {
      const j = script.indexOf('*/', i + 2);
      const executable = script[i + 2] === '!' && j >= 0 ? /^!(\d{5,6})?/.exec(script.slice(i + 2, j)) : null;
      if (executable && (executable[1] === undefined || Number(executable[1]) <= SERVER_VERSION)) {
        // the comment's text takes its place and is read like the rest of the statement
        script = `${script.slice(0, i)} ${script.slice(i + 2 + executable[0].length, j)} ${script.slice(j + 2)}`;
        n = script.length;
        continue;
      }
      i = j < 0 ? n : j + 2;
      cur += ' ';
      continue;
    }
    if (c === ';') {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      i++;
      continue;
    }
    cur += c;
    i++;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
