/**
 * Where in the SQL text a MySQL error points, so the editor can mark it: a syntax error's
 * `near '…' at line N` (MySQL counts lines from the failing statement's start and quotes at most
 * 80 characters from where parsing stopped; `near ''` means it stopped at the end), and the name an
 * unknown table or column error quotes. Errors that name no place (a duplicate key) give null.
 */
export interface SqlSpot {
  /** 1-based, as Monaco counts. */
  line: number;
  startColumn: number;
  endColumn: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function spotOf(text: string, index: number, length: number): SqlSpot {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  const startColumn = index - before.lastIndexOf('\n');
  // a mark ends on its own line
  const nl = text.indexOf('\n', index);
  const end = Math.min(index + Math.max(1, length), nl < 0 ? text.length : nl);
  return { line, startColumn, endColumn: startColumn + Math.max(1, end - index) };
}

/** The first match of `re` at or after the start of `fromLine` (1-based), else anywhere. */
function find(text: string, re: RegExp, fromLine = 1): { index: number; length: number } | null {
  const offset = text.split('\n').slice(0, fromLine - 1).reduce((n, l) => n + l.length + 1, 0);
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
  g.lastIndex = Math.min(offset, text.length);
  const m = g.exec(text) ?? (offset > 0 ? new RegExp(re.source, re.flags.replace('g', '')).exec(text) : null);
  return m ? { index: m.index, length: m[0].length } : null;
}

export function sqlErrorSpot(error: string, sql: string): SqlSpot | null {
  const syntax = /near '([\s\S]*)' at line (\d+)\s*$/.exec(error);
  if (syntax) {
    const near = syntax[1]!;
    const line = Number(syntax[2]);
    if (near === '') {
      // parsing stopped at the end of the text: mark its last character
      const trimmed = sql.replace(/[\s;]+$/, '');
      return trimmed ? spotOf(sql, trimmed.length - 1, 1) : null;
    }
    const head = near.split('\n')[0]!.trim();
    const word = /^\S+/.exec(head)?.[0] ?? head;
    const hit = find(sql, new RegExp(escape(head)), line) ?? find(sql, new RegExp(escape(word)), line);
    if (hit) return spotOf(sql, hit.index, word.length);
    const lines = sql.split('\n');
    const l = Math.min(Math.max(1, line), lines.length);
    return { line: l, startColumn: 1, endColumn: (lines[l - 1]?.length ?? 0) + 1 };
  }
  // ERROR 1146: Table 'demo.x' doesn't exist; ERROR 1054: Unknown column 'c' in 'field list'
  const named = /Table '([^']+)' doesn't exist/.exec(error) ?? /Unknown column '([^']+)'/.exec(error) ?? /Unknown table '([^']+)'/.exec(error);
  if (named) {
    const full = named[1]!;
    const last = full.split('.').pop()!;
    const parts = full.split('.').map((p) => '`?' + escape(p) + '`?');
    const qualified = find(sql, new RegExp(`(?<![\\w$])${parts.join('\\s*\\.\\s*')}(?![\\w$])`, 'i'));
    const hit = qualified ?? find(sql, new RegExp(`(?<![\\w$.])\`?${escape(last)}\`?(?![\\w$])`, 'i'));
    return hit ? spotOf(sql, hit.index, hit.length) : null;
  }
  return null;
}
