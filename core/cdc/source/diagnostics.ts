/**
 * A statement's diagnostics area (MySQL 8.0 Reference Manual, "SHOW WARNINGS"): the notes and
 * warnings it raised, which SHOW WARNINGS, SHOW COUNT(*) WARNINGS and @@warning_count read
 * afterwards. The value rules run inside SQLite's callbacks (the functions a statement calls for
 * each row), far from the statement, so they add to the diagnostics of the statement running now
 * rather than being handed one: the embedded source runs one statement at a time.
 */
import { statementScope } from './statement-scope.js';

export interface Condition {
  level: 'Note' | 'Warning';
  code: number;
  message: string;
}

/** max_error_count's default: the conditions kept; @@warning_count counts them all. */
export const MAX_ERROR_COUNT = 1024;

export class Diagnostics {
  readonly conditions: Condition[] = [];
  /** Every condition raised, kept or not. */
  count = 0;
  /** The statement has IGNORE: a row a duplicate key skips is a warning. */
  ignoring = false;
  /** Rows a duplicate key skipped under IGNORE (the info's Duplicates). */
  duplicates = 0;
  /** The row a condition names ("at row N"): the ordinal of the row the statement is on (current_row_for_condition). */
  private row = 0;
  private lastRowid: number | undefined;

  /** The ordinal of the row with this rowid, counting a new one each time the rowid changes (an UPDATE stores a row's columns one after another). */
  rowOf(rowid: number): number {
    if (rowid !== this.lastRowid) {
      this.lastRowid = rowid;
      this.row++;
    }
    return this.row;
  }

  add(c: Condition): void {
    this.count++;
    if (this.conditions.length < MAX_ERROR_COUNT) this.conditions.push(c);
  }
}

const area = statementScope<Diagnostics>();

/** Runs `run` with `into` as the diagnostics area conditions are added to. */
export function collecting<T>(into: Diagnostics, run: () => T): T {
  return area.run(into, run);
}

/** A warning (or note) for the statement running now; nothing outside a statement. */
export function warn(code: number, message: string, level: Condition['level'] = 'Warning'): void {
  area.current?.add({ level, code, message });
}

/** loupe_row(rowid): the ordinal of the row the running statement is on (1 outside a statement). */
export function currentRow(rowid: number): number {
  return area.current?.rowOf(rowid) ?? 1;
}

/** loupe_duplicate(message): a row a duplicate key skipped, a warning under IGNORE (REPLACE and upserts resolve the duplicate instead). */
export function duplicateSkipped(message: string): void {
  const d = area.current;
  if (!d?.ignoring) return;
  d.duplicates++;
  warn(1062, message);
}

/** Whether the statement running is INSERT/UPDATE … IGNORE, which turns a row's errors into warnings and skips the row. */
export function ignoring(): boolean {
  return area.current?.ignoring === true;
}

/** Runs `run` with its conditions dropped: rules applied to check a value, not to store it. */
export function silently<T>(run: () => T): T {
  return collecting(new Diagnostics(), run);
}
