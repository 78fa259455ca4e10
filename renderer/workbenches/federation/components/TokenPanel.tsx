/** The OIDC tokens, decoded (not verified here; the token service verifies), and the role to assume with them. */
import { useId } from 'react';
import type { PasswordGrantResult } from '../../../../core/host/contract.js';
import { countdown } from '../checks.js';
import { useNow } from '../hooks.js';
import { useFederation, webIdentityRoles } from '../store.js';
import { RolePicker } from './RolePicker.js';

export function TokenPanel({ result }: { result: PasswordGrantResult }) {
  const account = useFederation((s) => s.account);
  const now = useNow();
  const id = useId();
  const exp = typeof result.claims.exp === 'number' ? result.claims.exp * 1000 : NaN;
  const left = Number.isFinite(exp) ? countdown(exp, now) : undefined;
  return (
    <section className="panel fed-assertion" aria-labelledby={`${id}-title`}>
      <div className="fed-panel-head">
        <h2 id={`${id}-title`} className="fed-panel-title">
          Token
        </h2>
        {left && <span className={`state ${left === 'expired' ? 'state-failed' : 'state-running'}`}>{left === 'expired' ? 'Access token expired' : `Valid for ${left}`}</span>}
        <span className="fed-env">from {result.tokenEndpoint}</span>
      </div>
      <RolePicker choices={webIdentityRoles(account)} />
      <div className="fed-claims-grid">
        <div className="fed-claims">
          <div className="fed-subtitle">Access token claims</div>
          <pre className="fed-json" aria-label="Access token claims">
            {JSON.stringify(result.claims, null, 2)}
          </pre>
        </div>
        {result.idTokenClaims && (
          <div className="fed-claims">
            <div className="fed-subtitle">ID token claims</div>
            <pre className="fed-json" aria-label="ID token claims">
              {JSON.stringify(result.idTokenClaims, null, 2)}
            </pre>
          </div>
        )}
      </div>
    </section>
  );
}
