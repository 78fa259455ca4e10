/**
 * One connector's config: the current keys, the diff against the previous version Loupe kept
 * (or any earlier one), and an editor that replaces it with PUT /connectors/{name}/config, showing
 * the changes before they are saved and Kafka Connect's own error if it refuses them.
 */
import { useMemo, useState } from 'react';
import type { CdcConnectorStatus } from '../../../../core/host/contract.js';
import { bridge } from '../../../bridge.js';
import { failureOf, useCdc, type Failure } from '../store.js';
import { diffConfigs, diffSummary, maskSecrets, type ConfigDiff } from '../config-diff.js';
import { useConnectorHistory, type ConfigVersion } from '../connector-history-store.js';
import { FailureBox } from './FailureBox.js';

const NO_VERSIONS: ConfigVersion[] = [];
const time = (at: number) => new Date(at).toLocaleTimeString('en-GB');
const versionLabel = (v: ConfigVersion, i: number) => `v${i + 1} · ${v.origin === 'edited' ? 'saved from Loupe' : 'seen'} ${time(v.at)}`;

export function DiffTable({ diff, label }: { diff: ConfigDiff; label: string }) {
  if (diff.changes.length === 0) return <p className="cdc-muted">No changes: every key is the same.</p>;
  return (
    <table className="cdc-table cdc-config-diff" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Change</th>
          <th scope="col">Key</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {diff.changes.map((c) => (
          <tr key={c.key} className={`cdc-diff-${c.kind}`}>
            <td>
              <span className={`cdc-diff-mark cdc-diff-mark-${c.kind}`}>{c.kind === 'added' ? '+ added' : c.kind === 'removed' ? '− removed' : '~ changed'}</span>
            </td>
            <td>
              <code>{c.key}</code>
            </td>
            <td className="cdc-diff-before">{c.kind !== 'added' && <code>{c.before === '' ? '""' : c.before}</code>}</td>
            <td className="cdc-diff-after">{c.kind !== 'removed' && <code>{c.after === '' ? '""' : c.after}</code>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The edited text as the config map PUT takes: a JSON object; numbers and booleans become strings, as Kafka Connect reads them. */
function parseConfig(text: string): { config: Record<string, string> } | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { error: `Not JSON: ${(err as Error).message}` };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: 'The config must be a JSON object of keys and values, as GET /connectors/{name}/config shows it.' };
  const config: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) {
    if (val === null || typeof val === 'object') return { error: `The value of "${k}" must be a string (Kafka Connect configs are strings).` };
    config[k] = String(val);
  }
  return { config };
}

export function ConnectorConfig({ connector, worker }: { connector: CdcConnectorStatus; worker: string }) {
  const versions = useConnectorHistory((s) => s.byWorker[worker]?.[connector.name]) ?? NO_VERSIONS;
  const [open, setOpen] = useState(false);
  const [base, setBase] = useState<number | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<Failure | undefined>();

  // the history keeps credentials as fingerprints: compare like with like, and show none in a diff
  const current = useMemo(() => maskSecrets(connector.config), [connector.config]);
  // the version compared with: the chosen one, else the one before the current
  const latest = versions.length - 1;
  const baseIndex = base !== null && base < latest ? base : latest - 1;
  const diff = useMemo(() => (baseIndex >= 0 ? diffConfigs(versions[baseIndex]!.config, current) : null), [versions, baseIndex, current]);
  const parsed = draft === null ? null : parseConfig(draft);
  const pending = parsed && 'config' in parsed ? diffConfigs(current, maskSecrets(parsed.config)) : null;
  const keys = Object.keys(current).length;

  const save = async () => {
    if (!parsed || !('config' in parsed)) return;
    setSaving(true);
    setFailure(undefined);
    try {
      const r = await bridge().invoke('cdc.putConnectorConfig', { name: connector.name, config: parsed.config });
      useConnectorHistory.getState().record(worker, connector.name, r.config, 'edited');
      setDraft(null);
      setBase(null);
      await useCdc.getState().loadConnectors();
    } catch (err) {
      setFailure(failureOf(err, 'Kafka Connect'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <details className="cdc-config-box" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        Config: {keys} keys
        {versions.length > 1 && diff && (
          <span className="cdc-muted">
            {' '}
            · {versions.length} versions, {diffSummary(diff)} since {baseIndex === latest - 1 ? 'the previous one' : `v${baseIndex + 1}`}
          </span>
        )}
      </summary>
      {draft === null ? (
        <>
          {versions.length > 1 && diff ? (
            <>
              <div className="cdc-row">
                <label className="cdc-muted">
                  Compare the current config (v{versions.length}, {versions[latest]!.origin === 'edited' ? 'saved from Loupe' : 'seen'} {time(versions[latest]!.at)}) with{' '}
                  <select className="input cdc-input-small" value={baseIndex} onChange={(e) => setBase(Number(e.target.value))}>
                    {versions.slice(0, -1).map((v, i) => (
                      <option key={i} value={i}>
                        {versionLabel(v, i)}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              <DiffTable diff={diff} label={`Config changes of ${connector.name}`} />
              {diff.unchanged > 0 && <p className="cdc-muted">{diff.unchanged} other keys unchanged.</p>}
            </>
          ) : (
            <p className="cdc-muted">One version so far (Kafka Connect keeps only the current config; Loupe keeps the earlier ones it sees or saves, for a diff).</p>
          )}
          <details className="cdc-config-current">
            <summary>Current config (GET /connectors/{connector.name}/config)</summary>
            <pre>{JSON.stringify(current, null, 2)}</pre>
            <p className="cdc-muted">Credentials are shown as fingerprints here; Edit config shows them as Kafka Connect returns them.</p>
          </details>
          <div className="cdc-row">
            <button type="button" className="btn btn-small" onClick={() => setDraft(JSON.stringify(connector.config, null, 2))}>
              Edit config
            </button>
          </div>
        </>
      ) : (
        <div className="cdc-config-edit">
          <label className="cdc-config">
            <span>New config for PUT /connectors/{connector.name}/config</span>
            <textarea aria-label={`Config of ${connector.name}`} spellCheck={false} rows={Math.min(18, draft.split('\n').length + 1)} value={draft} onChange={(e) => setDraft(e.target.value)} />
          </label>
          {parsed && 'error' in parsed && <p className="cdc-warn">{parsed.error}</p>}
          {pending && (
            <>
              <p className="cdc-muted">Changes to save: {diffSummary(pending)}</p>
              {pending.changes.length > 0 && <DiffTable diff={pending} label={`Unsaved changes of ${connector.name}`} />}
            </>
          )}
          {failure && <FailureBox failure={failure} />}
          <div className="cdc-row">
            <button type="button" className="btn btn-small btn-primary" disabled={saving || !pending || pending.changes.length === 0} onClick={() => void save()}>
              {saving ? 'Saving…' : 'Save config'}
            </button>
            <button
              type="button"
              className="btn btn-small"
              disabled={saving}
              onClick={() => {
                setDraft(null);
                setFailure(undefined);
              }}
            >
              Cancel
            </button>
            <span className="cdc-muted">Kafka Connect validates it and restarts the connector with it.</span>
          </div>
        </div>
      )}
    </details>
  );
}
