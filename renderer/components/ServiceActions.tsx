/** Start / Stop / Restart for one service, as the state allows. */
import type { ServiceStatus } from '../../core/host/contract.js';
import { useShell } from '../store/shell.js';
import { SERVICE_INFO } from '../store/pages.js';

export function ServiceActions({ status }: { status: ServiceStatus }) {
  const pending = useShell((s) => s.pending[status.name]);
  const act = useShell((s) => s.act);
  const title = SERVICE_INFO[status.name].title;
  if (status.mode === 'remote' || status.state === 'unavailable') return null;
  const busy = pending !== undefined || status.state === 'starting' || status.state === 'stopping';
  const canStart = status.state === 'stopped' || status.state === 'failed';
  return (
    <div className="actions">
      {canStart ? (
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void act(status.name, 'start')} aria-label={`Start ${title}`}>
          {pending === 'start' ? 'Starting…' : 'Start'}
        </button>
      ) : (
        <>
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => void act(status.name, 'stop')} aria-label={`Stop ${title}`}>
            {pending === 'stop' ? 'Stopping…' : 'Stop'}
          </button>
          <button type="button" className="btn btn-small btn-quiet" disabled={busy} onClick={() => void act(status.name, 'restart')} aria-label={`Restart ${title}`}>
            {pending === 'restart' ? 'Restarting…' : 'Restart'}
          </button>
        </>
      )}
    </div>
  );
}
