/**
 * Settings: one JSON file in the data directory, validated on load. A corrupt file is kept as a
 * backup and reported, never silently dropped. Ports fixed by flags or LOUPE_*_PORT variables
 * win over the file for this run and are reported as such.
 */
import path from 'node:path';
import { z } from 'zod';
import { SERVICE_NAMES, type ServiceName } from '../common/service.js';
import { readJsonOrBackup, writeJsonAtomic } from '../common/json-store.js';
import { DEFAULT_PORTS, SERVICE_PORT_KEY, type PortMap } from './ports.js';
import type { AreaSettings, Settings, SettingsPatch, SettingsView } from './contract/settings.js';

const port = z.number().int().min(1).max(65535);
const url = z.string().refine((s) => s === '' || /^https?:\/\/[^\s/]+/.test(s), 'must be an http:// or https:// URL');

const areaSchema = z.object({
  mode: z.enum(['embedded', 'remote']),
  remoteUrl: url,
  port,
}).strict();

export const settingsSchema = z.object({
  version: z.literal(1),
  areas: z.object(Object.fromEntries(SERVICE_NAMES.map((n) => [n, areaSchema])) as Record<ServiceName, typeof areaSchema>).strict(),
  idpHttpsPort: port,
  sourcePort: port.optional(),
  uiPort: port,
  theme: z.enum(['system', 'light', 'dark']),
}).strict();

export const settingsPatchSchema: z.ZodType<SettingsPatch> = z.object({
  areas: z.object(Object.fromEntries(SERVICE_NAMES.map((n) => [n, areaSchema.partial().strict().optional()])) as Record<ServiceName, z.ZodOptional<z.ZodObject<{ mode: z.ZodOptional<z.ZodEnum<{ embedded: 'embedded'; remote: 'remote' }>>; remoteUrl: z.ZodOptional<typeof url>; port: z.ZodOptional<typeof port> }>>>).strict().optional(),
  idpHttpsPort: port.optional(),
  sourcePort: port.optional(),
  uiPort: port.optional(),
  theme: z.enum(['system', 'light', 'dark']).optional(),
}).strict();

export function defaultSettings(): Settings {
  const areas = {} as Record<ServiceName, AreaSettings>;
  for (const name of SERVICE_NAMES) areas[name] = { mode: 'embedded', remoteUrl: '', port: DEFAULT_PORTS[SERVICE_PORT_KEY[name]] };
  return { version: 1, areas, idpHttpsPort: DEFAULT_PORTS.idpHttps, uiPort: DEFAULT_PORTS.ui, theme: 'system' };
}

export function applyPatch(base: Settings, patch: SettingsPatch): Settings {
  const next: Settings = structuredClone(base);
  for (const [name, area] of Object.entries(patch.areas ?? {}) as [ServiceName, Partial<AreaSettings> | undefined][]) {
    if (area) next.areas[name] = { ...next.areas[name], ...area };
  }
  if (patch.idpHttpsPort !== undefined) next.idpHttpsPort = patch.idpHttpsPort;
  if (patch.sourcePort !== undefined) next.sourcePort = patch.sourcePort;
  if (patch.uiPort !== undefined) next.uiPort = patch.uiPort;
  if (patch.theme !== undefined) next.theme = patch.theme;
  for (const [name, area] of Object.entries(next.areas)) {
    if (area.mode === 'remote' && area.remoteUrl === '') {
      throw new SettingsError(`areas.${name}.remoteUrl`, `a remote ${name} needs a URL`);
    }
  }
  return settingsSchema.parse(next) as Settings;
}

/** A patch that is well-formed but does not make sense as a whole; `path` names the field. */
export class SettingsError extends Error {
  override name = 'SettingsError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

export class SettingsStore {
  private current: Settings;
  readonly file: string;
  readonly corruptBackup?: string;
  readonly corruptReason?: string;

  /** `overrides` are ports fixed for this run (flags/env): they apply on top, and are not saved. */
  constructor(
    dataDir: string,
    private readonly overrides: { ports: Partial<PortMap>; by: Record<string, string> } = { ports: {}, by: {} },
  ) {
    this.file = path.join(dataDir, 'settings.json');
    const read = readJsonOrBackup(this.file, (raw) => settingsSchema.parse(raw) as Settings);
    if (read.kind === 'ok') this.current = read.value;
    else {
      this.current = defaultSettings();
      if (read.kind === 'corrupt') {
        this.corruptBackup = read.backup;
        this.corruptReason = read.error;
      }
    }
  }

  /** The stored settings with this run's port overrides applied. */
  effective(): Settings {
    const s = structuredClone(this.current);
    const o = this.overrides.ports;
    for (const name of SERVICE_NAMES) {
      const p = o[SERVICE_PORT_KEY[name]];
      if (p !== undefined) s.areas[name].port = p;
    }
    if (o.idpHttps !== undefined) s.idpHttpsPort = o.idpHttps;
    if (o.source !== undefined) s.sourcePort = o.source;
    if (o.ui !== undefined) s.uiPort = o.ui;
    return s;
  }

  view(): SettingsView {
    return {
      settings: this.effective(),
      file: this.file,
      ...(this.corruptBackup ? { corruptBackup: this.corruptBackup } : {}),
      overriddenBy: { ...this.overrides.by },
    };
  }

  async update(patch: SettingsPatch): Promise<SettingsView> {
    this.current = applyPatch(this.current, patch);
    await writeJsonAtomic(this.file, this.current);
    return this.view();
  }
}
