/** Two hits side by side: contributions aligned by clause, the differences, and why A ranks above B. */
import { useRelevance } from '../store.js';
import { alignByClause, fmt, whyAbove } from '../lib/explain.js';
import { ExplanationTree } from './ExplanationTree.js';
import { ErrorBox } from './ErrorBox.js';
import { Skeleton } from './ExplanationPanel.js';

export function ComparePanel() {
  const c = useRelevance((s) => s.compareTrees);
  const a = useRelevance((s) => s.selectedId);
  const b = useRelevance((s) => s.compareB);
  const hits = useRelevance((s) => s.result?.hits);
  const st = useRelevance.getState();
  if (!hits || !a) return <div className="placeholder">Run a query and select a hit; Compare puts it beside another hit.</div>;
  const rank = (id: string | null) => (id ? hits.findIndex((h) => h._id === id) + 1 : 0);
  return (
    <div className="rel-compare">
      <div className="rel-compare-pick">
        <span>
          A: <code>{a}</code> (#{rank(a)})
        </span>
        <label>
          B:{' '}
          <select className="input rel-select-small" aria-label="Compare with" value={b ?? ''} onChange={(e) => st.setCompareB(e.target.value || null)}>
            {hits
              .filter((h) => h._id !== a)
              .slice(0, 200)
              .map((h) => (
                <option key={h._id} value={h._id}>
                  #{rank(h._id)} {h._id}
                </option>
              ))}
          </select>
        </label>
      </div>
      {!c || c.loading ? (
        <Skeleton lines={6} label="Loading both explanations" />
      ) : c.error ? (
        <ErrorBox error={c.error} title="Compare failed" />
      ) : c.a && c.b ? (
        <>
          <p className="rel-summary rel-why-above">{whyAbove(a, c.a, b ?? '', c.b)}</p>
          <table className="table rel-compare-table" aria-label="Per-term differences">
            <thead>
              <tr>
                <th scope="col">Clause</th>
                <th scope="col" className="rel-num">
                  A <code>{a}</code>
                </th>
                <th scope="col" className="rel-num">
                  B <code>{b}</code>
                </th>
                <th scope="col" className="rel-num">
                  A − B
                </th>
                <th scope="col">freq A / B</th>
                <th scope="col">dl A / B</th>
              </tr>
            </thead>
            <tbody>
              {alignByClause(c.a, c.b).map((r) => (
                <tr key={r.key}>
                  <td>
                    <code>{r.key}</code>
                  </td>
                  <td className="rel-num">{r.a ? fmt(r.a.value) : '—'}</td>
                  <td className="rel-num">{r.b ? fmt(r.b.value) : '—'}</td>
                  <td className={`rel-num ${r.diff > 0 ? 'rel-pos' : r.diff < 0 ? 'rel-neg' : ''}`}>{r.diff > 0 ? `+${fmt(r.diff)}` : fmt(r.diff)}</td>
                  <td>
                    {r.a?.freq ?? '—'} / {r.b?.freq ?? '—'}
                  </td>
                  <td>
                    {r.a?.dl ?? '—'} / {r.b?.dl ?? '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="rel-side">
            <section aria-label={`Explanation of A (${a})`}>
              <h3 className="rel-h3">
                A <code>{a}</code> · {fmt(c.a.value)}
              </h3>
              <ExplanationTree root={c.a} label={`Explanation of ${a}`} />
            </section>
            <section aria-label={`Explanation of B (${b})`}>
              <h3 className="rel-h3">
                B <code>{b}</code> · {fmt(c.b.value)}
              </h3>
              <ExplanationTree root={c.b} label={`Explanation of ${b}`} />
            </section>
          </div>
        </>
      ) : null}
    </div>
  );
}
