/**
 * Where a sign-in starts: the IdP's SAML page (a client of the realm, or any SSO URL), the two
 * sign-in buttons, the saved profiles with "Sign in again", and the capture's progress with
 * Cancel while the browser window is open.
 */
import { useId, useState } from 'react';
import { useFederation } from '../store.js';
import { ErrorExplained } from './ErrorExplained.js';
import { OidcForm } from './OidcForm.js';

const OTHER = '__other__';

export function SignInPanel() {
  const { clients, samlSource, capture, environment, profiles, lastUsedProfile, profile, oidcOpen, token } = useFederation();
  const { setSamlSource, signInWithSaml, cancelCapture, openOidc, signInWithProfile, deleteProfile } = useFederation.getState();
  const [chosenProfile, setChosenProfile] = useState<string | undefined>(undefined);
  const selectedProfile = chosenProfile ?? profile ?? lastUsedProfile ?? profiles[0]?.name;
  const ids = { title: useId(), page: useId(), url: useId(), profile: useId() };
  const samlClients = clients.filter((c) => c.protocol === 'saml' && c.urlName);
  const running = capture.phase === 'running';
  const last = capture.progress.at(-1);
  const loginFailed = [...capture.progress].reverse().find((e) => e.stage === 'login-failed');
  const pageValue = 'ssoUrl' in samlSource ? OTHER : samlSource.urlName;

  return (
    <section className="panel fed-signin" aria-labelledby={ids.title}>
      <div className="fed-panel-head">
        <h2 id={ids.title} className="fed-panel-title">
          Sign in
        </h2>
        {environment && (
          <span className="fed-env">
            {environment.kind === 'electron' ? 'Opens a Loupe sign-in window' : environment.visible ? 'Opens a Chromium window' : 'Chromium runs headless here (no display)'}
            {environment.cdpPort ? ` · DevTools on 127.0.0.1:${environment.cdpPort}` : ''} · the assertion never leaves this machine
          </span>
        )}
      </div>

      <div className="fed-signin-row">
        <div className="field fed-field-page">
          <label className="field-label" htmlFor={ids.page}>
            SAML sign-in page
          </label>
          <select
            id={ids.page}
            className="input fed-select"
            value={pageValue}
            disabled={running}
            onChange={(e) => setSamlSource(e.target.value === OTHER ? { ssoUrl: '' } : { urlName: e.target.value })}
          >
            {samlClients.map((c) => (
              <option key={c.id} value={c.urlName}>
                {c.urlName} — {c.name ?? c.clientId}
              </option>
            ))}
            {samlClients.length === 0 && <option value="cloud">cloud</option>}
            <option value={OTHER}>Another identity provider (SSO URL)…</option>
          </select>
        </div>
        {'ssoUrl' in samlSource && (
          <div className="field fed-field-url">
            <label className="field-label" htmlFor={ids.url}>
              SSO URL
            </label>
            <input
              id={ids.url}
              className="input"
              type="url"
              placeholder="https://idp.example.com/realms/corp/protocol/saml/clients/aws"
              value={samlSource.ssoUrl}
              disabled={running}
              onChange={(e) => setSamlSource({ ssoUrl: e.target.value })}
            />
          </div>
        )}
        <div className="fed-signin-actions">
          <button type="button" className="btn btn-primary" disabled={running || ('ssoUrl' in samlSource && !/^https?:\/\/\S+/.test(samlSource.ssoUrl))} onClick={() => void signInWithSaml()}>
            Sign in with SAML
          </button>
          <button type="button" className="btn" aria-expanded={oidcOpen} disabled={running} onClick={() => openOidc(!oidcOpen)}>
            Sign in with OIDC
          </button>
        </div>
      </div>

      {profiles.length > 0 && (
        <div className="fed-profiles">
          <label className="field-label" htmlFor={ids.profile}>
            Saved profile
          </label>
          <select id={ids.profile} className="input fed-select fed-profile-select" value={selectedProfile} disabled={running} onChange={(e) => setChosenProfile(e.target.value)}>
            {profiles.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name} — {p.kind.toUpperCase()} {p.roleArn ? p.roleArn.replace(/^.*:role\//, '') : ''}
                {p.name === lastUsedProfile ? ' (last used)' : ''}
              </option>
            ))}
          </select>
          <button type="button" className="btn" disabled={running || !selectedProfile} onClick={() => selectedProfile && void signInWithProfile(selectedProfile)}>
            Sign in again
          </button>
          <button type="button" className="btn btn-quiet btn-small" disabled={running || !selectedProfile} onClick={() => selectedProfile && void deleteProfile(selectedProfile)}>
            Delete profile
          </button>
        </div>
      )}

      {running && (
        <div className="fed-progress" role="status" aria-live="polite">
          <div className="fed-progress-bar" aria-hidden="true">
            <span />
          </div>
          <div className="fed-progress-text">
            <span>{last?.message ?? 'Starting the sign-in browser…'}</span>
            {loginFailed && <span className="fed-progress-warn">{loginFailed.message}</span>}
          </div>
          <button type="button" className="btn btn-small" onClick={() => void cancelCapture()}>
            Cancel
          </button>
        </div>
      )}
      {capture.phase === 'error' && capture.error && <ErrorExplained title="The SAML sign-in did not finish" error={capture.error} />}

      {oidcOpen && <OidcForm />}
      {token.phase === 'error' && token.error && <ErrorExplained title="The OIDC sign-in failed" error={token.error} />}
    </section>
  );
}
