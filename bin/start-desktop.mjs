#!/usr/bin/env node
// `npm start`: builds the app and launches Electron on it, where Electron's binary exists.
// Where it does not (ELECTRON_SKIP_BINARY_DOWNLOAD=1, a headless server, a failed download), it
// says so and points at the browser UI, which runs the same host and renderer.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The Electron binary's path, or why there is none. */
function findElectron() {
  try {
    // The electron package exports the path of its binary, and throws when it was not downloaded.
    const binary = require('electron');
    if (typeof binary === 'string' && existsSync(binary)) return { binary };
    return { reason: `the Electron binary is missing (${binary})` };
  } catch (err) {
    return { reason: err instanceof Error ? err.message : String(err) };
  }
}

const found = findElectron();
if (!found.binary) {
  process.stderr.write(
    [
      'Loupe desktop cannot start here: Electron is not installed on this machine.',
      `  (${found.reason})`,
      '',
      'Use the browser UI instead; it runs the same app:',
      '  npm run serve',
      '',
      'To get the desktop app, download Electron (needs network access) and run npm start again:',
      '  node node_modules/electron/install.js',
      '',
    ].join('\n'),
  );
  process.exit(1);
}

const build = spawn(process.execPath, [path.join(ROOT, 'bin', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
build.on('exit', (code) => {
  if (code !== 0) process.exit(code ?? 1);
  // V8 flags of the main process (where the engines run) must be given at launch; see bin/loupe.mjs.
  const child = spawn(found.binary, ['--js-flags=--max-semi-space-size=64', ROOT, ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' });
  // Ctrl-C in the terminal: let Electron shut the services down cleanly, then exit with it.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
});
