/** The services and settings areas: what the shell's status bar and settings page call. */
import { z } from 'zod';
import { SERVICE_NAMES } from '../../common/service.js';
import type { AreaMethods } from '../area.js';
import type { ServicesMethods } from '../contract/services.js';
import type { SettingsMethods } from '../contract/settings.js';
import type { Supervisor } from '../supervisor.js';
import { SettingsError, settingsPatchSchema, type SettingsStore } from '../settings.js';
import { HostCallError } from '../area.js';

const nameParam = z.object({ name: z.enum(SERVICE_NAMES) }).strict();
const noParams = z.object({}).strict() as unknown as z.ZodType<Record<string, never>>;

export function servicesArea(supervisor: Supervisor): AreaMethods<keyof ServicesMethods & string> {
  return {
    'services.status': { params: noParams, handler: () => supervisor.status(), summary: 'every embedded service: name, URL, state, last error' },
    'services.start': { params: nameParam, handler: (p) => supervisor.start(p.name), summary: 'start one embedded service' },
    'services.stop': { params: nameParam, handler: (p) => supervisor.stop(p.name), summary: 'stop one embedded service' },
    'services.restart': { params: nameParam, handler: (p) => supervisor.restart(p.name), summary: 'stop, then start one embedded service' },
  };
}

export function settingsArea(
  store: SettingsStore,
  onChanged: (view: ReturnType<SettingsStore['view']>) => void,
): AreaMethods<keyof SettingsMethods & string> {
  return {
    'settings.get': { params: noParams, handler: () => store.view(), summary: 'the settings, their file and this run’s overrides' },
    'settings.update': {
      params: settingsPatchSchema,
      handler: async (patch) => {
        const view = await store.update(patch).catch((err: unknown) => {
          throw err instanceof SettingsError ? new HostCallError(err.message, undefined, 'bad_params', [{ path: err.path, message: err.reason }]) : err;
        });
        onChanged(view);
        return view;
      },
      summary: 'change settings (per area: embedded or remote URL, port; theme)',
    },
  };
}
