/**
 * SAVEPOINT, ROLLBACK [WORK] TO [SAVEPOINT] and RELEASE SAVEPOINT as MySQL runs them
 * (sql/transaction.cc): a transaction keeps its savepoints in order; setting a name again moves it
 * to the end; rolling back to one keeps it and drops the later ones; releasing one drops it and the
 * later ones. Names compare case-insensitively (find_savepoint compares in the system character
 * set). A name not in the list is ER_SP_DOES_NOT_EXIST.
 *
 * Each savepoint is an SQLite savepoint once the transaction has written (the embedded source begins
 * its SQLite transaction at the first write, when it knows the database), so rolling back undoes
 * the rows and the change log's captured row events together.
 */
import { unquoteIdent } from './mysql-ddl.js';
import { MySqlError } from './mysql-error.js';

export type SavepointStatement = { kind: 'set' | 'rollback' | 'release'; name: string };

const IDENT = '(`(?:[^`]|``)+`|[\\w$]+)';
const SET = new RegExp(`^savepoint\\s+${IDENT}\\s*;?$`, 'i');
const ROLLBACK = new RegExp(`^rollback(?:\\s+work)?\\s+to\\s+(?:savepoint\\s+)?${IDENT}\\s*;?$`, 'i');
const RELEASE = new RegExp(`^release\\s+savepoint\\s+${IDENT}\\s*;?$`, 'i');

/** The savepoint statement `sql` is, or undefined when it is none of the three. */
export function parseSavepoint(sql: string): SavepointStatement | undefined {
  const text = sql.trim();
  for (const [kind, re] of [['set', SET], ['rollback', ROLLBACK], ['release', RELEASE]] as const) {
    const m = re.exec(text);
    if (m) return { kind, name: unquoteIdent(m[1]!).replace(/``/g, '`') };
  }
  return undefined;
}

export interface Savepoint {
  /** As the user wrote it, for the error text. */
  name: string;
  /** The SQLite savepoint behind it, once the transaction has begun writing. */
  sqlite?: string;
  /** How many of the transaction's statements came before it. */
  statements: number;
}

export const savepointMissing = (name: string) => new MySqlError(1305, '42000', `SAVEPOINT ${name} does not exist`);

/** Index of the savepoint called `name` (the only one: setting a name again replaces it). */
export function findSavepoint(list: readonly Savepoint[], name: string): number {
  const key = name.toLowerCase();
  return list.findIndex((s) => s.name.toLowerCase() === key);
}
