/** An error in the real system's words, with which system said it and a plain line with the fix. */
import type { Failure } from '../store.js';

export function FailureBox({ failure, title }: { failure: Failure; title?: string }) {
  return (
    <div className="cdc-failure" role="alert">
      <strong>{title ?? `${failure.system} refused it`}</strong>
      <pre className="cdc-failure-text">{failure.text}</pre>
      {failure.hint && <p className="cdc-failure-hint">{failure.hint}</p>}
    </div>
  );
}
