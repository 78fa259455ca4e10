/** Where Loupe keeps its state: LOUPE_DATA_DIR, --data-dir, or the OS application-data folder. */
import os from 'node:os';
import path from 'node:path';
import { mkdirSync } from 'node:fs';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.LOUPE_DATA_DIR) return path.resolve(env.LOUPE_DATA_DIR);
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Loupe');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Loupe');
  return path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'loupe');
}

/** Creates the folder with owner-only access: it holds keys, password hashes and credentials. */
export function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
