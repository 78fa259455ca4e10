/**
 * Exactly-once, shown: the sink's state table as the ClickHouse connector keeps it, and a replay
 * of the whole topic through the same sink, after which the target holds as many physical rows as
 * before. A sink restart mid-batch is the Restart button of Connectors.
 */
import { useEffect } from 'react';
import { useCdc } from '../store.js';
import { useDedupe } from '../dedupe-store.js';
import { FailureBox } from './FailureBox.js';

export function DedupeDemo() {
  const connectors = useCdc((s) => s.connectors);
  const sink = connectors.find((c) => /ClickHouseSinkConnector$/.test(c.config['connector.class'] ?? ''));
  const { rows, table, error, replay } = useDedupe();
  const st = useDedupe.getState();
  const sinkName = sink?.name;
  // later reloads come with the target's refresh (hooks.ts)
  useEffect(() => {
    if (sinkName) void useDedupe.getState().load(sinkName);
  }, [sinkName]);
  if (!sink) return null;
  return (
    <section className="panel cdc-dedupe" aria-labelledby="cdc-dedupe-title">
      <div className="cdc-panel-head">
        <h2 id="cdc-dedupe-title" className="section-title">
          Exactly-once
        </h2>
        <span className="cdc-muted">
          sink <code>{sink.name}</code>, state table <code>{table ?? '…'}</code> (exactlyOnce={sink.config.exactlyOnce ?? 'false'})
        </span>
        <span className="cdc-spacer" />
        <button type="button" className="btn btn-small" disabled={replay.phase === 'running'} onClick={() => void st.replayFromStart()}>
          Replay from the start
        </button>
      </div>
      <p className="cdc-muted cdc-note">
        Before each insert block the sink writes BEFORE_PROCESSING with the block&apos;s offsets, after it AFTER_PROCESSING; a block whose offsets the state already covers is
        skipped, and a repeated block carries the same <code>insert_deduplication_token</code> (<code>topic-partition-first-last</code>), which ClickHouse drops.
      </p>
      {error && <FailureBox failure={error} />}
      <table className="table cdc-table" aria-label="Exactly-once state">
        <thead>
          <tr>
            <th scope="col">key (topic-partition)</th>
            <th scope="col">state</th>
            <th scope="col" className="num">
              minOffset
            </th>
            <th scope="col" className="num">
              maxOffset
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <td>
                <code>{r.key}</code>
              </td>
              <td>
                <span className={r.state === 'AFTER_PROCESSING' ? 'cdc-state cdc-state-ok' : 'cdc-state cdc-state-other'}>{r.state}</span>
              </td>
              <td className="num">
                <code>{r.minOffset}</code>
              </td>
              <td className="num">
                <code>{r.maxOffset}</code>
              </td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={4} className="cdc-empty-cell">
                No block written yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {replay.phase === 'running' && (
        <p className="cdc-muted" role="status">
          Replaying: {replay.step}…
        </p>
      )}
      {replay.phase === 'error' && replay.error && <FailureBox failure={replay.error} />}
      {replay.phase === 'done' && (
        <p className={replay.after === replay.before ? 'cdc-ok' : 'cdc-warn'} role="status">
          Replayed the topic from offset 0: the target held {replay.before?.toLocaleString('en')} physical rows before and {replay.after?.toLocaleString('en')} after
          {replay.after === replay.before ? ' — no duplicates.' : ` — ${((replay.after ?? 0) - (replay.before ?? 0)).toLocaleString('en')} rows more (a merge or new changes may also move this count).`}
        </p>
      )}
    </section>
  );
}
