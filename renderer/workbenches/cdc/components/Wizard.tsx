/**
 * The pipeline wizard: variant 1 (sink connector) or 2 (queue table + materialized view), every
 * config and statement editable before it runs, then each step's outcome in its system's words.
 */
import { useCdc, type WizardStep } from '../store.js';
import { FailureBox } from './FailureBox.js';
import { DdlPair } from './DdlPair.js';
import '../panels.css';

function StepLine({ step }: { step: WizardStep }) {
  const mark = step.phase === 'done' ? '✓' : step.phase === 'error' ? '✗' : step.phase === 'running' ? '…' : '·';
  return (
    <li className={`cdc-step cdc-step-${step.phase}`}>
      <span className="cdc-step-mark" aria-hidden="true">
        {mark}
      </span>
      <span>
        <strong>{step.label}</strong> <span className="cdc-muted">({step.system})</span>
        {step.phase === 'running' && <span className="cdc-muted"> running…</span>}
        {step.detail && <span className="cdc-step-detail"> {step.detail}</span>}
        {step.error && <FailureBox failure={step.error} />}
      </span>
    </li>
  );
}

export function Wizard() {
  const { variant, template, edited, templateError, wizard, created, connectors } = useCdc();
  const st = useCdc.getState();
  const running = wizard.phase === 'running';
  const hasPipeline = !!created || connectors.length > 0;
  return (
    <section className="panel cdc-wizard" aria-labelledby="cdc-wizard-title">
      <div className="cdc-panel-head">
        <h2 id="cdc-wizard-title" className="section-title">
          Pipeline
        </h2>
        <div role="radiogroup" aria-label="Variant" className="cdc-variants">
          {([1, 2] as const).map((v) => (
            <label key={v} className={variant === v ? 'cdc-variant cdc-variant-on' : 'cdc-variant'}>
              <input type="radio" name="cdc-variant" checked={variant === v} disabled={running} onChange={() => void st.setVariant(v)} />
              {v === 1 ? 'Variant 1: sink connector' : 'Variant 2: queue table + materialized view'}
            </label>
          ))}
        </div>
        <span className="cdc-spacer" />
        <button type="button" className="btn btn-primary" disabled={!edited || running} onClick={() => void st.setUp()}>
          Set up pipeline
        </button>
        <button type="button" className="btn" disabled={running || !hasPipeline} onClick={() => void st.tearDown()}>
          Tear down
        </button>
      </div>
      {templateError && <FailureBox failure={templateError} title="The seed's pipeline could not be read" />}
      {!template && !templateError && <div className="cdc-skeleton" style={{ height: 80 }} aria-label="Loading the seed's pipeline" />}
      {edited && template && (
        <details className="cdc-configs" open={wizard.phase === 'idle' && !hasPipeline}>
          <summary>
            Configuration: source connector{edited.sink ? ', sink connector' : ''}, {edited.statements.map((s) => s.label.toLowerCase()).join(', ')} (from assets/cdc, editable)
          </summary>
          <div className="cdc-config-grid">
            <label className="cdc-config">
              <span>Source connector (POST /connectors)</span>
              <textarea spellCheck={false} wrap="off" value={edited.source} onChange={(e) => st.editSource(e.target.value)} rows={12} />
            </label>
            {edited.sink && (
              <label className="cdc-config">
                <span>Sink connector (POST /connectors)</span>
                <textarea spellCheck={false} wrap="off" value={edited.sink} onChange={(e) => st.editSink(e.target.value)} rows={12} />
              </label>
            )}
            {edited.statements.map((s, i) => (
              <DdlPair key={s.label} index={i} label={s.label} sql={s.sql} />
            ))}
          </div>
          <p className="cdc-muted cdc-note">
            Embedded ClickHouse is one node: it runs <code>ON CLUSTER</code> and <code>Replicated…MergeTree</code> as the single-node forms shown beside each statement,
            and says so again after each step; a ClickHouse server set in Settings runs them as written. The source connector points at the embedded source&apos;s own address (
            <code>
              {template.source.config['database.hostname']}:{template.source.config['database.port']}
            </code>
            ).
          </p>
        </details>
      )}
      {wizard.steps.length > 0 && wizard.phase !== 'done' && (
        <ol className="cdc-steps" aria-label="Set-up steps" aria-live="polite">
          {wizard.steps.map((s) => (
            <StepLine key={s.label} step={s} />
          ))}
        </ol>
      )}
      {wizard.phase === 'done' && (
        // once it runs, the steps fold away so the source and target fit on one screen
        <details className="cdc-done">
          <summary className="cdc-ok" role="status">
            The pipeline runs: change rows in the source below and watch their versions land in the target. ({wizard.steps.length} steps ran; show them)
          </summary>
          <ol className="cdc-steps" aria-label="Set-up steps">
            {wizard.steps.map((s) => (
              <StepLine key={s.label} step={s} />
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}
