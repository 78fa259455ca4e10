/**
 * The preload of the main window. It runs sandboxed, so it is bundled into one CommonJS file
 * (dist/electron/preload.cjs) whose only require is 'electron'.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createDesktopApi } from './preload-api.js';

contextBridge.exposeInMainWorld('loupe', createDesktopApi(ipcRenderer));
