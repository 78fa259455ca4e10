/**
 * The CDC workbench: set up the seed's pipeline (variant 1 or 2), change rows in the source, and
 * watch versions pile up in the target and vanish after OPTIMIZE TABLE … FINAL CLEANUP.
 */
import { PageHeader } from '../../shell/PageHeader.js';
import { ServiceCard } from '../../components/ServiceCard.js';
import { serviceByName, useShell } from '../../store/shell.js';
import { useCdcLive } from './hooks.js';
import { Wizard } from './components/Wizard.js';
import { SourceConsole } from './components/SourceConsole.js';
import { TargetVisualizer } from './components/TargetVisualizer.js';
import { Connectors } from './components/Connectors.js';
import { MessageStream } from './components/MessageStream.js';
import { FlowView } from './components/FlowView.js';
import { DedupeDemo } from './components/DedupeDemo.js';
import './cdc.css';

export function CdcPage() {
  useCdcLive();
  const services = useShell((s) => s.services);
  return (
    <>
      <PageHeader title="CDC" subtitle="Debezium-style capture from a MySQL table to a ReplacingMergeTree: watch versions pile up, and disappear after OPTIMIZE TABLE … FINAL CLEANUP." />
      <div className="page-body cdc-page">
        <Wizard />
        <div className="cdc-main">
          <SourceConsole />
          <TargetVisualizer />
        </div>
        <FlowView />
        <DedupeDemo />
        <div className="cdc-lower">
          <MessageStream />
          <Connectors />
        </div>
        <section aria-labelledby="cdc-services">
          <h2 id="cdc-services" className="section-title">
            Services it uses
          </h2>
          <div className="cards">
            {services &&
              (['connect', 'clickhouse'] as const).map((name) => {
                const status = serviceByName(services, name);
                return status ? <ServiceCard key={name} status={status} /> : null;
              })}
          </div>
        </section>
      </div>
    </>
  );
}
