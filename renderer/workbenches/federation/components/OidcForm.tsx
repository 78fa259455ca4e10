/**
 * The OpenID Connect password grant as a form, for clients that allow direct access grants
 * (Keycloak's loupe-cli). The token comes from the IdP's HTTPS issuer, the one the token
 * service trusts. The password and client secret are sent once and never kept.
 */
import { useId, type FormEvent } from 'react';
import { useFederation } from '../store.js';

export function OidcForm() {
  const { oidc, token, clients } = useFederation();
  const { editOidc, signInWithPassword } = useFederation.getState();
  const id = useId();
  const oidcClients = clients.filter((c) => c.protocol === 'openid-connect' && c.directAccessGrantsEnabled !== undefined);
  const running = token.phase === 'running';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void signInWithPassword();
  };
  return (
    <form className="fed-oidc" aria-label="OIDC sign-in" onSubmit={submit}>
      <p className="fed-oidc-help">Password grant at the realm's token endpoint, then AssumeRoleWithWebIdentity with the access token.</p>
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
          <input id={`${id}-secret`} className="input" type="password" autoComplete="off" value={oidc.clientSecret} placeholder="for confidential clients" onChange={(e) => editOidc({ clientSecret: e.target.value })} />
        </div>
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
