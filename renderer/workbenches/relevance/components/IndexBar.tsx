/** The index selector with document counts, the mapping, delete (confirmed), and data loading. */
import { useId, useRef, useState } from 'react';
import { useRelevance } from '../store.js';

export function IndexBar() {
  const indices = useRelevance((s) => s.indices);
  const index = useRelevance((s) => s.index);
  const busy = useRelevance((s) => s.busyIndex);
  const load = useRelevance((s) => s.load);
  const info = indices?.find((i) => i.name === index);
  const [confirming, setConfirming] = useState(false);
  const [showMapping, setShowMapping] = useState(false);
  const [picking, setPicking] = useState<File | null>(null);
  const [target, setTarget] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  const selectId = useId();
  const st = useRelevance.getState();
  const loading = load !== null && !load.finished;

  return (
    <div className="rel-indexbar">
      <div className="rel-indexbar-row">
        <label htmlFor={selectId} className="rel-label">
          Index
        </label>
        <select id={selectId} className="input rel-select" value={index ?? ''} onChange={(e) => st.selectIndex(e.target.value || null)} disabled={!indices?.length}>
          {!indices?.length && <option value="">No index yet</option>}
          {indices?.map((i) => (
            <option key={i.name} value={i.name}>
              {i.name} ({i.docs.toLocaleString('en')} docs{i.similarity.type === 'classic' ? ', classic' : ''})
            </option>
          ))}
        </select>
        {info && (
          <span className="rel-facts" aria-label="Index facts">
            <span className="rel-chip">{info.docs.toLocaleString('en')} documents</span>
            <span className="rel-chip">{info.similarity.type === 'BM25' ? `BM25 k1=${info.similarity.k1} b=${info.similarity.b}` : 'classic TF/IDF'}</span>
            <span className="rel-chip">{info.fields.length} fields</span>
          </span>
        )}
        <span className="rel-spacer" />
        {info && (
          <button type="button" className="btn btn-small" aria-expanded={showMapping} onClick={() => setShowMapping((v) => !v)}>
            Mapping
          </button>
        )}
        {info && !confirming && (
          <button type="button" className="btn btn-small" onClick={() => setConfirming(true)} disabled={busy}>
            Delete index
          </button>
        )}
        {info && confirming && (
          <span className="rel-confirm" role="group" aria-label="Confirm delete">
            Delete <code>{info.name}</code> and its {info.docs.toLocaleString('en')} documents?
            <button
              type="button"
              className="btn btn-small btn-danger"
              onClick={() => {
                setConfirming(false);
                void st.deleteIndex(info.name);
              }}
            >
              Delete
            </button>
            <button type="button" className="btn btn-small btn-quiet" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </span>
        )}
        <button type="button" className="btn btn-small" onClick={() => void st.loadSamples()} disabled={loading}>
          Load sample data
        </button>
        <button type="button" className="btn btn-small" onClick={() => fileRef.current?.click()} disabled={loading}>
          Load file…
        </button>
        <input
          ref={fileRef}
          type="file"
          accept=".json,.ndjson,.jsonl,application/json,application/x-ndjson"
          className="visually-hidden"
          aria-label="NDJSON or JSON file to load"
          tabIndex={-1}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) {
              setPicking(f);
              setTarget(f.name.replace(/\.(nd)?jsonl?$/i, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-'));
            }
            e.target.value = '';
          }}
        />
      </div>
      {picking && (
        <form
          className="rel-pick"
          onSubmit={(e) => {
            e.preventDefault();
            const f = picking;
            setPicking(null);
            void st.loadFile(f, target);
          }}
        >
          <span>
            Load <code>{picking.name}</code> ({(picking.size / 1024).toFixed(0)} KB) into index
          </span>
          <input className="input" aria-label="Target index" value={target} onChange={(e) => setTarget(e.target.value)} required pattern="[a-z0-9][a-z0-9_.\-]*" />
          <button type="submit" className="btn btn-small btn-primary">
            Load
          </button>
          <button type="button" className="btn btn-small btn-quiet" onClick={() => setPicking(null)}>
            Cancel
          </button>
        </form>
      )}
      {showMapping && info && (
        <div className="rel-mapping" role="region" aria-label="Mapping">
          <table className="table rel-mapping-table">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Type</th>
                <th scope="col">Analyzer</th>
              </tr>
            </thead>
            <tbody>
              {info.fields.map((f) => (
                <tr key={f.path}>
                  <td>
                    <code>{f.path}</code>
                  </td>
                  <td>{f.type}</td>
                  <td>{f.analyzer ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <details>
            <summary>Raw mapping (GET /{info.name}/_mapping)</summary>
            <pre className="rel-json">{JSON.stringify(info.mappings, null, 2)}</pre>
          </details>
        </div>
      )}
    </div>
  );
}

export function LoadProgressBar() {
  const load = useRelevance((s) => s.load);
  if (!load) return null;
  const pct = load.total ? Math.round((load.done / load.total) * 100) : 0;
  return (
    <div className="rel-progress" role="status" aria-live="polite">
      <div className="rel-progress-head">
        <strong>{load.what}</strong>
        <span>
          {load.done.toLocaleString('en')} of {load.total ? load.total.toLocaleString('en') : '…'} documents
          {load.rejected > 0 ? `, ${load.rejected.toLocaleString('en')} rejected` : load.finished ? ', none rejected' : ''}
        </span>
        {!load.finished && load.what.startsWith('Indexing') && !load.what.startsWith('Indexing access-logs') && !load.what.startsWith('Indexing mails') && (
          <button type="button" className="btn btn-small" onClick={() => useRelevance.getState().cancel()}>
            Cancel
          </button>
        )}
        {load.finished && (
          <button type="button" className="btn btn-small btn-quiet" onClick={() => useRelevance.setState({ load: null })}>
            Dismiss
          </button>
        )}
      </div>
      <progress max={load.total || 1} value={load.done} aria-label="Documents indexed">
        {pct} %
      </progress>
      {load.errors.length > 0 && (
        <details className="rel-rejects">
          <summary>Why documents were rejected (first {load.errors.length})</summary>
          <ul>
            {load.errors.map((e) => (
              <li key={e.position}>
                document {e.position + 1}
                {e.id ? ` (_id ${e.id})` : ''}: <code>{e.type}</code> {e.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
