/** The bottom bar: the link to the host and every service's live state. */
import { useShell } from '../store/shell.js';
import { SERVICE_INFO } from '../store/pages.js';
import { stateLabel } from '../components/StateBadge.js';

const CONNECTION_LABEL = { open: 'Connected', connecting: 'Connecting…', lost: 'Disconnected' } as const;

export function StatusBar() {
  const services = useShell((s) => s.services);
  const connection = useShell((s) => s.connection);
  const transport = useShell((s) => s.transport);
  return (
    <footer className="statusbar" aria-label="Status">
      <span className={`status-connection status-connection-${connection}`} role="status" title={transport === 'ipc' ? 'Desktop app (IPC)' : 'Browser (HTTP + server-sent events)'}>
        <span className="state-dot" aria-hidden="true" />
        {transport === 'ipc' ? 'Desktop' : 'Browser'} · {CONNECTION_LABEL[connection]}
      </span>
      {services === null && <span className="status-loading">Reading service states…</span>}
      <ul className="status-services" aria-label="Service states">
        {services?.map((s) => (
          <li key={s.name}>
            <a
              href="#/services"
              className={`status-chip state-${s.state}`}
              data-service={s.name}
              data-state={s.state}
              title={`${SERVICE_INFO[s.name].standsFor}\n${s.url}${s.lastError ? `\n${s.lastError}` : ''}`}
            >
              <span className="state-dot" aria-hidden="true" />
              <span className="status-chip-name">{s.name}</span>
              <span className="status-chip-state">{stateLabel(s.state)}</span>
            </a>
          </li>
        ))}
      </ul>
    </footer>
  );
}
