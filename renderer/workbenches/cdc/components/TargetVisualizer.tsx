/**
 * The target table as ReplacingMergeTree keeps it: every physical version grouped by id with its
 * part, version and __deleted, the winner and why; FINAL beside it; and the table after
 * OPTIMIZE … FINAL CLEANUP, with the versions and ids the cleanup removed struck through.
 */
import { useMemo } from 'react';
import type { CdcTargetRows } from '../../../../core/host/contract.js';
import { useCdc } from '../store.js';
import { diffByKey, groupVersions, vanished, type VersionRow } from '../versions.js';
import { FailureBox } from './FailureBox.js';
import { VirtualTable, type Column } from './VirtualTable.js';

const COLS = { key: 'id', version: 'created_at', deleted: '__deleted' };
const text = (v: unknown) => (v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v));

interface RawLine extends VersionRow {
  first: boolean;
  count: number;
  why: string;
  gone: boolean;
}

function rawLines(t: CdcTargetRows, gone?: Set<string>): RawLine[] {
  const groups = groupVersions(t.rows, t.parts, COLS);
  const out: RawLine[] = [];
  for (const g of groups) g.versions.forEach((v, i) => out.push({ ...v, first: i === 0, count: g.versions.length, why: g.why, gone: gone?.has(`${v.part}|${v.key}`) ?? false }));
  return out;
}

const rawColumns: Column<RawLine>[] = [
  { id: 'id', header: 'id', numeric: true, cell: (r) => (r.first ? <strong>{r.key}</strong> : <span className="cdc-faint">{r.key}</span>) },
  { id: 'name', header: 'name', cell: (r) => <code>{text(r.row.name)}</code> },
  { id: 'created_at', header: 'created_at (version)', cell: (r) => <code>{r.version}</code> },
  { id: '__deleted', header: '__deleted', numeric: true, cell: (r) => (r.deleted ? <span className="cdc-badge cdc-badge-deleted">1 deleted</span> : <code>0</code>) },
  { id: '_part', header: '_part', cell: (r) => <code>{r.part}</code> },
  {
    id: 'wins',
    header: 'wins?',
    cell: (r) =>
      r.gone ? (
        <span className="cdc-badge cdc-badge-gone">removed by cleanup</span>
      ) : r.winner ? (
        <span className="cdc-badge cdc-badge-winner" title={r.why}>
          ★ winner: {r.why}
        </span>
      ) : (
        <span className="cdc-faint">superseded</span>
      ),
  },
];

const ORDER = ['id', 'name', 'created_at', '__deleted'];
const rank = (c: string) => (ORDER.includes(c) ? ORDER.indexOf(c) : ORDER.length);
const finalColumns = (cols: string[]): Column<Record<string, unknown>>[] =>
  cols
    .filter((c) => c !== '_part')
    .sort((a, b) => rank(a) - rank(b)).map((c) => ({ id: c, header: c, numeric: c === 'id' || c === '__deleted', cell: (r) => <code>{text(r[c])}</code> }));

