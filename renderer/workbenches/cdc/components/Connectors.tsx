/**
 * The connectors as Kafka Connect reports them: state per connector and task, failed first, the
 * trace of a FAILED one, pause/resume/restart, and the config with its diff against the last version.
 */
import { useEffect } from 'react';
import { useCdc } from '../store.js';
import { serviceByName, useShell } from '../../../store/shell.js';
import { useConnectorHistory } from '../connector-history-store.js';
import { FailureBox } from './FailureBox.js';
import { ConnectorConfig } from './ConnectorConfig.js';
import '../panels.css';

const stateClass = (s: string) => (s === 'RUNNING' ? 'cdc-state-ok' : s === 'FAILED' ? 'cdc-state-failed' : 'cdc-state-other');

export function Connectors() {
  const { connectors, connectorsError } = useCdc();
  const st = useCdc.getState();
  // the history is kept per Kafka Connect (embedded or the one in Settings)
  const worker = useShell((s) => serviceByName(s.services, 'connect')?.url) ?? 'connect';
  useEffect(() => {
    // a refresh that sees a config differ from the last one kept records it as a new version
    for (const c of connectors) useConnectorHistory.getState().record(worker, c.name, c.config, 'seen');
  }, [connectors, worker]);
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
              {/* the actions wrap together, not one under the other */}
              <span className="cdc-connector-actions">
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
              </span>
            </div>
            {c.topics.length > 0 && <div className="cdc-muted">topics: {c.topics.join(', ')}</div>}
            {[c.trace, ...c.tasks.map((t) => t.trace)].filter(Boolean).map((trace, i) => (
              <details key={i} className="cdc-trace" open={c.failed}>
                <summary>{c.failed ? 'Trace of the failure' : 'Warning'}</summary>
                <pre>{trace}</pre>
              </details>
            ))}
            <ConnectorConfig connector={c} worker={worker} />
          </li>
        ))}
      </ul>
    </section>
  );
}
