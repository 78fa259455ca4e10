/**
 * The region "Credentials": Get credentials (AssumeRoleWithSAML / AssumeRoleWithWebIdentity at
 * the configured token service), the keys with the secret masked until revealed, the expiry
 * with a live countdown and Sign in again once it has passed, Verify (GetCallerIdentity), Copy
 * in the format chosen, and Write profile to ~/.aws.
 */
import { useId, useState } from 'react';
import type { CredentialsFormat } from '../../../../core/host/contract.js';
import { countdown } from '../checks.js';
import { useNow } from '../hooks.js';
import { useFederation } from '../store.js';
import { ErrorExplained } from './ErrorExplained.js';

const FORMATS: { id: CredentialsFormat; label: string }[] = [
  { id: 'env', label: 'bash / zsh' },
  { id: 'fish', label: 'fish' },
  { id: 'powershell', label: 'PowerShell' },
  { id: 'ini', label: 'credentials file' },
  { id: 'json', label: 'credential_process' },
];

const mask = (s: string) => '•'.repeat(Math.min(24, s.length));

export function CredentialsPanel({ stsUrl }: { stsUrl: string | undefined }) {
  const s = useFederation();
  const { getCredentials, verifyCredentials, setCopyFormat, copy, setWriteName, setWriteCredentialProcess, writeProfile, signInAgain } = useFederation.getState();
  const now = useNow();
  const [reveal, setReveal] = useState(false);
  const id = useId();
  const ready = s.role !== null && (s.flow === 'saml' ? s.assertion !== null : s.token.result !== undefined);
  const call = s.flow === 'saml' ? 'AssumeRoleWithSAML' : 'AssumeRoleWithWebIdentity';
  const result = s.credentials.result;
  const c = result?.credentials;
  const expires = c ? Date.parse(c.expiration) : NaN;
  const left = Number.isFinite(expires) ? countdown(expires, now) : undefined;
  const expired = left === 'expired';
  const preview = s.preview && c && !reveal ? s.preview.split(c.secretAccessKey).join(mask(c.secretAccessKey)).split(c.sessionToken).join(mask(c.sessionToken)) : s.preview;

  return (
    <section className="panel fed-credentials" aria-label="Credentials">
      <div className="fed-panel-head">
        <h2 className="fed-panel-title">Credentials</h2>
        <span className="fed-env">
          {call} at <code>{stsUrl ?? 'the token service'}</code>
        </span>
      </div>

      <div className="fed-get">
        <button type="button" className="btn btn-primary" disabled={!ready || s.credentials.phase === 'running'} onClick={() => void getCredentials()}>
          Get credentials
        </button>
        {!ready && s.credentials.phase === 'idle' && <span className="muted">{s.assertion || s.token.result ? 'Choose a role first.' : 'Sign in first, then choose a role.'}</span>}
        {s.credentials.phase === 'running' && (
          <span className="muted" role="status">
            <span className="spinner fed-inline-spinner" aria-hidden="true" /> Calling {call}…
          </span>
        )}
      </div>

      {s.credentials.phase === 'error' && s.credentials.error && <ErrorExplained title={`${call} failed`} error={s.credentials.error} />}
      {s.credentials.phase === 'running' && (
        <div className="fed-skeleton-lines" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
      )}

      {c && result && (
        <>
          <dl className="facts fed-facts fed-keys">
            <dt>Assumed role</dt>
            <dd>
              <code>{result.assumedRoleUser.arn}</code>
            </dd>
            <dt>Access key ID</dt>
            <dd>
              <code data-testid="access-key-id">{c.accessKeyId}</code>
            </dd>
            <dt>Secret access key</dt>
            <dd className="fed-secret">
              <code data-testid="secret-access-key">{reveal ? c.secretAccessKey : mask(c.secretAccessKey)}</code>
              <button type="button" className="btn btn-small btn-quiet" aria-pressed={reveal} onClick={() => setReveal(!reveal)}>
                {reveal ? 'Hide' : 'Reveal'}
              </button>
            </dd>
            <dt>Session token</dt>
            <dd>
              <code className="fed-token">{reveal ? c.sessionToken : `${c.sessionToken.slice(0, 16)}… (${c.sessionToken.length} characters)`}</code>
            </dd>
            <dt>Expires</dt>
            <dd>
              {new Date(expires).toLocaleString()} <code className="muted">{c.expiration}</code>{' '}
              <span className={`state ${expired ? 'state-failed' : 'state-running'}`} data-testid="expiry">
                <span className="state-dot" aria-hidden="true" />
                {expired ? 'Expired' : `${left} left`}
              </span>
              {expired && (
                <button type="button" className="btn btn-small fed-again" onClick={() => void signInAgain()}>
                  Sign in again
                </button>
              )}
            </dd>
          </dl>

          <div className="fed-verify">
            <button type="button" className="btn" disabled={s.verify.phase === 'running'} onClick={() => void verifyCredentials()}>
              Verify
            </button>
            {s.verify.phase === 'running' && <span className="muted">Calling GetCallerIdentity…</span>}
            {s.verify.phase === 'done' && s.verify.identity && (
              <span className="fed-verified" role="status">
                <span className="state state-running">
                  <span className="state-dot" aria-hidden="true" />
                  GetCallerIdentity
                </span>
                <code>{s.verify.identity.arn}</code>
              </span>
            )}
          </div>
          {s.verify.phase === 'error' && s.verify.error && <ErrorExplained title="GetCallerIdentity failed" error={s.verify.error} />}

          <div className="fed-copy">
            <div className="segmented" role="radiogroup" aria-label="Copy as">
              {FORMATS.map((f) => (
                <label key={f.id} className={`segment${s.copyFormat === f.id ? ' segment-on' : ''}`}>
                  <input type="radio" name={`${id}-format`} checked={s.copyFormat === f.id} onChange={() => setCopyFormat(f.id)} />
                  {f.label}
                </label>
              ))}
            </div>
            <button type="button" className="btn" onClick={() => void copy()}>
              Copy
            </button>
            {s.copied.phase === 'done' && (
              <span className="muted" role="status">
                Copied to the clipboard.
              </span>
            )}
          </div>
          {preview && (
            <pre className="fed-preview" aria-label="Copy preview">
              {preview}
            </pre>
          )}
          {s.copied.phase === 'error' && s.copied.error && <ErrorExplained title="Could not copy" error={s.copied.error} />}

          <form
            className="fed-write"
            onSubmit={(e) => {
              e.preventDefault();
              void writeProfile();
            }}
          >
            <div className="field">
              <label className="field-label" htmlFor={`${id}-profile`}>
                Profile name
              </label>
              <input id={`${id}-profile`} className="input" value={s.writeName} onChange={(e) => setWriteName(e.target.value)} />
            </div>
            <label className="fed-check">
              <input type="checkbox" checked={s.writeCredentialProcess} onChange={(e) => setWriteCredentialProcess(e.target.checked)} />
              <span>
                Also add <code>credential_process</code> to <code>~/.aws/config</code> (signs in again when they expire)
              </span>
            </label>
            <button type="submit" className="btn" disabled={!/^[A-Za-z0-9_.@+-]{1,64}$/.test(s.writeName) || s.write.phase === 'running'}>
              Write profile
            </button>
          </form>
          {s.write.phase === 'done' && s.write.result && (
            <p className="note" role="status">
              Wrote <code>[{s.writeName}]</code> to <code>{s.write.result.credentialsFile}</code> (0600)
              {s.write.result.credentialsBackup && (
                <>
                  ; the previous file is kept as <code>{s.write.result.credentialsBackup}</code>
                </>
              )}
              {s.write.result.configFile && (
                <>
                  . <code>credential_process</code> added to <code>{s.write.result.configFile}</code>: try <code>aws sts get-caller-identity --profile {s.writeName}</code>
                </>
              )}
              . Saved as sign-in profile <strong>{s.writeName}</strong>.
            </p>
          )}
          {s.write.phase === 'error' && s.write.error && <ErrorExplained title="Could not write the profile" error={s.write.error} />}
        </>
      )}
    </section>
  );
}
