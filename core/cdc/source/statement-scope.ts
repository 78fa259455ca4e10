/**
 * A value that belongs to the statement running now, for the SQL functions SQLite calls back
 * during it (row by row, far from the statement): its diagnostics area, its session's user
 * variables. The embedded source runs one statement at a time, so one slot per kind suffices;
 * `run` restores the outer value, so a statement run inside another (SET @v = (SELECT …)) nests.
 */
export interface StatementScope<T> {
  readonly current: T | undefined;
  run<R>(value: T, f: () => R): R;
}

export function statementScope<T>(): StatementScope<T> {
  let current: T | undefined;
  return {
    get current() {
      return current;
    },
    run(value, f) {
      const outer = current;
      current = value;
      try {
        return f();
      } finally {
        current = outer;
      }
    },
  };
}
