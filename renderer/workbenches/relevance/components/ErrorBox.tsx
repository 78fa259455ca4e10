/** An error in Elasticsearch's words, then one plain line. */
import type { ShownError } from '../lib/errors.js';

export function ErrorBox({ error, title }: { error: ShownError; title: string }) {
  return (
    <div className="rel-error" role="alert">
      <strong>{title}</strong>
      <code className="rel-error-es">
        {error.message}
        {error.line && !/\[line:? ?\d/.test(error.message) ? ` [line ${error.line}, column ${error.col}]` : ''}
      </code>
      <span>{error.plain}</span>
    </div>
  );
}
