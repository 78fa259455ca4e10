/**
 * The target table as ReplacingMergeTree keeps it: every physical version grouped by id with its
 * part, version and __deleted, the winner and why; FINAL beside it; and the table after
 * OPTIMIZE … FINAL CLEANUP, with the versions and ids the cleanup removed struck through. Each
 * table holds only a window around the rows in view, read and grouped by the host.
 */
import { useCallback, useMemo } from 'react';
import type { CdcTargetView, CdcTargetViewName, CdcVersionLine } from '../../../../core/host/contract.js';
import { useTarget } from '../target-store.js';
import { useStream } from '../stream-store.js';
import { collapsedInBlocks, collapsedText, type CollapsedChanges } from '../collapsed.js';
import { FailureBox } from './FailureBox.js';
import { VirtualTable, type Column } from './VirtualTable.js';

const text = (v: unknown) => (v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

function rawColumns(view: CdcTargetView | null, collapsed: Map<string, CollapsedChanges[]>): Column<CdcVersionLine>[] {
  const c = view?.columns ?? { key: 'id', version: 'created_at', deleted: '__deleted', all: [] };
  const others = c.all.filter((x) => x !== c.key && x !== c.version && x !== c.deleted);
  return [
    {
      id: 'key',
      header: c.key,
      numeric: true,
      cell: (r) => {
        const folded = r.first ? collapsed.get(r.key) : undefined;
        return (
          <>
            {r.first ? (
              <button type="button" className="cdc-link-btn" aria-label={`Explain id ${r.key}`} title="Follow this id from the source's changes to its rows" onClick={() => void useTarget.getState().explainKey(r.key)}>
                {r.key}
              </button>
            ) : (
              <span className="cdc-faint">{r.key}</span>
            )}
            {folded && (
              <span className="cdc-badge cdc-badge-folded" title={folded.map(collapsedText).join('\n')} aria-label={folded.map(collapsedText).join(' ')}>
                {folded.reduce((n, f) => n + f.ops.length, 0)} changes in one block
              </span>
            )}
          </>
        );
      },
    },
    ...others.map((name): Column<CdcVersionLine> => ({ id: name, header: name, cell: (r) => <code>{text(r.row[name])}</code> })),
    ...(c.version ? [{ id: 'version', header: `${c.version} (version)`, cell: (r: CdcVersionLine) => <code>{r.version}</code> }] : []),
    ...(c.deleted ? [{ id: 'deleted', header: c.deleted, numeric: true, cell: (r: CdcVersionLine) => (r.deleted ? <span className="cdc-badge cdc-badge-deleted">1 deleted</span> : <code>0</code>) }] : []),
    { id: '_part', header: '_part', cell: (r) => <code>{r.part}</code> },
    {
      id: 'wins',
      header: 'wins?',
      cell: (r) =>
        r.gone ? (
          <span className="cdc-badge cdc-badge-gone">removed by cleanup</span>
        ) : r.winner ? (
          <span className="cdc-badge cdc-badge-winner" title={`Winner: ${r.why}`}>
            ★ {REASON[r.reason]}
            {r.deleted ? ' · id vanishes' : ''}
          </span>
        ) : (
          <span className="cdc-faint">superseded</span>
        ),
    },
  ];
}

const FIRST = ['id', 'name', 'created_at', '__deleted'];
const rank = (c: string) => (FIRST.includes(c) ? FIRST.indexOf(c) : FIRST.length);
const finalColumns = (cols: string[]): Column<Record<string, unknown>>[] =>
  [...cols].sort((a, b) => rank(a) - rank(b)).map((c) => ({ id: c, header: c, numeric: c === 'id' || c === '__deleted', cell: (r) => <code>{text(r[c])}</code> }));

/** Short enough for the column; the whole sentence (with the version) is the badge's title. */
const REASON = { only: 'only version', highest: 'highest version', tie: 'tie: last inserted' } as const;

const lineKey = (r: CdcVersionLine) => `${r.part}|${r.key}|${r.version}`;
const lineClass = (r: CdcVersionLine) => [r.gone ? 'cdc-gone' : '', r.winner ? 'cdc-winner' : '', r.deleted ? 'cdc-deleted' : '', r.first ? 'cdc-group-first' : ''].join(' ');

function useRange(view: CdcTargetViewName) {
  return useCallback((start: number, end: number) => useTarget.getState().setRange(view, start, end), [view]);
}

/** One id's story: the source's changes beside the rows that hold it, and why some versions are not rows of their own. */
function KeyStory() {
  const story = useTarget((s) => s.story);
  if (story.phase === 'idle' || !story.key) return null;
  const d = story.data;
  return (
    <section className="cdc-story" aria-label={`Versions of id ${story.key}`}>
      <div className="cdc-panel-head">
        <h3 className="cdc-view-title">Why id {story.key} has these versions</h3>
        <span className="cdc-spacer" />
        <button type="button" className="btn btn-small" onClick={() => void useTarget.getState().explainKey(story.key!)}>
          Refresh
        </button>
        <button type="button" className="btn btn-small" onClick={() => void useTarget.getState().explainKey(null)}>
          Close
        </button>
      </div>
      {story.phase === 'running' && <p className="cdc-muted">Following id {story.key} through the source log, the topic and the target…</p>}
      {story.phase === 'error' && story.error && <FailureBox failure={story.error} />}
      {d && (
        <>
          <ul className="cdc-story-why">
            {d.explanations.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
          <div className="cdc-story-cols">
            <div>
              <h4 className="cdc-muted">Source changes ({d.changes.length})</h4>
              <ol className="cdc-story-list">
                {d.changes.map((c, i) => (
                  <li key={i}>
                    <code>{c.op === 'c' ? 'insert' : c.op === 'u' ? 'update' : 'delete'}</code> version <code>{c.version}</code>
                    {c.name !== undefined ? <> · {c.name}</> : null}{' '}
                    <span className="cdc-muted">
                      binlog {c.file}:{c.pos}
                      {c.offset !== undefined ? ` → offset ${c.offset}` : ''}
                      {c.block ? ` → block ${c.block.firstOffset}–${c.block.lastOffset}` : ''}
                    </span>
                  </li>
                ))}
              </ol>
            </div>
            <div>
              <h4 className="cdc-muted">Physical rows ({d.physical.length})</h4>
              <ol className="cdc-story-list">
                {d.physical.map((r, i) => (
                  <li key={i}>
                    version <code>{r.version}</code>
                    {r.deleted ? <span className="cdc-badge cdc-badge-deleted">deleted</span> : null} <span className="cdc-muted">part {r.part} (level {r.level})</span>
                  </li>
                ))}
              </ol>
            </div>
          </div>
        </>
      )}
    </section>
  );
}

export function TargetVisualizer() {
  const { views, exists, error, compare, compareError, cleanup, mergesStopped, mergesError } = useTarget();
  const flow = useStream((s) => s.flow);
  const st = useTarget.getState();
  const collapsed = useMemo(() => collapsedInBlocks(flow), [flow]);
  // after a cleanup, Raw keeps the table as it was just before it (what it removed struck through) until something new lands
  // (a merge that only renames the part changes nothing a user sees; a new version changes the count)
  const showBefore = !!cleanup.result && !!views.before && views.raw?.total === cleanup.result.versionsAfter;
  const rawView = showBefore ? views.before : views.raw;
  const rawCols = useMemo(() => rawColumns(rawView, collapsed), [rawView, collapsed]);
  const finalCols = useMemo(() => finalColumns(views.final?.columns.all ?? ['id', 'name', 'created_at', '__deleted']), [views.final?.columns.all]);
  const onRaw = useRange(showBefore ? 'before' : 'raw');
  const onFinal = useRange('final');
  const onAfter = useRange('after');
  const parts = (views.raw?.parts ?? []).filter((p) => p.active);
  const foldedIds = [...collapsed.keys()];
  const r = cleanup.result;

  return (
    <section className="panel cdc-target" aria-labelledby="cdc-target-title">
      <div className="cdc-panel-head">
        <h2 id="cdc-target-title" className="section-title">
          Target: default.customers (ReplacingMergeTree(created_at, __deleted))
        </h2>
        <span className="cdc-spacer" />
        <label className="cdc-switch">
          <input type="checkbox" role="switch" checked={mergesStopped} onChange={(e) => void st.setMerges(e.target.checked)} aria-describedby="cdc-merges-help" /> Pause merges
        </label>
        <button type="button" className="btn btn-small" onClick={() => void st.load().then(() => st.loadCompare())}>
          Refresh
        </button>
        <button type="button" className="btn btn-primary btn-small" disabled={!views.raw || cleanup.phase === 'running'} onClick={() => void st.runCleanup()}>
          Run OPTIMIZE FINAL CLEANUP
        </button>
      </div>
      <p id="cdc-merges-help" className="cdc-muted cdc-note">
        {mergesStopped
          ? 'Merges are paused (SYSTEM STOP MERGES): every insert block stays its own part, so versions stay visible until you run the cleanup.'
          : 'ClickHouse merges parts in the background within seconds, collapsing versions on its own; pause merges to keep them apart while you explain.'}{' '}
        FINAL reads the winner of each id at query time; <code>OPTIMIZE TABLE … FINAL CLEANUP</code> rewrites the parts so only winners remain and deleted ids vanish.
      </p>
      {mergesError && <FailureBox failure={mergesError} />}
      {error && <FailureBox failure={error} title="ClickHouse could not read the target" />}
      {cleanup.phase === 'error' && cleanup.error && <FailureBox failure={cleanup.error} />}
      {exists === false && !error && <p className="placeholder">Set up the pipeline to create the target table; its versions appear here as changes arrive.</p>}
      {exists === null && !error && (
        <p className="placeholder" role="status" aria-busy="true">
          Reading the target…
        </p>
      )}
      {exists && (
        <>
          <div className="cdc-views">
            <div className="cdc-view">
              <h3 className="cdc-view-title">
                Raw {showBefore ? '(just before the cleanup)' : '(before cleanup)'}{' '}
                <span className="cdc-muted">
                  {count(rawView?.total ?? 0, 'version')} · {count(rawView?.keys ?? 0, 'id')}
                </span>
              </h3>
              <VirtualTable
                label="Raw"
                rows={rawView?.lines ?? []}
                total={rawView?.total ?? 0}
                offset={rawView?.offset ?? 0}
                onRange={onRaw}
                columns={rawCols}
                rowKey={lineKey}
                rowClass={lineClass}
                empty="No versions yet: change a row in the source."
              />
            </div>
            <div className="cdc-view cdc-view-narrow">
              <h3 className="cdc-view-title">
                FINAL <span className="cdc-muted">{count(views.final?.total ?? 0, 'row')}</span>
              </h3>
              <VirtualTable
                label="FINAL"
                rows={views.final?.rows ?? []}
                total={views.final?.total ?? 0}
                offset={views.final?.offset ?? 0}
                onRange={onFinal}
                columns={finalCols}
                rowKey={(row, i) => `${text(row[views.final?.columns.key ?? 'id'])}|${i}`}
                empty="No rows."
              />
            </div>
            <div className="cdc-view">
              <h3 className="cdc-view-title">
                After cleanup{' '}
                {r && (
                  <span className="cdc-muted">
                    {count(r.versionsAfter, 'version')} · {new Date(r.at).toLocaleTimeString()}
                  </span>
                )}
              </h3>
              <VirtualTable
                label="After cleanup"
                rows={r ? (views.after?.lines ?? []) : []}
                total={r ? (views.after?.total ?? 0) : 0}
                offset={views.after?.offset ?? 0}
                onRange={onAfter}
                columns={rawCols}
                rowKey={lineKey}
                rowClass={(l) => (l.winner ? 'cdc-winner cdc-fade-in' : '')}
                empty={cleanup.phase === 'running' ? 'Running OPTIMIZE …' : 'Run OPTIMIZE FINAL CLEANUP to see the table after it.'}
              />
            </div>
          </div>
          {r && (
            <p className="cdc-ok" role="status">
              <code>{r.statement}</code>: {count(r.removed, 'version')} removed ({r.versionsBefore.toLocaleString('en')} → {r.versionsAfter.toLocaleString('en')})
              {r.vanishedCount > 0
                ? `; ${r.vanishedCount === 1 ? 'id' : 'ids'} ${r.vanishedKeys.slice(0, 12).join(', ')}${r.vanishedCount > 12 ? ` and ${(r.vanishedCount - 12).toLocaleString('en')} more` : ''} vanished (the winner was a delete)`
                : ''}
              . Parts: {r.before.filter((p) => p.active).length} → {r.after.filter((p) => p.active).length}.{r.mergesResumed ? ' Merges ran for the cleanup and are paused again.' : ''}
            </p>
          )}
          <KeyStory />
          {foldedIds.length > 0 && (
            <p className="cdc-muted cdc-note" aria-label="Changes collapsed inside one insert block">
              <strong>Collapsed on insert:</strong> id{foldedIds.length === 1 ? '' : 's'} {foldedIds.slice(0, 8).join(', ')}
              {foldedIds.length > 8 ? ` and ${foldedIds.length - 8} more` : ''} had several changes in one insert block (click an id in Raw to follow it). A replacing engine collapses rows with the same key inside a block as it
              writes it (<code>optimize_on_insert</code>), so only the block&apos;s winner was ever stored: fewer versions in Raw than changes in the source, before any merge.
            </p>
          )}
          <div className="cdc-below">
            <div>
              <h3 className="cdc-view-title">Parts</h3>
              <ul className="cdc-parts" aria-label="Parts">
                {parts.map((p) => (
                  <li key={p.name}>
                    <code>{p.name}</code> <span className="cdc-muted">{count(p.rows, 'row')}</span>
                  </li>
                ))}
                {parts.length === 0 && <li className="cdc-muted">No parts yet.</li>}
              </ul>
            </div>
            <div aria-live="polite">
              <h3 className="cdc-view-title">Target equals source?</h3>
              {compareError && <FailureBox failure={compareError} />}
              {!compare ? (
                <p className="cdc-muted">Comparing…</p>
              ) : compare.equal ? (
                <p className="cdc-ok">Yes: FINAL holds exactly the source&apos;s ids and names ({count(compare.sourceRows, 'row')}).</p>
              ) : (
                <p className="cdc-warn">
                  No, {compare.count.toLocaleString('en')} id{compare.count === 1 ? ' differs' : 's differ'}:{' '}
                  {compare.differing.slice(0, 20).map((d) => (
                    <span key={d.key} className="cdc-diff">
                      <code>{d.key}</code> {d.kind === 'changed' ? `(${d.column} differs)` : d.kind === 'missing' ? '(not in the target yet)' : '(only in the target)'}
                    </span>
                  ))}
                  {compare.count > 20 ? ' …' : ''}
                </p>
              )}
            </div>
          </div>
        </>
      )}
    </section>
  );
}
