/** A failed call: which system said what (its code and words), then the fix in one plain line. */
import type { Explained } from '../explain-error.js';

export function ErrorExplained({ title, error, children }: { title: string; error: Explained; children?: React.ReactNode }) {
  return (
    <div className="fed-error" role="alert">
      <div className="fed-error-title">
        <strong>{title}</strong>
        <span className="fed-error-system">{error.system}</span>
      </div>
      <p className="fed-error-message">
        {error.code && <code className="fed-error-code">{error.code}</code>} {error.message}
      </p>
      <p className="fed-error-fix">
        <span className="fed-fix-label">Fix:</span> {error.fix}
      </p>
      {children}
    </div>
  );
}
