/** The selected hit: a one-line summary, the tree, the document with matched terms marked, raw JSON. */
import { useState } from 'react';
import { useRelevance } from '../store.js';
import { highlightRuns, matchedTerms, summaryLine, termShares, valueAt, fmt, type Ex } from '../lib/explain.js';
import { ExplanationTree } from './ExplanationTree.js';
import { ErrorBox } from './ErrorBox.js';

export function ExplanationPanel() {
  const ex = useRelevance((s) => s.explanation);
  const [raw, setRaw] = useState(false);
  if (!ex) return <div className="placeholder">Select a hit to see why it scored what it did.</div>;
  if (ex.loading) return <Skeleton lines={8} label="Loading the explanation" />;
  if (ex.error) return <ErrorBox error={ex.error} title={`Could not explain ${ex.id}`} />;
  if (!ex.tree) return <div className="placeholder">Elasticsearch returned no explanation for {ex.id}.</div>;
  const tree = ex.tree;
  return (
    <div className="rel-explain">
      <div className="rel-explain-head">
        <span>
          <code>{ex.id}</code> scored <strong className="rel-num">{fmt(tree.value)}</strong>
        </span>
        <label className="rel-toggle">
          <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} /> Raw JSON
        </label>
      </div>
      <p className="rel-summary">
        <Summary tree={tree} />
      </p>
      <TermBars tree={tree} />
      {raw ? <pre className="rel-json" aria-label="Explanation JSON">{JSON.stringify(tree, null, 2)}</pre> : <ExplanationTree key={ex.id} root={tree} />}
      <DocumentText tree={tree} source={ex.source} />
    </div>
  );
}

function Summary({ tree }: { tree: Ex }) {
  const parts = summaryLine(tree).split(/(`[^`]+`)/);
  return (
    <>
      {parts.map((p, i) => (p.startsWith('`') ? <code key={i}>{p.slice(1, -1)}</code> : <span key={i}>{p}</span>))}
    </>
  );
}

/** A stacked bar of each term's share (Splainer's view). */
export function TermBars({ tree }: { tree: Ex }) {
  const shares = termShares(tree);
  if (shares.length === 0) return null;
  return (
    <div className="rel-stack" role="img" aria-label={shares.map((s) => `${s.term} ${Math.round(s.share * 100)} %`).join(', ')}>
      {shares.map((s, i) => (
        <span key={`${s.field}:${s.term}`} className={`rel-stack-part rel-c${i % 6}`} style={{ flexGrow: s.share }} title={`${s.field}:${s.term} ${fmt(s.value)} (${Math.round(s.share * 100)} %)`}>
          {s.share > 0.08 ? `${s.term} ${Math.round(s.share * 100)} %` : ''}
        </span>
      ))}
    </div>
  );
}

function DocumentText({ tree, source }: { tree: Ex; source?: Record<string, unknown> }) {
  const terms = matchedTerms(tree);
  if (!source || terms.size === 0) return null;
  return (
    <section className="rel-doc" aria-label="Matched terms in the document">
      {[...terms.entries()].map(([field, set]) => {
        const v = valueAt(source, field);
        if (v === undefined || v === null) return null;
        const text = Array.isArray(v) ? v.join(' · ') : String(v);
        const runs = highlightRuns(text.length > 4000 ? text.slice(0, 4000) + ' …' : text, set);
        return (
          <div key={field} className="rel-doc-field">
            <span className="rel-doc-name">
              <code>{field}</code>
            </span>
            <p className="rel-doc-text">{runs.map((r, i) => (r.hit ? <mark key={i}>{r.text}</mark> : <span key={i}>{r.text}</span>))}</p>
          </div>
        );
      })}
    </section>
  );
}

export function Skeleton({ lines, label }: { lines: number; label: string }) {
  return (
    <div className="rel-skeleton" role="status" aria-label={label}>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} style={{ width: `${90 - ((i * 17) % 45)}%` }} />
      ))}
    </div>
  );
}
