/** An error in the real system's words, with which system said it and a plain line with the fix. */
import type { Failure } from '../store.js';

export function FailureBox({ failure, title, note }: { failure: Failure; title?: string; /** Where the UI shows more (e.g. marked in the editor). */ note?: string }) {
  return (
    <div className="cdc-failure" role="alert">
      <strong>{title ?? `${failure.system} refused it`}</strong>
      <pre className="cdc-failure-text">{failure.text}</pre>
      {failure.hint && <p className="cdc-failure-hint">{failure.hint}</p>}
      {note && <p className="cdc-failure-hint cdc-muted">{note}</p>}
    </div>
  );
}
