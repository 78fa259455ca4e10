/**
 * Lucene's explanation as a tree (role="tree", named "Explanation"): each item carries the node's
 * description as Lucene wrote it and its value, a bar for its share of the score, and for BM25 /
 * classic nodes the formula with the numbers put in. Arrow keys move and open/close nodes.
 */
import { memo, startTransition, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { fmt, formulaOf, idsToDepth, visibleNodes, type Ex, type FlatNode } from '../lib/explain.js';

export function ExplanationTree({ root, label = 'Explanation', initialDepth = 3 }: { root: Ex; label?: string; initialDepth?: number }) {
  const [expanded, setExpanded] = useState<Set<string>>(() => idsToDepth(root, initialDepth));
  const [focusId, setFocusId] = useState('0');
  const rows = useMemo(() => visibleNodes(root, expanded), [root, expanded]);
  const ref = useRef<HTMLUListElement>(null);
  const total = root.value || 1;

  // Big expansions render in time slices (a transition), so the page stays responsive.
  const setExpandedSoon = (next: Set<string>) => startTransition(() => setExpanded(next));
  const toggle = (id: string, open?: boolean) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      const want = open ?? !next.has(id);
      if (want) next.add(id);
      else next.delete(id);
      return next;
    });
  const focus = (id: string) => {
    setFocusId(id);
    requestAnimationFrame(() => ref.current?.querySelector<HTMLElement>(`[data-id="${id}"]`)?.focus());
  };
  const onKey = (e: KeyboardEvent) => {
    const at = rows.findIndex((r) => r.id === focusId);
    const row = rows[at];
    if (!row) return;
    switch (e.key) {
      case 'ArrowDown':
        if (rows[at + 1]) focus(rows[at + 1]!.id);
        break;
      case 'ArrowUp':
        if (rows[at - 1]) focus(rows[at - 1]!.id);
        break;
      case 'ArrowRight':
        if (row.hasChildren && !expanded.has(row.id)) toggle(row.id, true);
        else if (row.hasChildren && rows[at + 1]) focus(rows[at + 1]!.id);
        break;
      case 'ArrowLeft':
        if (row.hasChildren && expanded.has(row.id)) toggle(row.id, false);
        else if (row.id.includes('.')) focus(row.id.slice(0, row.id.lastIndexOf('.')));
        break;
      case 'Home':
        focus(rows[0]!.id);
        break;
      case 'End':
        focus(rows[rows.length - 1]!.id);
        break;
      case 'Enter':
      case ' ':
        if (row.hasChildren) toggle(row.id);
        break;
      case '*': {
        const all = new Set(expanded);
        const walk = (n: Ex, id: string) => {
          if (n.details.length) all.add(id);
          n.details.forEach((c, i) => walk(c, `${id}.${i}`));
        };
        walk(root, '0');
        setExpandedSoon(all);
        break;
      }
      default:
        return;
    }
    e.preventDefault();
  };

  return (
    <div className="rel-tree-wrap">
      <div className="rel-tree-tools">
        <button type="button" className="btn btn-small btn-quiet" onClick={() => setExpandedSoon(idsToDepth(root, 99))}>
          Expand all
        </button>
        <button type="button" className="btn btn-small btn-quiet" onClick={() => setExpandedSoon(new Set())}>
          Collapse all
        </button>
      </div>
      <ul role="tree" aria-label={label} className="rel-tree" ref={ref} onKeyDown={onKey}>
        {rows.map((r) => (
          <TreeRow key={r.id} row={r} total={total} open={expanded.has(r.id)} focused={r.id === focusId} onToggle={toggle} onFocus={setFocusId} />
        ))}
      </ul>
    </div>
  );
}

const TreeRow = memo(function TreeRow({ row, total, open, focused, onToggle, onFocus }: { row: FlatNode; total: number; open: boolean; focused: boolean; onToggle(id: string): void; onFocus(id: string): void }) {
  const { node, depth, id, hasChildren } = row;
  const formula = formulaOf(node);
  const share = total > 0 ? Math.min(1, Math.max(0, node.value / total)) : 0;
  const failed = /^(no match on required clause|failure to match filter|match on prohibited clause|Failure to)/.test(node.description);
  return (
    <li
      role="treeitem"
      aria-level={depth}
      aria-expanded={hasChildren ? open : undefined}
      aria-label={`${fmt(node.value)} ${node.description}`}
      tabIndex={focused ? 0 : -1}
      data-id={id}
      className={`rel-node${failed ? ' rel-node-fail' : ''}`}
      style={{ paddingLeft: (depth - 1) * 16 + 4 }}
      onFocus={() => onFocus(id)}
      onClick={(e) => {
        e.stopPropagation();
        onFocus(id);
        if (hasChildren) onToggle(id);
      }}
    >
      <span className="rel-node-line">
        <span className="rel-twisty" aria-hidden="true">
          {hasChildren ? (open ? '▾' : '▸') : ''}
        </span>
        <span className="rel-node-value rel-num">{fmt(node.value)}</span>
        <span className="rel-share" aria-hidden="true" title={`${Math.round(share * 100)} % of the score`}>
          <span style={{ width: `${share * 100}%` }} />
        </span>
        <span className="rel-node-desc">{node.description}</span>
      </span>
      {formula && <span className="rel-formula">{formula}</span>}
    </li>
  );
});
