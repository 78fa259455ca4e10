/**
 * Which search server the workbench talks to (the embedded engine, or the remote URL from
 * Settings), its credentials for a remote cluster (basic auth or API key), and a connection test
 * whose failure says why in plain words.
 */
import { useEffect, useState } from 'react';
import type { SearchConnectionTest, SearchRemoteAuthView } from '../../../../core/host/contract.js';
import { bridge } from '../../../bridge.js';
import { useSettings } from '../../../store/settings.js';
import { useShell } from '../../../store/shell.js';

export function ConnectionBar() {
  const area = useSettings((s) => s.view?.settings.areas.search);
  const [open, setOpen] = useState(false);
  const [test, setTest] = useState<SearchConnectionTest | null>(null);
  const [testing, setTesting] = useState(false);
  const [auth, setAuth] = useState<SearchRemoteAuthView | null>(null);
  const [kind, setKind] = useState<'none' | 'basic' | 'apiKey'>('none');
  const [user, setUser] = useState('');
  const [secret, setSecret] = useState('');
  const [saveMsg, setSaveMsg] = useState('');
  const remote = area?.mode === 'remote';

  // The status line tells the truth from the start: who answers at the configured URL.
  const url = remote ? area?.remoteUrl : 'embedded';
  useEffect(() => {
    if (!url) return;
    void bridge()
      .invoke('search.testConnection', {})
      .then(setTest)
      .catch(() => setTest(null));
  }, [url]);

  useEffect(() => {
    if (!open) return;
    void bridge()
      .invoke('search.remoteAuth', {})
      .then((a) => {
        setAuth(a);
        setKind(a.kind);
        setUser(a.username ?? '');
      })
      .catch(() => setAuth(null));
  }, [open]);

  const runTest = async () => {
    setTesting(true);
    try {
      setTest(await bridge().invoke('search.testConnection', {}));
    } catch (err) {
      setTest({ ok: false, url: area?.remoteUrl ?? '', message: (err as Error).message, hint: 'The host could not run the test.' });
    } finally {
      setTesting(false);
    }
  };

  const save = async () => {
    setSaveMsg('');
    try {
      const next = await bridge().invoke('search.setRemoteAuth', kind === 'basic' ? { kind, username: user, password: secret } : kind === 'apiKey' ? { kind, apiKey: secret } : { kind: 'none' });
      setAuth(next);
      setSecret('');
      setSaveMsg('Saved (stored with mode 0600 in the data directory).');
      await runTest();
    } catch (err) {
      setSaveMsg((err as Error).message);
    }
  };

  return (
    <div className="rel-conn">
      <span className="rel-conn-line">
        <span className={`rel-dot ${test ? (test.ok ? 'rel-dot-ok' : 'rel-dot-bad') : ''}`} aria-hidden="true" />
        Search server: {remote ? <code>{area?.remoteUrl}</code> : <span>embedded engine</span>}
        {test?.ok && (
          <span className="muted">
            {' '}
            · {test.distribution} {test.version} ({test.tookMs} ms)
          </span>
        )}
        <button type="button" className="btn btn-small btn-quiet" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
          Connection
        </button>
      </span>
      {open && (
        <div className="rel-conn-panel" role="region" aria-label="Connection">
          <p className="muted">
            Embedded or remote is chosen in{' '}
            <a href="#/settings" onClick={() => useShell.getState().navigate('settings')}>
              Settings
            </a>{' '}
            (Search → Remote URL). Credentials below are used for a remote cluster only.
          </p>
          <div className="rel-conn-form">
            <select className="input rel-select-small" aria-label="Authentication" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
              <option value="none">No authentication</option>
              <option value="basic">User and password</option>
              <option value="apiKey">API key</option>
            </select>
            {kind === 'basic' && <input className="input" aria-label="User" placeholder="elastic" value={user} onChange={(e) => setUser(e.target.value)} autoComplete="username" />}
            {kind !== 'none' && (
              <input
                className="input"
                type="password"
                aria-label={kind === 'basic' ? 'Password' : 'API key'}
                placeholder={auth?.secretSet && auth.kind === kind ? '(stored; type to replace)' : kind === 'basic' ? 'password' : 'base64 id:key'}
                value={secret}
                onChange={(e) => setSecret(e.target.value)}
                autoComplete="current-password"
              />
            )}
            <button type="button" className="btn btn-small" onClick={() => void save()} disabled={(kind === 'basic' && (!user || !secret)) || (kind === 'apiKey' && !secret)}>
              Save credentials
            </button>
            <button type="button" className="btn btn-small" onClick={() => void runTest()} disabled={testing}>
              {testing ? 'Testing…' : 'Test connection'}
            </button>
          </div>
          {saveMsg && <p className="muted">{saveMsg}</p>}
          {test && !test.ok && (
            <div className="rel-error" role="alert">
              <strong>Cannot use {test.url}</strong>
              <code className="rel-error-es">{test.message}</code>
              <span>{test.hint}</span>
            </div>
          )}
          {test?.ok && (
            <p className="rel-ok" role="status">
              Connected to {test.distribution === 'loupe' ? 'the embedded engine' : `${test.distribution} ${test.version}`} at <code>{test.url}</code> (cluster {test.clusterName}).
            </p>
          )}
        </div>
      )}
    </div>
  );
}
