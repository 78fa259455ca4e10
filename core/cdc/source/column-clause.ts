/**
 * Which clause MySQL 8.0 names in `ERROR 1054 … Unknown column 'x' in '<clause>'`. MySQL resolves
 * a statement's names clause by clause — the select list and SET/VALUES ('field list'), then ON,
 * WHERE, GROUP BY, HAVING, ORDER BY — and reports the first clause where the name fails, so a name
 * used in several clauses is reported for the earliest of them in that order.
 */
const ORDER = ['field list', 'on clause', 'where clause', 'group statement', 'having clause', 'order clause'] as const;
export type ColumnClause = (typeof ORDER)[number];

const CLAUSE_WORDS: [RegExp, ColumnClause | null][] = [
  [/^(select|set|values|value|insert|update|replace)$/i, 'field list'],
  [/^on$/i, 'on clause'],
  [/^where$/i, 'where clause'],
  [/^group$/i, 'group statement'],
  [/^having$/i, 'having clause'],
  [/^order$/i, 'order clause'],
  [/^(from|join|limit|using|into)$/i, null],
];

/** The clause of `sql` in which MySQL would report the unknown `column` (`name` or `t.name`). */
export function unknownColumnClause(sql: string, column: string): ColumnClause {
  const want = column.toLowerCase();
  const seen = new Set<ColumnClause>();
  let clause: ColumnClause | null = 'field list';
  // words, quoted names and strings; strings are skipped, names may be `t`.`c` or t.c
  const re = /'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|((?:`[^`]*`|[A-Za-z0-9_$]+)(?:\s*\.\s*(?:`[^`]*`|[A-Za-z0-9_$]+))*)/g;
  for (let m; (m = re.exec(sql)); ) {
    if (!m[1]) continue;
    const word = m[1];
    const kw = CLAUSE_WORDS.find(([r]) => r.test(word));
    if (kw) {
      clause = kw[1];
      continue;
    }
    const name = word.replace(/`/g, '').replace(/\s+/g, '').toLowerCase();
    if (clause && (name === want || name.endsWith(`.${want}`))) seen.add(clause);
  }
  return ORDER.find((c) => seen.has(c)) ?? 'field list';
}
