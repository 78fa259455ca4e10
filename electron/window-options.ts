/** The one place the main window's options are decided: a sandboxed, isolated renderer. */
import type { BrowserWindowConstructorOptions } from 'electron';

export function mainWindowOptions(preloadPath: string, iconPath?: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 880,
    minHeight: 560,
    // Shown on ready-to-show, after the first paint in the right theme (no white or dark flash).
    show: false,
    title: 'Loupe',
    ...(iconPath ? { icon: iconPath } : {}),
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}
