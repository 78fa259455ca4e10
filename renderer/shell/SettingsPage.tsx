/**
 * Settings per area (embedded engine or a remote server, and the embedded port), the other
 * ports, and the theme. Saved through `settings.update`; the host validates and its errors are
 * shown next to the field they are about.
 */
import { useId, type FormEvent, type ReactNode } from 'react';
import type { ServiceName } from '../../core/host/contract.js';
import { isDirty, useSettings } from '../store/settings.js';
import { SERVICE_INFO } from '../store/pages.js';
import { ErrorState, Loading } from '../components/States.js';
import { PageHeader } from './PageHeader.js';

const AREA_ORDER: ServiceName[] = ['search', 'idp', 'sts', 'connect', 'clickhouse'];
const PORT_KEY: Record<ServiceName, string> = { search: 'search', idp: 'idp', sts: 'sts', connect: 'connect', clickhouse: 'clickhouse' };

export function SettingsPage() {
  const { view, draft, loadError, saving, saveError, fieldErrors, saved } = useSettings();
  const dirty = useSettings(isDirty);
  const { load, editArea, editPort, setTheme, save, revert } = useSettings.getState();

  if (!view || !draft) {
    return (
      <>
        <PageHeader title="Settings" />
        <div className="page-body">
          {loadError ? <ErrorState title="Could not read the settings" message={loadError} onRetry={() => void load()} /> : <Loading what="settings" />}
        </div>
      </>
    );
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void save();
  };
  const knownPaths = new Set([
    ...AREA_ORDER.flatMap((n) => [`areas.${n}.mode`, `areas.${n}.port`, `areas.${n}.remoteUrl`]),
    'idpHttpsPort',
    'uiPort',
    'theme',
  ]);
  const otherErrors = Object.entries(fieldErrors).filter(([path]) => !knownPaths.has(path));

  return (
    <>
      <PageHeader title="Settings" subtitle="Where each area's server is, the ports Loupe listens on, and how it looks." />
      <div className="page-body">
        {view.corruptBackup && (
          <p className="banner banner-warning" role="alert">
            The settings file was not valid when Loupe started, so defaults are in use. The broken file was kept as <code>{view.corruptBackup}</code>.
          </p>
        )}

        <section className="panel" aria-labelledby="theme-heading">
          <h2 id="theme-heading" className="section-title">
            Appearance
          </h2>
          <Segmented
            label="Theme"
            name="theme"
            value={draft.theme}
            options={[
              ['system', 'Follow the system'],
              ['light', 'Light'],
              ['dark', 'Dark'],
            ]}
            onChange={(t) => void setTheme(t as 'system' | 'light' | 'dark')}
          />
        </section>

        <form className="panel" onSubmit={onSubmit} aria-labelledby="areas-heading" noValidate>
          <h2 id="areas-heading" className="section-title">
            Services
          </h2>
          <p className="section-help">
            Each area runs on Loupe&apos;s embedded engine, or on a server of your own: Loupe&apos;s clients speak the same protocol to both, so only
            the base URL changes. Port changes apply when the service next starts.
          </p>
          <div className="area-grid" role="presentation">
            <div className="area-grid-head" aria-hidden="true">
              <span>Area</span>
              <span>Runs on</span>
              <span>Embedded port</span>
              <span>Remote URL</span>
            </div>
            {AREA_ORDER.map((name) => {
              const area = draft.areas[name];
              if (!area) return null;
              const info = SERVICE_INFO[name];
              const override = view.overriddenBy[PORT_KEY[name]];
              return (
                <fieldset key={name} className="area-row" data-area={name}>
                  <legend className="area-name">
                    <span>{info.title}</span>
                    <small>{info.standsFor}</small>
                  </legend>
                  <Segmented
                    label={`${info.title} runs on`}
                    hideLabel
                    name={`mode-${name}`}
                    value={area.mode}
                    options={[
                      ['embedded', 'Embedded'],
                      ['remote', 'Remote'],
                    ]}
                    onChange={(mode) => editArea(name, { mode: mode as 'embedded' | 'remote' })}
                    error={fieldErrors[`areas.${name}.mode`]}
                  />
                  <Field label={`${info.title} port`} error={fieldErrors[`areas.${name}.port`]} hint={override ? `This run: ${override}` : undefined}>
                    {(props) => (
                      <input
                        {...props}
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={65535}
                        className="input input-port"
                        value={Number.isFinite(area.port) ? area.port : ''}
                        disabled={area.mode === 'remote'}
                        onChange={(e) => editArea(name, { port: e.target.value === '' ? Number.NaN : Number(e.target.value) })}
                      />
                    )}
                  </Field>
                  <Field label={`${info.title} remote URL`} error={fieldErrors[`areas.${name}.remoteUrl`]}>
                    {(props) => (
                      <input
                        {...props}
                        type="url"
                        className="input"
                        placeholder={name === 'search' ? 'https://search.example.com:9200' : 'https://…'}
                        spellCheck={false}
                        value={area.remoteUrl}
                        disabled={area.mode === 'embedded'}
                        onChange={(e) => editArea(name, { remoteUrl: e.target.value })}
                      />
                    )}
                  </Field>
                </fieldset>
              );
            })}
          </div>

          <div className="port-row">
            <Field label="Identity provider HTTPS port" error={fieldErrors.idpHttpsPort} hint={view.overriddenBy.idpHttps ? `This run: ${view.overriddenBy.idpHttps}` : undefined} visibleLabel>
              {(props) => (
                <input
                  {...props}
                  type="number"
                  min={1}
                  max={65535}
                  className="input input-port"
                  value={Number.isFinite(draft.idpHttpsPort) ? draft.idpHttpsPort : ''}
                  onChange={(e) => editPort('idpHttpsPort', e.target.value === '' ? Number.NaN : Number(e.target.value))}
                />
              )}
            </Field>
            <Field label="Browser UI port (loupe serve)" error={fieldErrors.uiPort} hint={view.overriddenBy.ui ? `This run: ${view.overriddenBy.ui}` : undefined} visibleLabel>
              {(props) => (
                <input
                  {...props}
                  type="number"
                  min={1}
                  max={65535}
                  className="input input-port"
                  value={Number.isFinite(draft.uiPort) ? draft.uiPort : ''}
                  onChange={(e) => editPort('uiPort', e.target.value === '' ? Number.NaN : Number(e.target.value))}
                />
              )}
            </Field>
          </div>

          {(saveError || otherErrors.length > 0) && (
            <div className="banner banner-error" role="alert">
              <strong>The settings were not saved.</strong>{' '}
              {Object.keys(fieldErrors).length > 0 && otherErrors.length === 0 ? 'Correct the fields marked above and save again.' : saveError}
              {otherErrors.length > 0 && (
                <ul>
                  {otherErrors.map(([path, message]) => (
                    <li key={path}>
                      <code>{path}</code>: {message}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}

          <div className="form-footer">
            <span className="muted form-file" title={view.file}>
              Stored in <code>{view.file}</code>
            </span>
            <span className="form-status" role="status" aria-live="polite">
              {saving ? 'Saving…' : dirty ? 'Unsaved changes' : saved ? 'Saved' : ''}
            </span>
            <button type="button" className="btn btn-quiet" onClick={revert} disabled={!dirty || saving}>
              Revert
            </button>
            <button type="submit" className="btn btn-primary" disabled={!dirty || saving}>
              Save
            </button>
          </div>
        </form>
      </div>
    </>
  );
}

interface FieldProps {
  label: string;
  error?: string;
  hint?: string;
  /** Show the label above the input (otherwise it is for screen readers; the grid header shows it). */
  visibleLabel?: boolean;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}

function Field({ label, error, hint, visibleLabel, children }: FieldProps) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id} className={visibleLabel ? 'field-label' : 'visually-hidden'}>
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

interface SegmentedProps {
  label: string;
  hideLabel?: boolean;
  name: string;
  value: string;
  options: [string, string][];
  onChange(value: string): void;
  error?: string;
}

/** A radio group drawn as a segmented control: arrow keys move between options. */
function Segmented({ label, hideLabel, name, value, options, onChange, error }: SegmentedProps) {
  const id = useId();
  return (
    <div className="field">
      <div role="radiogroup" aria-labelledby={`${id}-label`} className="segmented">
        <span id={`${id}-label`} className={hideLabel ? 'visually-hidden' : 'segmented-label'}>
          {label}
        </span>
        {options.map(([v, text]) => (
          <label key={v} className={`segment${value === v ? ' segment-on' : ''}`}>
            <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} />
            {text}
          </label>
        ))}
      </div>
      {error && <span className="field-error">{error}</span>}
    </div>
  );
}
