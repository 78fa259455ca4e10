/**
 * Settings: what the host has stored, the draft being edited, and the errors the host gave
 * back for it. The theme applies at once; everything else is saved with one update.
 */
import { create } from 'zustand';
import type { AreaSettings, ServiceName, Settings, SettingsPatch, SettingsView } from '../../core/host/contract.js';
import { bridge, HostError } from '../bridge.js';
import { applyTheme } from '../theme.js';

export interface SettingsState {
  view: SettingsView | null;
  draft: Settings | null;
  loading: boolean;
  loadError: string | null;
  saving: boolean;
  /** The host's message for a rejected save. */
  saveError: string | null;
  /** Per-field errors, keyed by the parameter path the host reported (e.g. `areas.search.port`). */
  fieldErrors: Record<string, string>;
  /** Set after a successful save, cleared by the next edit. */
  saved: boolean;

  load(): Promise<void>;
  /** Keeps the store in step with changes made elsewhere (another window, the CLI). */
  connect(): () => void;
  editArea(name: ServiceName, change: Partial<AreaSettings>): void;
  editPort(key: 'idpHttpsPort' | 'uiPort', value: number): void;
  setTheme(theme: Settings['theme']): Promise<void>;
  save(): Promise<void>;
  revert(): void;
}

/** Only what differs from the stored settings, so a port fixed by a flag is never re-sent. */
export function diffSettings(stored: Settings, draft: Settings): SettingsPatch {
  const patch: SettingsPatch = {};
  for (const name of Object.keys(draft.areas) as ServiceName[]) {
    const a = stored.areas[name];
    const b = draft.areas[name];
    const change: Partial<AreaSettings> = {};
    if (a.mode !== b.mode) change.mode = b.mode;
    if (a.remoteUrl !== b.remoteUrl) change.remoteUrl = b.remoteUrl;
    if (a.port !== b.port) change.port = b.port;
    if (Object.keys(change).length) (patch.areas ??= {})[name] = change;
  }
  if (stored.idpHttpsPort !== draft.idpHttpsPort) patch.idpHttpsPort = draft.idpHttpsPort;
  if (stored.uiPort !== draft.uiPort) patch.uiPort = draft.uiPort;
  if (stored.theme !== draft.theme) patch.theme = draft.theme;
  return patch;
}

export function isDirty(s: Pick<SettingsState, 'view' | 'draft'>): boolean {
  return !!s.view && !!s.draft && Object.keys(diffSettings(s.view.settings, s.draft)).length > 0;
}

/**
 * Per-field errors from a rejected update: the host's `issues`, or, for a check that spans
 * fields and reports one message, its leading `<path>: ` (e.g. "areas.search.remoteUrl: a
 * remote search needs a URL").
 */
export function fieldErrorsOf(err: unknown): Record<string, string> {
  if (!(err instanceof HostError) || err.code !== 'bad_params') return {};
  const out: Record<string, string> = {};
  for (const issue of err.issues) out[issue.path] ??= issue.message;
  if (err.issues.length === 0) {
    const m = /^((?:areas\.\w+\.\w+)|idpHttpsPort|uiPort|theme): (.+)$/.exec(err.message);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

export const useSettings = create<SettingsState>()((set, get) => ({
  view: null,
  draft: null,
  loading: false,
  loadError: null,
  saving: false,
  saveError: null,
  fieldErrors: {},
  saved: false,

  async load() {
    set({ loading: true });
    try {
      const view = await bridge().invoke('settings.get', {});
      applyTheme(view.settings.theme);
      set({ view, draft: structuredClone(view.settings), loading: false, loadError: null });
    } catch (err) {
      set({ loading: false, loadError: (err as Error).message });
    }
  },

  connect() {
    return bridge().subscribe('settings.changed', (view) => {
      applyTheme(view.settings.theme);
      // Keep local edits; take the new stored values where nothing was edited.
      set((s) => ({ view, draft: s.draft && isDirty(s) ? s.draft : structuredClone(view.settings) }));
    });
  },

  editArea(name, change) {
    set((s) => {
      if (!s.draft) return s;
      const areas = { ...s.draft.areas, [name]: { ...s.draft.areas[name], ...change } };
      const fieldErrors = { ...s.fieldErrors };
      for (const key of Object.keys(change)) delete fieldErrors[`areas.${name}.${key}`];
      return { draft: { ...s.draft, areas }, fieldErrors, saved: false };
    });
  },

  editPort(key, value) {
    set((s) => {
      if (!s.draft) return s;
      const fieldErrors = { ...s.fieldErrors };
      delete fieldErrors[key];
      return { draft: { ...s.draft, [key]: value }, fieldErrors, saved: false };
    });
  },

  async setTheme(theme) {
    const previous = get().view?.settings.theme ?? 'system';
    applyTheme(theme);
    set((s) => ({ draft: s.draft ? { ...s.draft, theme } : s.draft }));
    try {
      const view = await bridge().invoke('settings.update', { theme });
      set((s) => ({ view, draft: s.draft ? { ...s.draft, theme: view.settings.theme } : s.draft }));
    } catch (err) {
      applyTheme(previous);
      set((s) => ({ saveError: (err as Error).message, draft: s.draft ? { ...s.draft, theme: previous } : s.draft }));
    }
  },

  async save() {
    const { view, draft } = get();
    if (!view || !draft) return;
    const patch = diffSettings(view.settings, draft);
    if (Object.keys(patch).length === 0) return;
    set({ saving: true, saveError: null, fieldErrors: {}, saved: false });
    try {
      const next = await bridge().invoke('settings.update', patch);
      set({ view: next, draft: structuredClone(next.settings), saving: false, saved: true });
    } catch (err) {
      set({ saving: false, saveError: (err as Error).message, fieldErrors: fieldErrorsOf(err) });
    }
  },

  revert() {
    const { view } = get();
    if (view) set({ draft: structuredClone(view.settings), fieldErrors: {}, saveError: null, saved: false });
  },
}));
