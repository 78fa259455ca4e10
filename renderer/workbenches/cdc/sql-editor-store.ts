/**
 * What the SQL editor last ran, and the error it got: the scenario player and the quick form run
 * their own statements through the same store action, and their errors must not be marked in the
 * editor's unrelated text. A mark is shown only for the editor's own run, while its text is
 * unchanged.
 */
import { create } from 'zustand';
import { useCdc, type Failure } from './store.js';
import { sqlErrorSpot, type SqlSpot } from './sql-error-spot.js';

interface SqlEditorState {
  ran: { sql: string; error?: Failure } | null;
  /** Runs the editor's text (Run SQL, Ctrl/Cmd+Enter). */
  run(): Promise<void>;
}

export const useSqlEditor = create<SqlEditorState>((set) => ({
  ran: null,
  async run() {
    const sql = useCdc.getState().sql;
    set({ ran: null });
    await useCdc.getState().runSql();
    const r = useCdc.getState().sqlRun;
    set({ ran: { sql, ...(r.phase === 'error' && r.error ? { error: r.error } : {}) } });
  },
}));

/** Where to mark the current error in the editor: only the editor's own run's MySQL error, its text unchanged. */
export function editorErrorSpot(ran: SqlEditorState['ran'], current: Failure | undefined, text: string): SqlSpot | null {
  if (!ran?.error || ran.error !== current || ran.sql !== text || current.system !== 'MySQL') return null;
  return sqlErrorSpot(current.text, text);
}
