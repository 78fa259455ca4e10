import type { ServiceState } from '../../core/host/contract.js';

const LABEL: Record<ServiceState, string> = {
  stopped: 'Stopped',
  starting: 'Starting…',
  running: 'Running',
  stopping: 'Stopping…',
  failed: 'Failed',
  remote: 'Remote',
  unavailable: 'Not available',
};

/** A coloured dot plus the state in words (colour is never the only signal). */
export function StateBadge({ state, compact = false }: { state: ServiceState; compact?: boolean }) {
  return (
    <span className={`state state-${state}${compact ? ' state-compact' : ''}`} data-state={state}>
      <span className="state-dot" aria-hidden="true" />
      {LABEL[state]}
    </span>
  );
}

export function stateLabel(state: ServiceState): string {
  return LABEL[state];
}
