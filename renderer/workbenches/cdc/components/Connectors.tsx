/** The connectors as Kafka Connect reports them: state per connector and task, failed first, the trace of a FAILED one, pause/resume/restart. */
import { useCdc } from '../store.js';
import { FailureBox } from './FailureBox.js';

const stateClass = (s: string) => (s === 'RUNNING' ? 'cdc-state-ok' : s === 'FAILED' ? 'cdc-state-failed' : 'cdc-state-other');

export function Connectors() {
  const { connectors, connectorsError } = useCdc();
  const st = useCdc.getState();
  const sorted = [...connectors].sort((a, b) => Number(b.failed) - Number(a.failed) || a.name.localeCompare(b.name));
  return (
    <section className="panel cdc-connectors" aria-labelledby="cdc-connectors-title">
      <div className="cdc-panel-head">
        <h2 id="cdc-connectors-title" className="section-title">
          Connectors
        </h2>
        <span className="cdc-spacer" />
        <button type="button" className="btn btn-small" onClick={() => void st.loadConnectors()}>
          Refresh connectors
        </button>
      </div>
      {connectorsError && <FailureBox failure={connectorsError} />}
      {sorted.length === 0 && !connectorsError && <p className="cdc-muted">No connectors yet: Set up pipeline creates them.</p>}
      <ul className="cdc-connector-list">
        {sorted.map((c) => (
          <li key={c.name} className={c.failed ? 'cdc-connector cdc-connector-failed' : 'cdc-connector'} aria-label={`Connector ${c.name}`}>
            <div className="cdc-row">
              <strong>{c.name}</strong>
              <span className="cdc-muted">{c.type}</span>
              <span className={`cdc-state ${stateClass(c.state)}`}>{c.state}</span>
              {c.tasks.map((t) => (
                <span key={t.id} className={`cdc-state ${stateClass(t.state)}`}>
                  task {t.id}: {t.state}
                </span>
              ))}
              <span className="cdc-spacer" />
              {c.state === 'PAUSED' ? (
                <button type="button" className="btn btn-small" onClick={() => void st.connectorAction(c.name, 'resume')}>
                  Resume
                </button>
              ) : (
                <button type="button" className="btn btn-small" onClick={() => void st.connectorAction(c.name, 'pause')}>
                  Pause
                </button>
              )}
              <button type="button" className="btn btn-small" onClick={() => void st.connectorAction(c.name, 'restart')}>
                Restart
              </button>
            </div>
            {c.topics.length > 0 && <div className="cdc-muted">topics: {c.topics.join(', ')}</div>}
            {[c.trace, ...c.tasks.map((t) => t.trace)].filter(Boolean).map((trace, i) => (
              <details key={i} className="cdc-trace" open={c.failed}>
                <summary>{c.failed ? 'Trace of the failure' : 'Warning'}</summary>
                <pre>{trace}</pre>
              </details>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
