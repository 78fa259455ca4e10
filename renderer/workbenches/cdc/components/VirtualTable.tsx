/**
 * A virtualized table (@tanstack/react-table for the model, @tanstack/react-virtual for the rows):
 * only the rows in view are in the DOM, so 100,000 source rows or target versions scroll smoothly.
 * It can hold a window of a longer table: `rows` are rows `offset`… of `total`, rows outside the
 * window show as loading, and `onRange` says which rows are in view so the owner reads them.
 */
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { createColumnHelper, tableFeatures, useTable, type RowData } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';

const features = tableFeatures({});
const ROW_HEIGHT = 28;

export interface Column<T> {
  id: string;
  header: string;
  cell(row: T): ReactNode;
  numeric?: boolean;
}

export function VirtualTable<T extends RowData>({ label, rows, total = rows.length, offset = 0, onRange, columns, rowClass, rowKey, height = 320, empty }: {
  label: string;
  /** The rows held: rows offset … offset + rows.length - 1 of the table. */
  rows: T[];
  /** Rows in the whole table (default: rows.length). */
  total?: number;
  offset?: number;
  /** The rows in view changed: [start, end). */
  onRange?: (start: number, end: number) => void;
  columns: Column<T>[];
  rowClass?: (row: T) => string | undefined;
  rowKey: (row: T, index: number) => string;
  height?: number;
  empty?: ReactNode;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const helper = useMemo(() => createColumnHelper<typeof features, T>(), []);
  const defs = useMemo(
    () => columns.map((c) => helper.display({ id: c.id, header: c.header, cell: (ctx) => c.cell(ctx.row.original) })),
    [columns, helper],
  );
  const table = useTable({ features, columns: defs, data: rows });
  const model = table.getRowModel().rows;
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.length ? items[items.length - 1]!.index + 1 : 0;
  useEffect(() => {
    if (onRange && last > 0) onRange(first, last);
  }, [onRange, first, last]);
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  return (
    <div className="cdc-table-scroll" ref={scrollRef} style={{ maxHeight: height }} tabIndex={0} aria-label={`${label} (scrollable)`}>
      <table className="table cdc-table" aria-label={label} aria-rowcount={total + 1}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.id} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {total === 0 && (
            <tr>
              <td colSpan={columns.length} className="cdc-empty-cell">
                {empty ?? 'No rows.'}
              </td>
            </tr>
          )}
          {padTop > 0 && (
            <tr aria-hidden="true" style={{ height: padTop }}>
              <td colSpan={columns.length} />
            </tr>
          )}
          {items.map((vi) => {
            const r = model[vi.index - offset];
            if (!r)
              return (
                <tr key={`loading-${vi.index}`} aria-rowindex={vi.index + 2} className="cdc-loading-row" style={{ height: ROW_HEIGHT }}>
                  <td colSpan={columns.length}>
                    <span className="cdc-faint">…</span>
                  </td>
                </tr>
              );
            return (
              <tr key={rowKey(r.original, vi.index)} aria-rowindex={vi.index + 2} className={rowClass?.(r.original)} style={{ height: ROW_HEIGHT }}>
                {columns.map((c) => (
                  <td key={c.id} className={c.numeric ? 'num' : undefined}>
                    {c.cell(r.original)}
                  </td>
                ))}
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden="true" style={{ height: padBottom }}>
              <td colSpan={columns.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
