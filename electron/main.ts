/**
 * Electron's entry (package.json "main" → dist/electron/main.js). It only wires the real
 * Electron module and the process into `startDesktop`; the logic lives in desktop.ts.
 */
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, protocol, safeStorage, session } from 'electron';
import { defaultDataDir } from '../core/host/data-dir.js';
import { createLogger } from '../core/common/log.js';
import { registerAppScheme, startDesktop, type Desktop, type ElectronApis } from './desktop.js';

const electron: ElectronApis = { app, BrowserWindow, ipcMain, protocol, session, safeStorage };
const log = createLogger({ scope: 'desktop' });

registerAppScheme(electron);

if (!app.requestSingleInstanceLock()) {
  // A second Loupe would fight the first one for its ports and data folder.
  log.warn('Loupe is already running; focusing it instead');
  app.quit();
} else {
  let desktop: Desktop | undefined;
  app.on('second-instance', () => {
    const w = BrowserWindow.getAllWindows()[0];
    if (w) {
      if (w.isMinimized()) w.restore();
      w.focus();
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.info(`${signal}: stopping the services`);
      void (desktop?.shutdown() ?? Promise.resolve()).finally(() => app.quit());
    });
  }
  startDesktop(electron, {
    rendererDir: fileURLToPath(new URL('../renderer/', import.meta.url)),
    preloadPath: fileURLToPath(new URL('./preload.cjs', import.meta.url)),
    iconPath: fileURLToPath(new URL('../../assets/icons/icon.png', import.meta.url)),
    dataDir: defaultDataDir(process.env),
    env: process.env,
    log,
  })
    .then((d) => {
      desktop = d;
    })
    .catch((err: unknown) => {
      log.error('Loupe could not start', { message: (err as Error).message });
      app.exit(1);
    });
}
