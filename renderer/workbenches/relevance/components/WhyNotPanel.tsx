/**
 * Why a document did not match: the `_explain` answer's failing clauses highlighted, the
 * document's own value of each field beside the clause, and for text clauses the query's
 * tokens against the field's tokens (`_analyze`), so `logins` ≠ `login` shows.
 */
import { useId } from 'react';
import { useRelevance, type WhyNotFailure } from '../store.js';
import { ExplanationTree } from './ExplanationTree.js';
import { ErrorBox } from './ErrorBox.js';
import { Skeleton } from './ExplanationPanel.js';

export function WhyNotForm() {
  const id = useRelevance((s) => s.whyNotId);
  const index = useRelevance((s) => s.index);
  const inputId = useId();
  const st = useRelevance.getState();
  return (
    <form
      className="rel-whynot-form"
      onSubmit={(e) => {
        e.preventDefault();
        void st.whyNotRun();
      }}
    >
      <label htmlFor={inputId} className="rel-label">
        Document id
      </label>
      <input id={inputId} className="input rel-mono" value={id} onChange={(e) => st.setWhyNotId(e.target.value)} placeholder="an _id you expected in the hits" spellCheck={false} autoComplete="off" />
      <button type="submit" className="btn btn-small" disabled={!id.trim() || !index}>
        Why not
      </button>
    </form>
  );
}

export function WhyNotPanel() {
  const w = useRelevance((s) => s.whyNot);
  if (!w) return <div className="placeholder">Give the id of a document you expected to see, then press Why not: Loupe asks Elasticsearch&apos;s <code>_explain</code> which clause it fails.</div>;
  if (w.loading) return <Skeleton lines={6} label="Asking _explain" />;
  if (w.error) return <ErrorBox error={w.error} title="Why not failed" />;
  const v = w.view!;
  if (!v.result.found)
    return (
      <div className="rel-error" role="alert">
        <strong>
          No document <code>{v.id}</code> in <code>{v.result.index}</code>
        </strong>
        <code className="rel-error-es">{v.result.failures[0]}</code>
        <span>Elasticsearch answered 404: check the id (ids are exact and case-sensitive) or the index.</span>
      </div>
    );
  if (v.result.matched)
    return (
      <div className="rel-ok" role="status">
        <code>{v.id}</code> does match this query (score {v.result.explanation?.value}); it may be on a later page or below <code>size</code>.
      </div>
    );
  return (
    <div className="rel-whynot">
      <p className="rel-summary">
        <code>{v.id}</code> does not match: {v.failures.length === 1 ? 'one clause fails' : `${v.failures.length} clauses fail`}.
      </p>
      <ul className="rel-failures">
        {v.failures.map((f) => (
          <FailureItem key={f.description} f={f} />
        ))}
      </ul>
      {v.result.explanation && (
        <details>
          <summary>The whole _explain tree</summary>
          <ExplanationTree root={v.result.explanation} label="Why-not explanation" initialDepth={4} />
        </details>
      )}
    </div>
  );
}

function show(v: unknown): string {
  if (v === undefined) return '(no value: the document lacks this field)';
  if (typeof v === 'string') return JSON.stringify(v.length > 300 ? `${v.slice(0, 300)}…` : v);
  return JSON.stringify(v);
}

function FailureItem({ f }: { f: WhyNotFailure }) {
  return (
    <li className="rel-failure">
      <mark className="rel-failure-desc">{f.description}</mark>
      {f.values.map((c) => (
        <div key={`${c.field}${c.expr}`} className="rel-failure-value">
          <code>{c.field}</code> = <code className="rel-actual">{show(c.value)}</code> <span className="muted">vs</span> <code>{c.expr}</code>
        </div>
      ))}
      {f.tokens?.map((t) => {
        const doc = new Set(t.document);
        const q = new Set(t.query);
        return (
          <div key={t.field} className="rel-tokens">
            <div>
              <span className="rel-tokens-label">Query tokens ({t.field})</span>
              {t.query.map((tok, i) => (
                <code key={i} className={doc.has(tok) ? 'rel-tok rel-tok-hit' : 'rel-tok rel-tok-miss'}>
                  {tok}
                  {doc.has(tok) ? ' ✓' : ' ✗'}
                </code>
              ))}
            </div>
            <div>
              <span className="rel-tokens-label">Document tokens</span>
              {t.document.slice(0, 60).map((tok, i) => (
                <code key={i} className={q.has(tok) ? 'rel-tok rel-tok-hit' : 'rel-tok'}>
                  {tok}
                </code>
              ))}
              {t.document.length > 60 && <span className="muted"> … {t.document.length - 60} more</span>}
            </div>
            {t.query.some((tok) => !doc.has(tok)) && (
              <p className="rel-hint">
                {t.query
                  .filter((tok) => !doc.has(tok))
                  .map((tok) => {
                    const near = t.document.find((d) => d.startsWith(tok.slice(0, Math.max(3, tok.length - 2))) || tok.startsWith(d.slice(0, Math.max(3, d.length))));
                    return near ? `“${tok}” is not “${near}”: the analyzer does not stem, so only the exact token matches.` : `“${tok}” is not among the document's tokens.`;
                  })
                  .join(' ')}
              </p>
            )}
          </div>
        );
      })}
    </li>
  );
}
