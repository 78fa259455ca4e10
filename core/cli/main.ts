/**
 * The `loupe` command: `serve` (browser UI + embedded services), `services` (headless),
 * `sql` (the embedded CDC source), `login` / `credential-process` / `creds export` (federation),
 * `--help`, `--version`.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { createLogger } from '../common/log.js';
import { createHost, type Host } from '../host/host.js';
import { defaultDataDir } from '../host/data-dir.js';
import { startWebHost, type WebHost } from '../host/web-host.js';
import type { ServiceStatus } from '../host/contract.js';
import { parseCommon, UsageError, type CommonFlags } from './args.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const HELP = `loupe — a workbench for federation, relevance and change-data-capture

Usage:
  loupe serve [--open] [options]      browser UI and the embedded services; prints the UI URL with its token
  loupe services [--only a,b] [opts]  embedded services only, headless; prints "<name> <url>" per service, then "ready"
  loupe sql [--database NAME] [--json] ["<SQL>" | --file PATH | < PATH]
                                      run SQL against the embedded CDC source of a running loupe
  loupe login saml|oidc --profile NAME sign in (IdP page in a browser, or OIDC) and get temporary AWS credentials
  loupe credential-process --profile NAME
                                      credential_process JSON for the AWS CLI (cached while valid, else signs in)
  loupe creds export --profile NAME --format env|fish|powershell|ini|json
  loupe --help | --version            (loupe login --help: the federation commands in full)

Options:
  --port-base N     ports N … N+7 for search, idp, idp https, sts, connect, clickhouse, ui, cdc source
  --data-dir DIR    where Loupe keeps its state (default: LOUPE_DATA_DIR or the OS app-data folder)
  --only a,b        start only these services: search, idp, sts, connect, clickhouse

Ports (defaults): LOUPE_SEARCH_PORT 9200, LOUPE_IDP_PORT 8080, LOUPE_IDP_HTTPS_PORT 8443,
LOUPE_STS_PORT 8090, LOUPE_CONNECT_PORT 8083, LOUPE_CLICKHOUSE_PORT 8123, LOUPE_UI_PORT 5170,
LOUPE_SOURCE_PORT 3306 (the embedded CDC source's own address, which a source connector names).
Every embedded service listens on 127.0.0.1 only.
`;

export function version(): string {
  return (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

type Out = { out: (s: string) => void; err: (s: string) => void };
const stdio: Out = { out: (s) => process.stdout.write(s + '\n'), err: (s) => process.stderr.write(s + '\n') };

export async function main(argv: string[], env: NodeJS.ProcessEnv, io: Out = stdio): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.out(HELP);
      return command === undefined ? 1 : 0;
    }
    if (command === '--version' || command === '-v') {
      io.out(version());
      return 0;
    }
    if (command === 'sql') {
      // Loaded lazily: it is the CDC source's client and the other commands do not need it.
      const { runSqlCommand } = await import('./sql.js');
      return await runSqlCommand(rest, env);
    }
    if (command === 'login' || command === 'credential-process' || command === 'creds') {
      // Loaded lazily: playwright-core and the AWS SDK are not needed by the other commands.
      const { runFederationCommand, terminalIo } = await import('./federation.js');
      return await runFederationCommand(command, rest, env, io === stdio ? terminalIo() : { ...io, readStdin: async () => '' });
    }
    if (command === 'serve' || command === 'services') {
      const flags = parseCommon(rest);
      if (flags.help) {
        io.out(HELP);
        return 0;
      }
      if (flags.positionals.length) throw new UsageError(`unexpected argument "${flags.positionals[0]}"`);
      return await run(command, flags, env, io);
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`loupe: ${err.message}\nRun "loupe --help" for usage.`);
      return 2;
    }
    io.err(`loupe: ${(err as Error).message}`);
    return 1;
  }
}

async function run(command: 'serve' | 'services', flags: CommonFlags, env: NodeJS.ProcessEnv, io: Out): Promise<number> {
  const dataDir = path.resolve(flags.dataDir ?? defaultDataDir(env));
  const log = createLogger({ scope: 'loupe' });
  const host = await createHost({ dataDir, env, log, ...(flags.portBase !== undefined ? { portBase: flags.portBase } : {}) });
  let web: WebHost | undefined;
  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    (stopping ??= (async () => {
      await web?.close();
      await host.close();
    })());

  // Signals are handled from the start, so Ctrl-C during start-up also shuts down cleanly.
  let onStopped: (code: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => (onStopped = resolve));
  const onSignal = (signal: NodeJS.Signals) => {
    io.err(`loupe: ${signal}, stopping`);
    void shutdown().then(() => onStopped(0));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    await host.startServices(flags.only);
    const shown = host.supervisor.status().filter((s) => !flags.only || flags.only.includes(s.name));
    for (const s of shown) io.out(describe(s));
    const failed = shown.filter((s) => s.state === 'failed');
    if (failed.length) {
      for (const s of failed) io.err(`loupe: ${s.name} failed to start: ${s.lastError}`);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await shutdown();
      return 1;
    }
    if (command === 'serve') {
      web = await startWebHost(host, { port: host.settings.effective().uiPort, staticDir: path.join(ROOT, 'dist', 'renderer') });
      io.out(`ui ${web.openUrl}`);
      io.out(`Open Loupe at ${web.openUrl}`);
      if (flags.open) openBrowser(web.openUrl, log);
    }
    io.out('ready');
  } catch (err) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await shutdown();
    throw err;
  }

  // Keeps the process alive even when every service is remote or unavailable.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const code = await stopped;
  clearInterval(keepAlive);
  return code;
}

function describe(s: ServiceStatus): string {
  switch (s.state) {
    case 'running':
      return `${s.name} ${s.url}${s.extraUrls ? ' ' + Object.values(s.extraUrls).join(' ') : ''}`;
    case 'remote':
      return `${s.name} ${s.url} (remote)`;
    case 'unavailable':
      return `${s.name} not available (${s.lastError ?? 'not part of this build yet'})`;
    default:
      return `${s.name} ${s.state}${s.lastError ? `: ${s.lastError}` : ''}`;
  }
}

function openBrowser(url: string, log: Host['log']): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(cmd, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => log.warn(`could not open a browser (${cmd}); open the URL above yourself`));
    child.unref();
  } catch {
    log.warn('could not open a browser; open the URL above yourself');
  }
}
