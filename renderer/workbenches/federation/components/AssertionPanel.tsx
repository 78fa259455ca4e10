/**
 * The captured assertion, read before anything is sent: issuer, subject, audience, where it was
 * going, its validity with a countdown, the signature as checked, RoleSessionName and
 * SessionDuration, what the token service would refuse, the role to choose, and the XML itself.
 */
import { lazy, Suspense, useId, useState } from 'react';
import type { CapturedAssertion } from '../../../../core/host/contract.js';
import { assertionWarnings, countdown, validityWindow } from '../checks.js';
import { useAfterSettling, useNow } from '../hooks.js';
import { roleMax, useFederation } from '../store.js';
import { RolePicker } from './RolePicker.js';

const XmlViewer = lazy(() => import('./XmlViewer.js'));

const AWS = 'https://aws.amazon.com/SAML/Attributes/';

export function AssertionPanel({ assertion }: { assertion: CapturedAssertion }) {
  const { account, role } = useFederation();
  const now = useNow();
  const id = useId();
  const warnings = assertionWarnings(assertion, now, roleMax(account, role?.roleArn));
  const until = assertion.notOnOrAfter ? Date.parse(assertion.notOnOrAfter) : NaN;
  const left = Number.isFinite(until) ? countdown(until, now) : undefined;
  const otherAttributes = Object.entries(assertion.attributes).filter(([k]) => !k.startsWith(AWS));

  return (
    <section className="panel fed-assertion" aria-labelledby={`${id}-title`}>
      <div className="fed-panel-head">
        <h2 id={`${id}-title`} className="fed-panel-title">
          Assertion
        </h2>
        <span className={`state fed-sig fed-sig-${assertion.signature.status}`} title={assertion.signature.message}>
          <span className="state-dot" aria-hidden="true" />
          {assertion.signature.status === 'verified' ? 'Signature verified' : assertion.signature.status === 'failed' ? 'Signature invalid' : 'Signature not checked here'}
        </span>
        {left && <span className={`state ${left === 'expired' ? 'state-failed' : 'state-running'}`}>{left === 'expired' ? 'Assertion expired' : `Valid for ${left}`}</span>}
      </div>

      {warnings.length > 0 && (
        <ul className="fed-warnings" aria-label="What the token service will refuse">
          {warnings.map((w) => (
            <li key={w.text} className={`fed-warning fed-warning-${w.level}`}>
              <span className="fed-warning-icon" aria-hidden="true">
                {w.level === 'error' ? '✕' : '!'}
              </span>
              <span>
                <span className="visually-hidden">{w.level === 'error' ? 'Will fail: ' : 'Warning: '}</span>
                {w.text}
                <span className="fed-warning-fix">Fix: {w.fix}</span>
              </span>
            </li>
          ))}
        </ul>
      )}

      <RolePicker choices={assertion.roles} />
      <dl className="facts fed-facts">
          <dt>Issuer</dt>
          <dd>
            <code>{assertion.issuer}</code>
          </dd>
          <dt>Subject</dt>
          <dd>
            <code>{assertion.subject}</code>
            {assertion.subjectFormat && <span className="muted"> ({assertion.subjectFormat.replace(/^.*:/, '')})</span>}
          </dd>
          <dt>Audience</dt>
          <dd>
            <code>{assertion.audience ?? '—'}</code>
          </dd>
          <dt>Posted to</dt>
          <dd>
            <code>{assertion.acsUrl}</code> <span className="muted">(stopped, not sent)</span>
          </dd>
          <dt>Valid</dt>
          <dd>{validityWindow(assertion.notBefore, assertion.notOnOrAfter)}</dd>
          <dt>Signature</dt>
          <dd>{assertion.signature.message}</dd>
          <dt>RoleSessionName</dt>
          <dd>{assertion.roleSessionName ? <code>{assertion.roleSessionName}</code> : <span className="fed-missing">missing</span>}</dd>
          <dt>SessionDuration</dt>
          <dd>{assertion.sessionDuration !== undefined ? `${assertion.sessionDuration} s` : <span className="muted">not sent (1 h)</span>}</dd>
          {otherAttributes.map(([k, v]) => (
            <FactRow key={k} name={k} values={v} />
          ))}
      </dl>
    </section>
  );
}

/** The decoded XML in its own panel, full width under the assertion and the credentials. */
/**
 * The viewer (Monaco: its chunk to load, then tens to hundreds of milliseconds of main thread to
 * build) waits until the assertion has been on screen a moment or a credentials call has
 * answered, and never runs during one: a prompt Get credentials has the page to itself.
 */
const XML_VIEWER_AFTER_MS = 800;

export function XmlPanel({ assertion }: { assertion: CapturedAssertion }) {
  const [showXml, setShowXml] = useState(true);
  const gettingCredentials = useFederation((s) => s.credentials.phase === 'running');
  const viewerTurn = useAfterSettling(gettingCredentials, XML_VIEWER_AFTER_MS);
  const id = useId();
  return (
    <section className="panel fed-xml-panel" aria-labelledby={`${id}-xml`}>
      <div className="fed-xml-head">
        <h2 id={`${id}-xml`} className="fed-panel-title">
          Decoded SAML response
        </h2>
        <button type="button" className="btn btn-small btn-quiet" aria-expanded={showXml} onClick={() => setShowXml(!showXml)}>
          {showXml ? 'Hide' : 'Show'} XML
        </button>
        <span className="muted">Indented for reading; the token service gets the response exactly as signed. Ctrl+F finds, the gutter folds.</span>
      </div>
      {showXml &&
        (viewerTurn ? (
          <Suspense fallback={<XmlLoading />}>
            <XmlViewer xml={assertion.xml} label="Decoded SAML response (read only)" />
          </Suspense>
        ) : (
          <XmlLoading />
        ))}
    </section>
  );
}

function XmlLoading() {
  return <div className="fed-xml fed-skeleton" role="status" aria-label="Loading the XML viewer" />;
}

function FactRow({ name, values }: { name: string; values: string[] }) {
  return (
    <>
      <dt title={name}>{name.replace(/^.*[/:]/, '')}</dt>
      <dd>
        <code>{values.join(', ')}</code>
      </dd>
    </>
  );
}
