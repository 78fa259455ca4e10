/**
 * The hits: rank, _id, _score with a bar scaled to the top score, and the _source columns the
 * user picks; virtualized rows (a page of 10,000 hits scrolls smoothly), arrow keys move the
 * selection, paging by from/size, total hits and took.
 */
import { memo, useMemo, useRef, type KeyboardEvent } from 'react';
import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRelevance, type Hit } from '../store.js';
import { fmt, valueAt } from '../lib/explain.js';

const features = tableFeatures({});
type RankedHit = Hit & { rank: number };
const helper = createColumnHelper<typeof features, RankedHit>();
type HitsTableApi = ReturnType<typeof useTable<typeof features, RankedHit>>;
type HitRowModel = ReturnType<HitsTableApi['getRowModel']>['rows'][number];

const selectHit = (id: string) => void useRelevance.getState().select(id);

/** One row; memoized so that scrolling renders only the rows that come into view. */
const HitRow = memo(function HitRow({ row, table, index, selected, tabbable }: { row: HitRowModel; table: HitsTableApi; index: number; selected: boolean; tabbable: boolean }) {
  const id = row.original._id;
  return (
    <tr
      aria-selected={selected}
      aria-rowindex={index + 2}
      tabIndex={tabbable ? 0 : -1}
      className={selected ? 'rel-row rel-row-on' : 'rel-row'}
      style={{ height: ROW_HEIGHT }}
      onClick={() => selectHit(id)}
      ref={(el) => {
        if (el && selected && document.activeElement?.closest('.rel-table') && document.activeElement !== el) el.focus({ preventScroll: true });
      }}
    >
      {row.getAllCells().map((cell) => (
        <td key={cell.id} className={`rel-col-${cell.column.id.replace(/[^a-z_]/gi, '')}`}>
          <table.FlexRender cell={cell} />
        </td>
      ))}
    </tr>
  );
});
const ROW_HEIGHT = 30;

function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function HitsTable() {
  const result = useRelevance((s) => s.result);
  const selectedId = useRelevance((s) => s.selectedId);
  const columnsPicked = useRelevance((s) => s.columns);
  const fields = useRelevance((s) => s.indices?.find((i) => i.name === s.index)?.fields);
  const scrollRef = useRef<HTMLDivElement>(null);
  const max = result?.maxScore ?? result?.hits[0]?._score ?? 0;

  const data = useMemo(() => (result?.hits ?? []).map((h, i) => ({ ...h, rank: (result?.from ?? 0) + i + 1 })), [result]);
  const columns = useMemo(
    () =>
      helper.columns([
        helper.accessor('rank', { header: '#', cell: (c) => c.getValue() }),
        helper.accessor('_id', { header: '_id', cell: (c) => <code>{c.getValue()}</code> }),
        helper.accessor('_score', {
          header: '_score',
          cell: (c) => {
            const v = c.getValue();
            if (v === null || v === undefined) return <span className="muted">—</span>;
            return (
              <span className="rel-scorecell">
                <span className="rel-bar" aria-hidden="true">
                  <span style={{ width: `${max ? Math.max(2, (v / max) * 100) : 0}%` }} />
                </span>
                <span className="rel-num">{v.toFixed(4)}</span>
              </span>
            );
          },
        }),
        ...columnsPicked.map((path) =>
          helper.display({
            id: `src:${path}`,
            header: path,
            cell: (c) => {
              const t = cellText(valueAt(c.row.original._source, path));
              return <span title={t.length > 80 ? t.slice(0, 500) : undefined}>{t}</span>;
            },
          }),
        ),
      ]),
    [columnsPicked, max],
  );
  const table = useTable({ features, columns, data });
  // Once per result, not per scroll frame: the row model of 10,000 hits is not free to build.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the table's rows change with data and columns only
  const rows = useMemo(() => table.getRowModel().rows, [data, columns]);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 6 });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;

  if (!result) return null;
  const st = useRelevance.getState();
  const onKey = (e: KeyboardEvent) => {
    const at = data.findIndex((h) => h._id === selectedId);
    let next: number;
    if (e.key === 'ArrowDown') next = Math.min(data.length - 1, at + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, at - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = data.length - 1;
    else return;
    e.preventDefault();
    const id = data[next]?._id;
    if (id) {
      void st.select(id);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    }
  };
  const { total, took, from, size } = result;
  const allFields = (fields ?? []).map((f) => f.path);

  return (
    <div className="rel-hits">
      <div className="rel-hits-head">
        <span className="rel-total" role="status">
          <strong>{total.value.toLocaleString('en')}</strong>
          {total.relation === 'gte' ? '+' : ''} hits · took {took} ms
          {result.hits.length > 0 && (
            <>
              {' '}
              · showing {(from + 1).toLocaleString('en')}–{(from + result.hits.length).toLocaleString('en')}
            </>
          )}
        </span>
        <span className="rel-spacer" />
        <details className="rel-columns">
          <summary className="btn btn-small">Columns</summary>
          <fieldset className="rel-columns-menu">
            <legend className="visually-hidden">_source columns</legend>
            {allFields.map((f) => (
              <label key={f}>
                <input type="checkbox" checked={columnsPicked.includes(f)} onChange={(e) => st.setColumns(e.target.checked ? [...columnsPicked, f] : columnsPicked.filter((c) => c !== f))} /> <code>{f}</code>
              </label>
            ))}
          </fieldset>
        </details>
        <button type="button" className="btn btn-small" disabled={from === 0} onClick={() => void st.page(-1)} aria-label="Previous page">
          ‹ Prev
        </button>
        <button type="button" className="btn btn-small" disabled={from + size >= Math.min(total.value, 10000) || size === 0} onClick={() => void st.page(1)} aria-label="Next page">
          Next ›
        </button>
      </div>
      {result.hits.length === 0 ? (
        <div className="placeholder">No document matches this query. Try “Why not” with a document id you expected to see.</div>
      ) : (
        <div className="rel-hits-scroll" ref={scrollRef} tabIndex={-1}>
          <table className="table rel-table" aria-label="Hits" aria-rowcount={rows.length + 1} onKeyDown={onKey}>
            <thead>
              {table.getHeaderGroups().map((g) => (
                <tr key={g.id}>
                  {g.headers.map((h) => (
                    <th key={h.id} scope="col" className={`rel-col-${h.column.id.replace(/[^a-z_]/gi, '')}`}>
                      <table.FlexRender header={h} />
                    </th>
                  ))}
                </tr>
              ))}
            </thead>
            <tbody>
              {padTop > 0 && (
                <tr aria-hidden="true" style={{ height: padTop }}>
                  <td colSpan={columns.length} />
                </tr>
              )}
              {items.map((vi) => {
                const row = rows[vi.index]!;
                const id = row.original._id;
                return <HitRow key={row.id} row={row} table={table} index={vi.index} selected={id === selectedId} tabbable={id === selectedId || (!selectedId && vi.index === 0)} />;
              })}
              {padBottom > 0 && (
                <tr aria-hidden="true" style={{ height: padBottom }}>
                  <td colSpan={columns.length} />
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      {max > 0 && <span className="visually-hidden">Top score {fmt(max)}</span>}
    </div>
  );
}
