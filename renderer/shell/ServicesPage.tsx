/** Every embedded service in one table: what it stands in for, where it listens, its state. */
import { useShell } from '../store/shell.js';
import { SERVICE_INFO } from '../store/pages.js';
import { StateBadge } from '../components/StateBadge.js';
import { ServiceActions } from '../components/ServiceActions.js';
import { Empty, ErrorState, Loading } from '../components/States.js';
import { PageHeader } from './PageHeader.js';

export function ServicesPage() {
  const services = useShell((s) => s.services);
  const loadError = useShell((s) => s.loadError);
  const actionErrors = useShell((s) => s.actionErrors);
  const refresh = useShell((s) => s.refresh);
  return (
    <>
      <PageHeader title="Services" subtitle="The engines Loupe runs on this machine, each behind the wire protocol of the system it stands in for. They listen on 127.0.0.1 only." />
      <div className="page-body">
        {services === null && !loadError && <Loading what="services" />}
        {services === null && loadError && <ErrorState title="Could not read the service states" message={loadError} onRetry={() => void refresh()} />}
        {services !== null && services.length === 0 && <Empty>The host reports no services.</Empty>}
        {services !== null && services.length > 0 && (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Embedded services and their states</caption>
              <thead>
                <tr>
                  <th scope="col">Service</th>
                  <th scope="col">Stands in for</th>
                  <th scope="col">Mode</th>
                  <th scope="col">URL</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {services.map((s) => {
                  const error = actionErrors[s.name] ?? s.lastError;
                  return (
                    <tr key={s.name} data-service={s.name}>
                      <th scope="row">
                        <code className="service-name">{s.name}</code>
                      </th>
                      <td>{SERVICE_INFO[s.name].standsFor}</td>
                      <td>{s.mode === 'remote' ? 'Remote' : 'Embedded'}</td>
                      <td>
                        <code>{s.url || '—'}</code>
                        {s.extraUrls &&
                          Object.values(s.extraUrls).map((u) => (
                            <div key={u}>
                              <code>{u}</code>
                            </div>
                          ))}
                      </td>
                      <td>
                        <StateBadge state={s.state} />
                        {error && <div className="cell-error">{error}</div>}
                      </td>
                      <td className="cell-actions">
                        <ServiceActions status={s} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </>
  );
}
