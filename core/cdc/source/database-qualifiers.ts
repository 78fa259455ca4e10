/**
 * The `db.` qualifiers of a statement's names, read as MySQL reads a dotted name: `a.b.c` is
 * column c of table b of database a; `a.b` is table b of database a where a table goes (after
 * FROM, JOIN, INTO, UPDATE, USING, and in a multi-table DELETE's list), but column b of table or
 * alias a in an expression. So where a database shares its name with a table or alias the
 * statement names (`SELECT w.id FROM w … WHERE x.id = w.id` in database w), `w.id` is a column
 * and keeps its qualifier.
 */
import { unquoteIdent } from './mysql-ddl.js';
import { maskQuoted, spliceText } from './sql-text.js';
import { namedTables } from './table-refs.js';

export interface DatabaseQualifier {
  database: string;
  /** Where `db.` starts in the text, and where the name after it starts. */
  from: number;
  to: number;
}

const QUALIFIED = /(`[^`]+`|\b[A-Za-z_][A-Za-z0-9_$]*)\s*\.\s*(?=`|[A-Za-z_])/g;
const PART_FOLLOWS = /^(?:`[^`]*`|[A-Za-z_][A-Za-z0-9_$]*)\s*\.\s*(?:`|[A-Za-z_*])/;

export function databaseQualifiers(sql: string, isDatabase: (name: string) => boolean): DatabaseQualifier[] {
  // most statements (a long INSERT … VALUES) have no dotted name: no need to read them
  if (!/[\w`]\s*\.\s*[A-Za-z_`]/.test(sql)) return [];
  const masked = maskQuoted(sql);
  let refs: ReturnType<typeof namedTables> | undefined;
  const out: DatabaseQualifier[] = [];
  for (const m of masked.matchAll(QUALIFIED)) {
    const from = m.index!;
    // the second part of a dotted name (`t.c` of `db.t.c`) is never a database
    if (/\.\s*$/.test(masked.slice(0, from))) continue;
    const database = unquoteIdent(sql.slice(from, from + m[1]!.length));
    if (!isDatabase(database)) continue;
    const to = from + m[0].length;
    if (!PART_FOLLOWS.test(masked.slice(to))) {
      refs ??= namedTables(sql);
      const asTable = refs.some((r) => r.from === from && r.database !== undefined);
      // `a.b` in an expression, where a is a table or alias of the statement: a column
      if (!asTable && refs.some((r) => r.alias.toLowerCase() === database.toLowerCase())) continue;
    }
    out.push({ database, from, to });
  }
  return out;
}

/** The text without the qualifiers given (found by databaseQualifiers in the same text). */
export function withoutQualifiers(sql: string, qualifiers: readonly DatabaseQualifier[]): string {
  return spliceText(sql, qualifiers.map((q) => ({ ...q, text: '' })));
}
