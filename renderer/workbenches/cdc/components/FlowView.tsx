/**
 * One change followed through the pipeline: its binlog position, the topic offset its message
 * got, the insert block (with ClickHouse's dedup token) that delivered it and the part holding it,
 * with the time from commit to insert; and the live counters of the stages while changes flow.
 */
import { useShallow } from 'zustand/react/shallow';
import { useStream, type StageSeries } from '../stream-store.js';
import { FailureBox } from './FailureBox.js';

function Spark({ series, label }: { series: StageSeries; label: string }) {
  const max = Math.max(1, ...series.samples);
  const w = 160;
  const h = 32;
  const pts = series.samples.map((v, i) => `${(i / Math.max(1, series.samples.length - 1)) * w},${h - (v / max) * (h - 2) - 1}`).join(' ');
  const last = series.samples[series.samples.length - 1] ?? 0;
  return (
    <figure className="cdc-spark">
      <figcaption>
        {label}: <strong>{series.total.toLocaleString('en')}</strong> <span className="cdc-muted">({last.toLocaleString('en')}/s)</span>
      </figcaption>
      <svg width={w} height={h} role="img" aria-label={`${label}, records per second over the last minute, peak ${max.toLocaleString('en')}`}>
        <polyline points={pts} fill="none" stroke="var(--accent)" strokeWidth="1.5" />
      </svg>
    </figure>
  );
}

const OPS = { c: 'insert', u: 'update', d: 'delete' } as const;
/** The time one hop took, kept on one line; clocks of one machine, so never below zero but for rounding. */
const hop = (from: number, to: number) => <span className="cdc-hop-time">{`${Math.max(0, to - from).toLocaleString('en')} ms`}</span>;

export function FlowView() {
  const { flow, flowError, stages } = useStream(useShallow((s) => ({ flow: s.flow, flowError: s.flowError, stages: s.stages })));
  return (
    <section className="panel cdc-flow" aria-labelledby="cdc-flow-title">
      <div className="cdc-panel-head">
        <h2 id="cdc-flow-title" className="section-title">
          Flow
        </h2>
        <div className="cdc-sparks" role="group" aria-label="Stage counters">
          <Spark series={stages.committed} label="transactions committed" />
          <Spark series={stages.produced} label="messages produced" />
          <Spark series={stages.consumed} label="messages consumed" />
          <Spark series={stages.inserted} label="rows inserted (ClickHouse)" />
        </div>
        <span className="cdc-spacer" />
        <button type="button" className="btn btn-small" onClick={() => void useStream.getState().loadFlow()}>
          Refresh flow
        </button>
      </div>
      {flowError && <FailureBox failure={flowError} />}
      {flow.length === 0 && !flowError && <p className="cdc-muted">No change of demo.customers yet: change a row and follow it here.</p>}
      <ol className="cdc-flow-list" aria-label="Recent changes through the pipeline">
        {flow.map((s) => {
          const block = s.blocks[0];
          return (
            <li key={`${s.source.file}:${s.source.pos}:${s.source.row}`} className="cdc-flow-item">
              <span className="cdc-hop">
                <strong>{OPS[s.source.op]}</strong> {s.source.key ? <code>{Object.entries(s.source.key).map(([k, v]) => `${k}=${String(v)}`).join(', ')}</code> : null}
                <br />
                <span className="cdc-muted">
                  binlog {s.source.file}:{s.source.pos} row {s.source.row}
                </span>
              </span>
              <span className="cdc-arrow" aria-hidden="true">
                →
              </span>
              <span className="cdc-hop">
                {s.messages.length ? (
                  s.messages.map((m) => (
                    <span key={`${m.connector}${m.offset}`}>
                      topic <code>{m.topic}</code>
                      <br />
                      <span className="cdc-muted">
                        partition {m.partition} offset {m.offset} · commit → topic {hop(s.source.ts, m.at)}
                      </span>
                    </span>
                  ))
                ) : (
                  <span className="cdc-muted">no message</span>
                )}
              </span>
              <span className="cdc-arrow" aria-hidden="true">
                →
              </span>
              <span className="cdc-hop">
                {block ? (
                  <>
                    insert block of {block.records} <br />
                    <code className="cdc-muted">{block.token}</code>
                    {s.messages[0] && <span className="cdc-muted"> · topic → insert {hop(s.messages[0].at, block.at)}</span>}
                  </>
                ) : s.messages.length && s.parts?.length ? (
                  <span className="cdc-muted">through the queue table and view (no sink block)</span>
                ) : (
                  <span className="cdc-muted">not delivered</span>
                )}
              </span>
              <span className="cdc-arrow" aria-hidden="true">
                →
              </span>
              <span className="cdc-hop">
                {s.parts?.length ? (
                  <>
                    part <code>{s.parts[s.parts.length - 1]!.part}</code>
                    {s.parts.length > 1 && <span className="cdc-muted"> (+{s.parts.length - 1} older versions)</span>}
                  </>
                ) : (
                  <span className="cdc-muted">{s.source.op === 'd' && block ? 'merged away' : 'no part'}</span>
                )}
                {block && (
                  <>
                    <br />
                    <span className="cdc-muted">commit → insert {hop(s.source.ts, block.at)}</span>
                  </>
                )}
              </span>
              {s.note && !(s.messages.length && s.parts?.length && !block) && <span className="cdc-muted cdc-flow-note">{s.note}</span>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