export function TargetVisualizer() {
  const { raw, final, targetError, cleanup, mergesStopped, mergesError, sourceRows } = useCdc();
  const st = useCdc.getState();
  const before = cleanup.result?.before;
  const gone = useMemo(() => (cleanup.result ? vanished(cleanup.result.before.rows, cleanup.result.after.rows, 'id') : undefined), [cleanup.result]);
  // after a cleanup, Raw keeps the table as it was just before it, with what the cleanup removed struck through
  const rawShown = before ?? raw;
  const rawRows = useMemo(() => (rawShown ? rawLines(rawShown, gone) : []), [rawShown, gone]);
  const afterRows = useMemo(() => (cleanup.result ? rawLines(cleanup.result.after) : []), [cleanup.result]);
  const source = useMemo(() => sourceRows.rows.map((r) => Object.fromEntries(sourceRows.columns.map((c, i) => [c, r[i]]))), [sourceRows]);
  const diff = useMemo(() => (final ? diffByKey(source, final.rows, 'id', ['name']) : []), [source, final]);
  const parts = (cleanup.result?.after ?? raw)?.parts.filter((p) => p.active) ?? [];
  const goneIds = useMemo(() => {
    if (!cleanup.result) return [];
    const left = new Set(cleanup.result.after.rows.map((r) => text(r.id)));
    return [...new Set(cleanup.result.before.rows.map((r) => text(r.id)))].filter((id) => !left.has(id));
  }, [cleanup.result]);

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
        <button type="button" className="btn btn-small" onClick={() => void st.loadTarget()}>
          Refresh
        </button>
        <button type="button" className="btn btn-primary btn-small" disabled={!raw || cleanup.phase === 'running'} onClick={() => void st.runCleanup()}>
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
      {targetError && <FailureBox failure={targetError} title="ClickHouse could not read the target" />}
      {cleanup.phase === 'error' && cleanup.error && <FailureBox failure={cleanup.error} />}
      {!raw && !targetError && <p className="placeholder">Set up the pipeline to create the target table; its versions appear here as changes arrive.</p>}
      {raw && (
        <>
          <div className="cdc-views">
            <div className="cdc-view">
              <h3 className="cdc-view-title">
                Raw {before ? '(just before the cleanup)' : '(before cleanup)'} <span className="cdc-muted">{rawShown!.rows.length.toLocaleString('en')} versions</span>
              </h3>
              <VirtualTable
                label="Raw"
                rows={rawRows}
                columns={rawColumns}
                rowKey={(r) => `${r.part}|${r.key}`}
                rowClass={(r) => [r.gone ? 'cdc-gone' : '', r.winner ? 'cdc-winner' : '', r.deleted ? 'cdc-deleted' : '', r.first ? 'cdc-group-first' : ''].join(' ')}
                empty="No versions yet: change a row in the source."
              />
            </div>
            <div className="cdc-view cdc-view-narrow">
              <h3 className="cdc-view-title">
                FINAL <span className="cdc-muted">{final?.rows.length.toLocaleString('en') ?? 0} rows</span>
              </h3>
              <VirtualTable label="FINAL" rows={final?.rows ?? []} columns={finalColumns(final?.columns ?? ['id', 'name', 'created_at', '__deleted'])} rowKey={(r) => text(r.id)} empty="No rows." />
            </div>
            <div className="cdc-view">
              <h3 className="cdc-view-title">
                After cleanup{' '}
                {cleanup.result && <span className="cdc-muted">{cleanup.result.after.rows.length.toLocaleString('en')} versions · {new Date(cleanup.result.at).toLocaleTimeString()}</span>}
              </h3>
              <VirtualTable
                label="After cleanup"
                rows={afterRows}
                columns={rawColumns}
                rowKey={(r) => `${r.part}|${r.key}`}
                rowClass={(r) => (r.winner ? 'cdc-winner cdc-fade-in' : '')}
                empty={cleanup.phase === 'running' ? 'Running OPTIMIZE …' : 'Run OPTIMIZE FINAL CLEANUP to see the table after it.'}
              />
            </div>
          </div>
          {cleanup.result && (
            <p className="cdc-ok" role="status">
              <code>{cleanup.result.statement}</code>: {gone?.size ?? 0} version{gone?.size === 1 ? '' : 's'} removed
              {goneIds.length > 0 ? `; id${goneIds.length === 1 ? '' : 's'} ${goneIds.slice(0, 12).join(', ')}${goneIds.length > 12 ? '…' : ''} vanished (the winner was a delete)` : ''}. Parts: {cleanup.result.before.parts.filter((p) => p.active).length} →{' '}
              {cleanup.result.after.parts.filter((p) => p.active).length}.{cleanup.result.mergesResumed ? ' Merges ran for the cleanup and are paused again.' : ''}
            </p>
          )}
          <div className="cdc-below">
            <div>
              <h3 className="cdc-view-title">Parts</h3>
              <ul className="cdc-parts" aria-label="Parts">
                {parts.map((p) => (
                  <li key={p.name}>
                    <code>{p.name}</code> <span className="cdc-muted">
                      {p.rows.toLocaleString('en')} row{p.rows === 1 ? '' : 's'}
                    </span>
                  </li>
                ))}
                {parts.length === 0 && <li className="cdc-muted">No parts yet.</li>}
              </ul>
            </div>
            <div aria-live="polite">
              <h3 className="cdc-view-title">Target equals source?</h3>
              {diff.length === 0 ? (
                <p className="cdc-ok">Yes: FINAL holds exactly the source&apos;s ids and names.</p>
              ) : (
                <p className="cdc-warn">
                  No, {diff.length} id{diff.length === 1 ? ' differs' : 's differ'}:{' '}
                  {diff.slice(0, 20).map((d) => (
                    <span key={d.key} className="cdc-diff">
                      <code>{d.key}</code> {d.kind === 'changed' ? `(${d.column} differs)` : d.kind === 'missing' ? '(not in the target yet)' : '(only in the target)'}
                    </span>
                  ))}
                  {diff.length > 20 ? ' …' : ''}
                </p>
              )}
            </div>
          </div>
        </>
      )}
    </section>
  );
}
