/** The loading, error and empty states every screen shows the same way. */
import type { ReactNode } from 'react';

export function Loading({ what }: { what: string }) {
  return (
    <div className="placeholder" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      Loading {what}…
    </div>
  );
}

export function ErrorState({ title, message, onRetry }: { title: string; message: string; onRetry?: () => void }) {
  return (
    <div className="placeholder placeholder-error" role="alert">
      <strong>{title}</strong>
      <span className="placeholder-message">{message}</span>
      {onRetry && (
        <button type="button" className="btn" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="placeholder">{children}</div>;
}
