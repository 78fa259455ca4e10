/**
 * OpenID Connect sign-in: the authorization code with PKCE in the capture browser (as `aws sso
 * login` does; a public client such as loupe-desktop), or the password grant as a form for
 * clients that allow direct access grants (loupe-cli). The tokens come from the IdP's HTTPS
 * issuer, the one the token service trusts. The password and client secret are sent once and
 * never stored (not in settings.json, not anywhere).
 */
import { useId, type FormEvent } from 'react';
import { useFederation } from '../store.js';

export function OidcForm() {
  const { oidc, token, clients, secrets, rememberSecret } = useFederation();
  const { editOidc, signInWithPassword, signInWithOidcBrowser, setRememberSecret, forgetSecret } = useFederation.getState();
  const kept = secrets.clients.includes(oidc.clientId);
  const capturing = useFederation((st) => st.capture.phase === 'running');
  const id = useId();
  const oidcClients = clients.filter((c) => c.protocol === 'openid-connect' && c.directAccessGrantsEnabled !== undefined);
  const running = token.phase === 'running';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void signInWithPassword();
  };
  return (
    <form className="fed-oidc" aria-label="OIDC sign-in" onSubmit={submit}>
      <p className="fed-oidc-help">
        In the browser: authorization code with PKCE and a loopback redirect. Or, for clients with direct access grants, the password grant below. Then
        AssumeRoleWithWebIdentity with the access token.
      </p>
      <div className="fed-oidc-grid">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-client`}>
            Client
          </label>
          {oidcClients.length > 0 ? (
            <select id={`${id}-client`} className="input fed-select" value={oidc.clientId} onChange={(e) => editOidc({ clientId: e.target.value })}>
              {oidcClients.map((c) => (
                <option key={c.id} value={c.clientId}>
                  {c.clientId}
                  {c.publicClient ? ' (public)' : ''}
                  {c.directAccessGrantsEnabled ? '' : ' (no direct access grants)'}
                </option>
              ))}
            </select>
          ) : (
            <input id={`${id}-client`} className="input" value={oidc.clientId} onChange={(e) => editOidc({ clientId: e.target.value })} />
          )}
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-secret`}>
            Client secret
          </label>
          <input
            id={`${id}-secret`}
            className="input"
            type="password"
            autoComplete="off"
            value={oidc.clientSecret}
            placeholder={kept ? 'kept, encrypted by the OS' : 'for confidential clients'}
            onChange={(e) => editOidc({ clientSecret: e.target.value })}
          />
          {secrets.available ? (
            <span className="fed-secret-keep">
              <label className="fed-check-inline">
                <input type="checkbox" checked={rememberSecret} onChange={(e) => setRememberSecret(e.target.checked)} /> Remember it (encrypted by the OS keychain)
              </label>
              {kept && (
                <button type="button" className="btn btn-small btn-quiet" onClick={() => void forgetSecret(oidc.clientId)}>
                  Forget
                </button>
              )}
            </span>
          ) : (
            <span className="field-hint">Used for this sign-in only; never stored.</span>
          )}
        </div>
        <button type="button" className="btn fed-oidc-browser" disabled={running || capturing || !oidc.clientId} onClick={() => void signInWithOidcBrowser()}>
          Sign in in the browser
        </button>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-user`}>
            Username
          </label>
          <input id={`${id}-user`} className="input" autoComplete="username" value={oidc.username} onChange={(e) => editOidc({ username: e.target.value })} />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-password`}>
            Password
          </label>
          <input id={`${id}-password`} className="input" type="password" autoComplete="current-password" value={oidc.password} onChange={(e) => editOidc({ password: e.target.value })} />
        </div>
        <button type="submit" className="btn btn-primary fed-oidc-submit" disabled={running || !oidc.username || !oidc.clientId}>
          {running ? 'Signing in…' : 'Sign in'}
        </button>
      </div>
    </form>
  );
}
