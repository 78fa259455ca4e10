/**
 * The role choice: a radio group named "Role", grouped by account (as saml2aws shows it), each
 * role with its provider and maximum session; arrow keys move through it. The session duration
 * asked for sits below, capped at the chosen role's maximum.
 */
import { useId } from 'react';
import { groupRoles } from '../checks.js';
import { roleMax, useFederation, type RoleChoice } from '../store.js';

export function RolePicker({ choices }: { choices: RoleChoice[] }) {
  const { role, account, durationSeconds } = useFederation();
  const { chooseRole, setDuration } = useFederation.getState();
  const id = useId();
  const groups = groupRoles(choices.map((c) => ({ roleArn: c.roleArn, principalArn: c.principalArn ?? '' })));
  const max = roleMax(account, role?.roleArn)?.maxSessionDuration;
  return (
    <div className="fed-roles">
      <div role="radiogroup" aria-label="Role" aria-describedby={`${id}-help`} className="fed-radiogroup">
        <div className="fed-subtitle" id={`${id}-help`}>
          Role {choices.length > 1 ? `(${choices.length} to choose from)` : ''}
        </div>
        {groups.length === 0 && <p className="muted">No role to choose from.</p>}
        {groups.map((g) => (
          <div key={g.account} className="fed-role-group" role="group" aria-label={`Account ${g.account}`}>
            <div className="fed-role-account">
              Account <code>{g.account}</code>
            </div>
            {g.roles.map((r) => {
              const checked = role?.roleArn === r.roleArn && (role.principalArn ?? '') === r.principalArn;
              const m = roleMax(account, r.roleArn)?.maxSessionDuration;
              return (
                <label key={`${r.roleArn},${r.principalArn}`} className={`fed-role${checked ? ' fed-role-on' : ''}`}>
                  <input type="radio" name={`${id}-role`} checked={checked} onChange={() => chooseRole({ roleArn: r.roleArn, ...(r.principalArn ? { principalArn: r.principalArn } : {}) })} />
                  <span className="fed-role-name">{r.name}</span>
                  <span className="fed-role-meta">
                    {r.principalArn ? <>via {r.provider}</> : 'web identity'}
                    {m ? ` · max ${m / 3600} h` : ''}
                  </span>
                </label>
              );
            })}
          </div>
        ))}
      </div>
      <div className="field fed-duration">
        <label className="field-label" htmlFor={`${id}-duration`}>
          Session duration (seconds)
        </label>
        <input
          id={`${id}-duration`}
          className="input"
          type="number"
          min={900}
          max={max ?? 43200}
          step={300}
          value={durationSeconds}
          onChange={(e) => setDuration(Number(e.target.value))}
        />
        <span className="field-hint">{max ? `900 – ${max} for this role` : '900 – 43200'}</span>
      </div>
    </div>
  );
}
