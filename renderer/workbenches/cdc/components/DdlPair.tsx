/**
 * One ClickHouse statement of the wizard: the specification's cluster form (editable) beside the
 * form the configured ClickHouse will run (cdc.translateDdl: embedded ClickHouse's single-node
 * translation), with the notice saying what changed and why. Nothing runs until Set up pipeline.
 */
import { useEffect, useState } from 'react';
import { bridge } from '../../../bridge.js';
import { failureOf, useCdc, type Failure } from '../store.js';
import { FailureBox } from './FailureBox.js';

type Translated = { sql: string; notices: string[]; embedded: boolean };

/** The statement's embedded form, re-asked a moment after the last keystroke. */
function useTranslated(sql: string): { result?: Translated; failure?: Failure; pending: boolean } {
  const [state, setState] = useState<{ for: string; result?: Translated; failure?: Failure } | null>(null);
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      bridge()
        .invoke('cdc.translateDdl', { sql })
        .then(
          (result) => live && setState({ for: sql, result }),
          (err: unknown) => live && setState({ for: sql, failure: failureOf(err, 'ClickHouse') }),
        );
    }, 250);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [sql]);
  return { result: state?.result, failure: state?.failure, pending: state?.for !== sql };
}

/** The embedded form, read-only, its lines that differ from the cluster form marked. */
function EmbeddedText({ label, original, sql, rows }: { label: string; original: string; sql: string; rows: number }) {
  const kept = new Set(original.split('\n').map((l) => l.trim()));
  return (
    <pre className="cdc-embedded-form" role="textbox" aria-readonly="true" aria-multiline="true" aria-label={`Embedded form of ${label}`} tabIndex={0} style={{ height: `${rows * 1.5 + 1}em` }}>
      {sql.split('\n').map((line, i) => (
        <span key={i} className={kept.has(line.trim()) ? 'cdc-ddl-line' : 'cdc-ddl-line cdc-ddl-changed'} title={kept.has(line.trim()) ? undefined : 'Changed for embedded ClickHouse'}>
          {line || ' '}
        </span>
      ))}
    </pre>
  );
}

export function DdlPair({ index, label, sql }: { index: number; label: string; sql: string }) {
  const { result, failure, pending } = useTranslated(sql);
  const rows = Math.min(16, Math.max(8, sql.split('\n').length + 1));
  return (
    <div className="cdc-ddl-pair" role="group" aria-label={label}>
      <label className="cdc-config">
        <span>
          {label}: the specification&apos;s cluster form <span className="cdc-faint">(editable)</span>
        </span>
        <textarea spellCheck={false} wrap="off" className="cdc-ddl-text" value={sql} onChange={(e) => useCdc.getState().editStatement(index, e.target.value)} rows={rows} aria-label={`${label} (ClickHouse, the specification's cluster form)`} />
      </label>
      <div className="cdc-config">
        <span id={`cdc-embedded-${index}`}>
          {result && !result.embedded ? 'What the ClickHouse in Settings runs' : 'The embedded form it becomes'}
          {pending && <span className="cdc-faint"> (translating…)</span>}
        </span>
        {failure ? (
          <FailureBox failure={failure} title="Embedded ClickHouse cannot run this" />
        ) : (
          <EmbeddedText label={label} original={sql} sql={result ? result.sql || '-- (nothing: every statement becomes a no-op on one node)' : ''} rows={rows} />
        )}
        {result && result.embedded && result.notices.length > 0 && (
          <div className="cdc-notice" role="note" aria-label={`Notice for ${label}`}>
            <strong>How embedded ClickHouse (one node, no Keeper, no Kafka engine) runs it:</strong>
            <ul>
              {result.notices.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          </div>
        )}
        {result && result.embedded && result.notices.length === 0 && <p className="cdc-muted">Runs as written: nothing in it needs a cluster.</p>}
        {result && !result.embedded && <p className="cdc-muted">A real ClickHouse server runs the cluster form as written (ON CLUSTER, Replicated… engines and Keeper paths included).</p>}
      </div>
    </div>
  );
}
