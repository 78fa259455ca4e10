/**
 * A workbench's first screen: what it will do and the embedded services it runs on, with their
 * live state. The workbench issues replace the body with the real tools.
 */
import { useShell, serviceByName } from '../store/shell.js';
import { WORKBENCHES, type WorkbenchId } from '../store/pages.js';
import { ServiceCard } from '../components/ServiceCard.js';
import { ErrorState, Loading } from '../components/States.js';
import { PageHeader } from '../shell/PageHeader.js';

export function WorkbenchOverview({ id }: { id: WorkbenchId }) {
  const wb = WORKBENCHES.find((w) => w.id === id)!;
  const services = useShell((s) => s.services);
  const loadError = useShell((s) => s.loadError);
  const refresh = useShell((s) => s.refresh);
  return (
    <>
      <PageHeader title={wb.title} subtitle={wb.tagline} />
      <div className="page-body">
        <section className="panel" aria-labelledby={`${id}-plan`}>
          <h2 id={`${id}-plan`} className="section-title">
            What this workbench will hold
          </h2>
          <ul className="capabilities">
            {wb.capabilities.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </section>
        <section aria-labelledby={`${id}-services`}>
          <h2 id={`${id}-services`} className="section-title">
            {wb.services.length === 1 ? 'Service it uses' : 'Services it uses'}
          </h2>
          {services === null && !loadError && <Loading what="service states" />}
          {services === null && loadError && <ErrorState title="Could not read the service states" message={loadError} onRetry={() => void refresh()} />}
          {services !== null && (
            <div className="cards">
              {wb.services.map((name) => {
                const status = serviceByName(services, name);
                return status ? (
                  <ServiceCard key={name} status={status} />
                ) : (
                  <div key={name} className="card placeholder">
                    The host does not report a <code>{name}</code> service.
                  </div>
                );
              })}
            </div>
          )}
        </section>
      </div>
    </>
  );
}
