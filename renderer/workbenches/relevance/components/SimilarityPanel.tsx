/** The same query under BM25 and classic TF/IDF (on a copy of the index), with the rank moves. */
import { useRelevance } from '../store.js';
import { fmt } from '../lib/explain.js';
import { ErrorBox } from './ErrorBox.js';
import { Skeleton } from './ExplanationPanel.js';

const MOVE_TEXT = { up: '▲ up', down: '▼ down', same: '= same', new: '+ new', gone: '− gone' } as const;

export function SimilarityPanel() {
  const s = useRelevance((x) => x.similarity);
  const index = useRelevance((x) => x.index);
  const st = useRelevance.getState();
  if (!s)
    return (
      <div className="placeholder">
        <span>Run the same query under BM25 and under classic TF/IDF (Lucene 4 / Elasticsearch 1.x–2.x) and see which hits move.</span>
        <button type="button" className="btn btn-primary" onClick={() => void st.similaritySwitch()} disabled={!index}>
          Compare BM25 with classic
        </button>
      </div>
    );
  if (s.loading) return <Skeleton lines={6} label={s.step ?? 'Working'} />;
  if (s.error) return <ErrorBox error={s.error} title="The similarity switch failed" />;
  const rows = s.rows ?? [];
  const moved = rows.filter((r) => r.move !== 'same').length;
  return (
    <div className="rel-sim">
      <p className="rel-summary">
        Classic TF/IDF on <code>{s.copy}</code> (a copy with <code>index.similarity.default.type</code>): {moved === 0 ? 'the same order as BM25.' : `${moved} of ${rows.length} hits change place.`}{' '}
        <button type="button" className="btn btn-small btn-quiet" onClick={() => void st.similaritySwitch()}>
          Run again
        </button>
      </p>
      <table className="table rel-sim-table" aria-label="Rank changes">
        <thead>
          <tr>
            <th scope="col">_id</th>
            <th scope="col" className="rel-num">BM25 #</th>
            <th scope="col" className="rel-num">BM25 score</th>
            <th scope="col" className="rel-num">classic #</th>
            <th scope="col" className="rel-num">classic score</th>
            <th scope="col">under classic</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className={`rel-move-${r.move}`}>
              <td>
                <code>{r.id}</code>
              </td>
              <td className="rel-num">{r.bm25Rank ?? '—'}</td>
              <td className="rel-num">{r.bm25Score === undefined ? '—' : fmt(r.bm25Score)}</td>
              <td className="rel-num">{r.classicRank ?? '—'}</td>
              <td className="rel-num">{r.classicScore === undefined ? '—' : fmt(r.classicScore)}</td>
              <td>
                <span className={`rel-move rel-move-tag-${r.move}`}>
                  {MOVE_TEXT[r.move]}
                  {(r.move === 'up' || r.move === 'down') && r.bm25Rank && r.classicRank ? ` ${Math.abs(r.bm25Rank - r.classicRank)}` : ''}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
