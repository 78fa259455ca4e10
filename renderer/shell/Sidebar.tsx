/** The left navigation: the three workbenches, then the host's own pages. */
import type { ReactNode } from 'react';
import type { ServiceState } from '../../core/host/contract.js';
import { useShell, serviceByName } from '../store/shell.js';
import { WORKBENCHES, type PageId } from '../store/pages.js';
import { CdcIcon, FederationIcon, LogoMark, RelevanceIcon, ServicesIcon, SettingsIcon } from '../components/Icons.js';
import { stateLabel } from '../components/StateBadge.js';

const ICONS: Record<PageId, () => ReactNode> = {
  federation: FederationIcon,
  relevance: RelevanceIcon,
  cdc: CdcIcon,
  services: ServicesIcon,
  settings: SettingsIcon,
};

function NavItem({ id, label, dots }: { id: PageId; label: string; dots?: { name: string; state: ServiceState }[] }) {
  const page = useShell((s) => s.page);
  const Icon = ICONS[id];
  const current = page === id;
  return (
    <li>
      <a href={`#/${id}`} className="nav-item" aria-current={current ? 'page' : undefined}>
        <Icon />
        <span className="nav-label">{label}</span>
        {dots && dots.length > 0 && (
          <span className="nav-dots" aria-hidden="true" title={dots.map((d) => `${d.name}: ${stateLabel(d.state)}`).join('\n')}>
            {dots.map((d) => (
              <span key={d.name} className={`state-dot state-${d.state}`} />
            ))}
          </span>
        )}
      </a>
    </li>
  );
}

export function Sidebar() {
  const services = useShell((s) => s.services);
  return (
    <nav className="sidebar" aria-label="Main">
      <div className="brand">
        <LogoMark />
        <span className="brand-name">Loupe</span>
      </div>
      <h2 className="nav-heading" id="nav-workbenches">
        Workbenches
      </h2>
      <ul className="nav-list" aria-labelledby="nav-workbenches">
        {WORKBENCHES.map((wb) => (
          <NavItem
            key={wb.id}
            id={wb.id}
            label={wb.title}
            dots={wb.services.flatMap((n) => {
              const s = serviceByName(services, n);
              return s ? [{ name: n, state: s.state }] : [];
            })}
          />
        ))}
      </ul>
      <h2 className="nav-heading" id="nav-host">
        Host
      </h2>
      <ul className="nav-list" aria-labelledby="nav-host">
        <NavItem id="services" label="Services" />
        <NavItem id="settings" label="Settings" />
      </ul>
    </nav>
  );
}
