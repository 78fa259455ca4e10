import type { ServiceName } from '../../common/service.js';

export interface AreaSettings {
  mode: 'embedded' | 'remote';
  /** Used when mode is remote. */
  remoteUrl: string;
  /** Port of the embedded service. */
  port: number;
}

export interface Settings {
  version: 1;
  areas: Record<ServiceName, AreaSettings>;
  /** The identity provider's second port (HTTPS). */
  idpHttpsPort: number;
  /** The embedded CDC source's own port (its address, which a source connector names to capture it). */
  sourcePort?: number;
  uiPort: number;
  theme: 'system' | 'light' | 'dark';
}

export type SettingsPatch = {
  areas?: Partial<Record<ServiceName, Partial<AreaSettings>>>;
  idpHttpsPort?: number;
  sourcePort?: number;
  uiPort?: number;
  theme?: Settings['theme'];
};

export interface SettingsView {
  settings: Settings;
  /** Where they are stored. */
  file: string;
  /** Set when the stored file was corrupt at start-up: it was kept under this name. */
  corruptBackup?: string;
  /** Ports fixed by environment variables or flags for this run (they win over the file). */
  overriddenBy: Record<string, string>;
}

export interface SettingsMethods {
  'settings.get'(params: Record<string, never>): SettingsView;
  'settings.update'(params: SettingsPatch): SettingsView;
}

export interface SettingsEvents {
  'settings.changed': SettingsView;
}
