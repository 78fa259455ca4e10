/**
 * Splits a script into statements at top-level semicolons, as the mysql client does: quotes
 * ('…', "…", `…`), comments (-- …, # …, /* … *\/) and escapes are respected. Empty statements
 * are dropped.
 */
export function splitStatements(script: string): string[] {
  const out: string[] = [];
  let cur = '';
  let i = 0;
  const n = script.length;
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
