/** One embedded service as a workbench shows it: what it is, its live state, how to reach it. */
import type { ServiceStatus } from '../../core/host/contract.js';
import { useShell } from '../store/shell.js';
import { SERVICE_INFO } from '../store/pages.js';
import { StateBadge } from './StateBadge.js';
import { ServiceActions } from './ServiceActions.js';

export function ServiceCard({ status }: { status: ServiceStatus }) {
  const info = SERVICE_INFO[status.name];
  const actionError = useShell((s) => s.actionErrors[status.name]);
  const headingId = `svc-${status.name}`;
  return (
    <section className="card service-card" aria-labelledby={headingId} data-service={status.name}>
      <header className="card-header">
        <div>
          <h3 id={headingId} className="card-title">
            {info.title} <code className="service-name">{status.name}</code>
          </h3>
          <p className="card-subtitle">{info.standsFor}</p>
        </div>
        <StateBadge state={status.state} />
      </header>
      <dl className="facts">
        <dt>{status.mode === 'remote' ? 'Remote URL' : 'URL'}</dt>
        <dd>
          <code>{status.url || '—'}</code>
        </dd>
        {status.extraUrls &&
          Object.entries(status.extraUrls).map(([k, v]) => (
            <FactRow key={k} label={`${k.toUpperCase()} URL`} value={v} />
          ))}
        {status.mode === 'embedded' && status.port !== undefined && (
          <>
            <dt>Port</dt>
            <dd>
              <code>{status.port}</code>
              {status.portSetting && <span className="muted"> · set with {status.portSetting}</span>}
            </dd>
          </>
        )}
      </dl>
      {status.state === 'unavailable' && (
        <p className="note">
          The embedded engine for this service is not part of this build yet. To use {info.remoteKind} instead, switch the area to Remote in{' '}
          <a href="#/settings">Settings</a>.
        </p>
      )}
      {status.lastError && (
        <p className="note note-error" role="alert">
          {status.lastError}
        </p>
      )}
      {actionError && (
        <p className="note note-error" role="alert">
          {actionError}
        </p>
      )}
      {status.state !== 'unavailable' && status.url && (
        <div className="try-it">
          <span className="muted">From a terminal</span>
          <code className="command">{info.tryIt.replace('{url}', status.url.replace(/\/$/, ''))}</code>
        </div>
      )}
      <footer className="card-footer">
        <ServiceActions status={status} />
      </footer>
    </section>
  );
}

function FactRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>
      </dd>
    </>
  );
}
