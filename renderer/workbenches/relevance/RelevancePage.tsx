/**
 * The Relevance workbench: pick an index, write a query, see the hits and why each scored what
 * it did; ask why a document did not match; compare two hits; switch BM25 for classic TF/IDF.
 * State lives in ./store.ts and in the URL after `#`.
 */
import { lazy, Suspense } from 'react';
import { PageHeader } from '../../shell/PageHeader.js';
import { useRelevance } from './store.js';
import { useDeepLink, useIndices } from './hooks.js';
import { IndexBar, LoadProgressBar } from './components/IndexBar.js';
import { HitsTable } from './components/HitsTable.js';
import { ExplanationPanel, Skeleton } from './components/ExplanationPanel.js';
import { WhyNotForm, WhyNotPanel } from './components/WhyNotPanel.js';
import { ComparePanel } from './components/ComparePanel.js';
import { SimilarityPanel } from './components/SimilarityPanel.js';
import { ConnectionBar } from './components/ConnectionBar.js';
import { ErrorBox } from './components/ErrorBox.js';
import { ServiceCard } from '../../components/ServiceCard.js';
import { serviceByName, useShell } from '../../store/shell.js';
import { TEMPLATES } from './lib/query-schema.js';
import type { DetailTab } from './lib/deep-link.js';
import './relevance.css';

// Monaco is large: it loads with this page, not with the app.
const QueryEditor = lazy(() => import('./components/QueryEditor.js').then((m) => ({ default: m.QueryEditor })));

export function RelevancePage() {
  useIndices();
  useDeepLink();
  const indices = useRelevance((s) => s.indices);
  const indicesError = useRelevance((s) => s.indicesError);
  const load = useRelevance((s) => s.load);
  const loadError = useRelevance((s) => s.loadError);

  const search = useShell((s) => serviceByName(s.services, 'search'));
  let body;
  if (indices === null && indicesError)
    body = (
      <>
        <ErrorBox error={indicesError} title="Could not list the indexes" />
        {search && search.state !== 'running' && search.mode !== 'remote' && <ServiceCard status={search} />}
        <button type="button" className="btn btn-small rel-retry" onClick={() => void useRelevance.getState().refreshIndices()}>
          Try again
        </button>
      </>
    );
  else if (indices === null) body = <Skeleton lines={5} label="Loading indexes" />;
  else if (indices.length === 0 && !load) body = <EmptyState />;
  else body = <Workspace />;

  return (
    <>
      <PageHeader title="Relevance" subtitle="Why a document scored what it did, and why another did not match at all." />
      <div className="rel-page">
        <ConnectionBar />
        {indices !== null && indices.length > 0 && <IndexBar />}
        {indices !== null && indicesError && <ErrorBox error={indicesError} title="The index list is out of date" />}
        <LoadProgressBar />
        {loadError && <ErrorBox error={loadError} title="Loading data failed" />}
        {body}
      </div>
    </>
  );
}

function EmptyState() {
  return (
    <div className="rel-empty">
      <h2 className="rel-empty-title">No index to search yet</h2>
      <p>
        Load the sample data: 300 web access-log lines (<code>access-logs</code>) and 3,811 mailing-list mails from the SpamAssassin public corpus (<code>mails</code>), so
        that both filters and text relevance have something to show.
      </p>
      <button type="button" className="btn btn-primary" onClick={() => void useRelevance.getState().loadSamples()}>
        Load sample data
      </button>
    </div>
  );
}

const TAB_LABEL: Record<DetailTab, string> = { explanation: 'Explanation', 'why-not': 'Why not?', compare: 'Compare hits', similarity: 'BM25 vs classic' };

function Workspace() {
  const running = useRelevance((s) => s.running);
  const result = useRelevance((s) => s.result);
  const queryError = useRelevance((s) => s.queryError);
  const tab = useRelevance((s) => s.tab);
  const history = useRelevance((s) => s.history);
  const selectedId = useRelevance((s) => s.selectedId);
  const index = useRelevance((s) => s.index);
  const st = useRelevance.getState();

  return (
    <div className="rel-main">
      <section className="rel-left" aria-label="Request">
        <div className="rel-toolbar">
          <button type="button" className="btn btn-primary" onClick={() => void st.run()} disabled={!index || running} title="Run (Ctrl+Enter)">
            Run
          </button>
          <span className="rel-kbd muted">Ctrl/⌘+Enter</span>
          <span className="rel-spacer" />
          <select
            className="input rel-select-small"
            aria-label="Templates"
            value=""
            onChange={(e) => {
              const t = TEMPLATES.find((x) => x.label === e.target.value);
              if (t) st.setBody(JSON.stringify(t.body, null, 2));
            }}
          >
            <option value="">Templates…</option>
            {TEMPLATES.map((t) => (
              <option key={t.label} value={t.label}>
                {t.label}
              </option>
            ))}
          </select>
          <select
            className="input rel-select-small"
            aria-label="History"
            value=""
            disabled={history.length === 0}
            onChange={(e) => {
              if (e.target.value !== '') st.setBody(history[Number(e.target.value)]!);
            }}
          >
            <option value="">History ({history.length})…</option>
            {history.map((h, i) => (
              <option key={i} value={i}>
                {h.replace(/\s+/g, ' ').slice(0, 70)}
              </option>
            ))}
          </select>
        </div>
        <Suspense fallback={<div className="rel-editor"><Skeleton lines={8} label="Loading the editor" /></div>}>
          <QueryEditor />
        </Suspense>
        {queryError && <ErrorBox error={queryError} title="Elasticsearch refused the query" />}
      </section>
      <section className="rel-right" aria-label="Results">
        <div className="rel-hits-area" aria-busy={running}>
          {running && !result ? <Skeleton lines={8} label="Running the query" /> : result ? <HitsTable /> : !queryError && <div className="placeholder">Write a query on the left and press Run (Ctrl/⌘+Enter).</div>}
        </div>
        <div className="rel-actions" role="group" aria-label="Inspect">
          <span className="rel-selected muted">
            Selected: {selectedId ? <code>{selectedId}</code> : 'none'}
          </span>
          <button type="button" className="btn btn-small" disabled={!selectedId || (result?.hits.length ?? 0) < 2} onClick={() => void st.compare()}>
            Compare
          </button>
          <span className="rel-spacer" />
          <WhyNotForm />
        </div>
        <div className="rel-detail">
          <div className="rel-detail-bar">
            <div role="tablist" aria-label="Detail" className="rel-tabs">
              {(Object.keys(TAB_LABEL) as DetailTab[]).map((t) => (
                <button key={t} type="button" role="tab" id={`rel-tab-${t}`} aria-controls="rel-tabpanel" aria-selected={tab === t} tabIndex={tab === t ? 0 : -1} className={`rel-tab${tab === t ? ' rel-tab-on' : ''}`} onClick={() => st.setTab(t)}>
                  {TAB_LABEL[t]}
                </button>
              ))}
            </div>
          </div>
          <div role="tabpanel" id="rel-tabpanel" aria-labelledby={`rel-tab-${tab}`} className="rel-tabpanel">
            {tab === 'explanation' && <ExplanationPanel />}
            {tab === 'why-not' && <WhyNotPanel />}
            {tab === 'compare' && <ComparePanel />}
            {tab === 'similarity' && <SimilarityPanel />}
          </div>
        </div>
      </section>
    </div>
  );
}
