/**
 * The Federation workbench: sign in (SAML capture or OIDC), read the assertion or token, choose a
 * role, get temporary credentials and take them where they are needed. One screen; the
 * assertion and the credentials sit side by side where there is room.
 */
import { PageHeader } from '../../shell/PageHeader.js';
import { ErrorState, Loading } from '../../components/States.js';
import { serviceByName, useShell } from '../../store/shell.js';
import { StateBadge } from '../../components/StateBadge.js';
import { ServiceCard } from '../../components/ServiceCard.js';
import { useFederation } from './store.js';
import { useFederationSetup } from './hooks.js';
import { SignInPanel } from './components/SignInPanel.js';
import { AssertionPanel, XmlPanel } from './components/AssertionPanel.js';
import { TokenPanel } from './components/TokenPanel.js';
import { CredentialsPanel } from './components/CredentialsPanel.js';
import './federation.css';

export function FederationPage() {
  useFederationSetup();
  const { setup, flow, assertion, token, capture } = useFederation();
  const services = useShell((s) => s.services);
  const servicesError = useShell((s) => s.loadError);
  const idp = serviceByName(services, 'idp');
  const sts = serviceByName(services, 'sts');
  const down = [idp, sts].filter((s) => s && s.state !== 'running' && s.state !== 'remote');

  return (
    <>
      <PageHeader title="Federation" subtitle="From a SAML or OpenID Connect sign-in to verified temporary cloud credentials." />
      <div className="page-body fed-body">
        {down.length > 0 && (
          <p className="banner banner-warning fed-banner" role="alert">
            {down.map((s) => (
              <span key={s!.name}>
                {s!.name === 'idp' ? 'The identity provider' : 'The token service'} is <StateBadge state={s!.state} compact />.{' '}
              </span>
            ))}
            Start it on the Services page, or point Settings at a remote one.
          </p>
        )}
        {services === null && servicesError ? (
          <ErrorState title="Could not read the service states" message={servicesError} onRetry={() => void useShell.getState().refresh()} />
        ) : setup.phase === 'error' && setup.error ? (
          <ErrorState title="Could not read the federation set-up" message={`${setup.error.message} — ${setup.error.fix}`} onRetry={() => void useFederation.getState().load()} />
        ) : setup.phase !== 'done' ? (
          <Loading what="the identity provider's clients and the token service's roles" />
        ) : (
          <>
            <SignInPanel />
            <div className="fed-columns">
              <div className="fed-col">
                {flow === 'saml' && assertion && <AssertionPanel assertion={assertion} />}
                {flow === 'oidc' && token.result && <TokenPanel result={token.result} />}
                {!assertion && !token.result && <EmptyAssertion capturing={capture.phase === 'running' || token.phase === 'running'} />}
              </div>
              <div className="fed-col">
                <CredentialsPanel stsUrl={sts?.url} />
              </div>
            </div>
            {flow === 'saml' && assertion && <XmlPanel assertion={assertion} />}
            <section aria-labelledby="fed-services">
              <h2 id="fed-services" className="section-title">
                Services it uses
              </h2>
              <div className="cards">
                {[idp, sts].map((s) => s && <ServiceCard key={s.name} status={s} />)}
              </div>
            </section>
          </>
        )}
      </div>
    </>
  );
}

function EmptyAssertion({ capturing }: { capturing: boolean }) {
  if (capturing)
    return (
      <section className="panel fed-assertion" aria-label="Assertion" aria-busy="true">
        <div className="fed-panel-head">
          <h2 className="fed-panel-title">Assertion</h2>
        </div>
        <p className="muted">Waiting for the sign-in to finish in the browser window…</p>
        <div className="fed-skeleton-lines" aria-hidden="true">
          <span />
          <span />
          <span />
          <span />
        </div>
      </section>
    );
  return (
    <section className="panel fed-assertion fed-empty" aria-label="Assertion">
      <div className="fed-panel-head">
        <h2 className="fed-panel-title">Assertion</h2>
      </div>
      <p>
        Nothing captured yet. <strong>Sign in with SAML</strong> opens the identity provider's page in a separate browser window; after you log in, Loupe stops the
        SAMLResponse on its way to the cloud's sign-in service and shows it here: issuer, subject, validity, signature and the roles you may assume.
      </p>
      <p className="muted">
        Demo users on the embedded identity provider: <code>alice</code> / <code>alice</code> (two roles) and <code>bob</code> / <code>bob</code> (one role).
      </p>
    </section>
  );
}
