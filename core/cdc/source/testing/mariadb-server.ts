/**
 * A private MariaDB server for integration tests: Debian's `mariadbd` started on a fresh data
 * directory (made by `mariadb-install-db`), bound to 127.0.0.1 on a free port, with its own
 * socket, pid file and error log, and a user with a password. `stop()` shuts it down and deletes
 * everything. No system service, no /etc/mysql configuration (`--no-defaults`) and no root login
 * is used. Run as root (CI containers) it passes `--user=root`, which mariadbd otherwise refuses.
 *
 * Where no mariadbd is installed the tests skip with the reason, except under CI, where a missing
 * server is a failure: `mariadbTests()` tells a test file which of the two applies.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { freePort } from '../../../common/testing/free-port.js';

export interface MariaDbBinaries {
  mariadbd: string;
  installDb: string;
  /** The `mariadb` command-line client (mariadb-client, a dependency of mariadb-server). */
  client: string;
}

/** What the mysql command-line client printed: tab-separated rows, and its error line. */
export interface CliResult {
  code: number;
  /** Rows of the last result, each a list of the values as the client prints them (NULL as `NULL`). */
  rows: string[][];
  stdout: string;
  /** `ERROR 1146 (42S02) at line 1: Table 'shop.nope' doesn't exist`, trimmed. */
  stderr: string;
}

export interface MariaDbServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** A user with every privilege, reached over TCP with a password. */
  readonly user: string;
  readonly password: string;
  /** `SELECT VERSION()`, e.g. `10.11.19-MariaDB-0+deb12u1`. */
  readonly version: string;
  readonly dir: string;
  /** The server's error log so far (start-up notes, warnings). */
  errorLog(): string;
  /**
   * Runs statements through the `mariadb` command-line client (batch mode, no column names): the
   * independent view of what the server says. `password` overrides the user's.
   */
  cli(sql: string, opts?: { database?: string; password?: string }): Promise<CliResult>;
  /** Shuts the server down (SIGTERM, then SIGKILL after 20 s) and removes its directory. */
  stop(): Promise<void>;
}

const SEARCH_DIRS = ['/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin', '/usr/libexec', '/usr/local/mysql/bin', '/opt/homebrew/bin', '/opt/homebrew/sbin'];

function onPath(name: string, extra: string[] = []): string | undefined {
  const dirs = [...extra, ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...SEARCH_DIRS];
  for (const d of dirs) {
    const p = path.join(d, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** The server binaries (`LOUPE_MARIADBD` may name mariadbd), or why they cannot be used. */
export function findMariaDb(): MariaDbBinaries | { missing: string } {
  const forced = process.env.LOUPE_MARIADBD;
  const mariadbd = forced || onPath('mariadbd');
  if (!mariadbd) return { missing: 'no mariadbd binary on PATH or in /usr/sbin (apt-get install mariadb-server)' };
  if (forced && !fs.existsSync(forced)) return { missing: `LOUPE_MARIADBD=${forced} does not exist` };
  const installDb = onPath('mariadb-install-db', [path.dirname(mariadbd), path.join(path.dirname(mariadbd), '../bin'), path.join(path.dirname(mariadbd), '../scripts')]);
  if (!installDb) return { missing: `found ${mariadbd} but no mariadb-install-db to initialise a data directory` };
  const client = onPath('mariadb', [path.dirname(mariadbd), path.join(path.dirname(mariadbd), '../bin')]);
  if (!client) return { missing: `found ${mariadbd} but not the mariadb command-line client (apt-get install mariadb-client)` };
  return { mariadbd, installDb, client };
}

/** `mariadb-binlog` (mariadb-client, which mariadb-server depends on), or why it cannot be used. */
export function findMariaDbBinlog(): { binlog: string } | { missing: string } {
  const found = findMariaDb();
  const near = 'missing' in found ? [] : [path.dirname(found.mariadbd), path.join(path.dirname(found.mariadbd), '../bin')];
  const binlog = onPath('mariadb-binlog', near) ?? onPath('mysqlbinlog', near);
  return binlog ? { binlog } : { missing: 'no mariadb-binlog to decode the binary log (apt-get install mariadb-client)' };
}

const isCi = () => /^(true|1|yes)$/i.test(process.env.CI ?? '');

/**
 * Whether a test file should skip its MariaDB tests: only when no server is installed and this
 * is not CI. Under CI=true a missing server is not skipped: `startMariaDb` then fails the tests.
 */
export function mariadbTests(): { skip: boolean; reason: string } {
  const found = findMariaDb();
  if (!('missing' in found)) return { skip: false, reason: '' };
  if (isCi()) return { skip: false, reason: `${found.missing}; CI=true requires it` };
  return { skip: true, reason: `skipped: ${found.missing}` };
}


function run(cmd: string, args: string[], logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(logFile, 'a');
    const child = spawn(cmd, args, { stdio: ['ignore', out, out] });
    child.once('error', (err) => {
      fs.closeSync(out);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      fs.closeSync(out);
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(cmd)} failed (${signal ?? `exit ${code}`}):\n${tail(logFile)}`));
    });
  });
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface StartOptions {
  /** How long to wait for the server to accept the user's login (default 60 s). */
  readyTimeoutMs?: number;
  /**
   * Writes a row-based binary log (binlog_format=ROW, as Debezium requires of MySQL) to
   * `<dir>/binlog/mariadb-bin.*`; `SHOW MASTER STATUS` says where it stands.
   */
  binlog?: boolean;
}

/** Starts a private server; throws with the error log when it cannot. */
export async function startMariaDb(opts: StartOptions = {}): Promise<MariaDbServer> {
  const bins = findMariaDb();
  if ('missing' in bins) throw new Error(`cannot start MariaDB for the tests: ${bins.missing}${isCi() ? ' (CI=true: the MariaDB tests must run, .ci/run installs mariadb-server)' : ''}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-mariadb-'));
  try {
    const extra: string[] = [];
    if (opts.binlog) {
      fs.mkdirSync(path.join(dir, 'binlog'));
      extra.push(`--log-bin=${path.join(dir, 'binlog', 'mariadb-bin')}`, '--binlog-format=ROW', '--server-id=1');
    }
    return await startIn(dir, bins, opts.readyTimeoutMs ?? 60_000, extra);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function startIn(dir: string, bins: MariaDbBinaries, readyTimeoutMs: number, extraArgs: string[]): Promise<MariaDbServer> {
  const asRoot = process.getuid?.() === 0;
  const user = 'loupe';
  const password = randomBytes(12).toString('hex');
  const datadir = path.join(dir, 'data');
  const tmpdir = path.join(dir, 'tmp');
  fs.mkdirSync(tmpdir);
  // Small InnoDB files and simulated AIO: quick to create, and io_uring/libaio are often not
  // allowed inside containers.
  const innodb = ['--innodb-log-file-size=8M', '--innodb-buffer-pool-size=32M', '--innodb-use-native-aio=0', '--innodb-flush-log-at-trx-commit=0'];
  await run(
    bins.installDb,
    ['--no-defaults', `--datadir=${datadir}`, `--tmpdir=${tmpdir}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...(asRoot ? ['--user=root'] : []), ...innodb],
    path.join(dir, 'install-db.log'),
  );
  // The user is created when the server starts (bootstrap mode has no grant tables to do it).
  const initFile = path.join(dir, 'init.sql');
  fs.writeFileSync(initFile, `CREATE OR REPLACE USER '${user}'@'%' IDENTIFIED BY '${password}';\nGRANT ALL PRIVILEGES ON *.* TO '${user}'@'%' WITH GRANT OPTION;\n`, { mode: 0o600 });
  const errorLogFile = path.join(dir, 'error.log');

  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    fs.rmSync(errorLogFile, { force: true });
    const child = spawn(
      bins.mariadbd,
      [
        '--no-defaults',
        ...(asRoot ? ['--user=root'] : []),
        `--datadir=${datadir}`,
        `--tmpdir=${tmpdir}`,
        `--socket=${path.join(dir, 'mariadbd.sock')}`,
        `--pid-file=${path.join(dir, 'mariadbd.pid')}`,
        `--log-error=${errorLogFile}`,
        `--init-file=${initFile}`,
        '--bind-address=127.0.0.1',
        `--port=${port}`,
        '--skip-name-resolve',
        // As Debian's packaged configuration (50-server.cnf) sets it.
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_general_ci',
        ...innodb,
        ...extraArgs,
      ],
      { stdio: 'ignore' },
    );
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    let ended: string | undefined;
    const exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        ended = signal ?? `exit ${code}`;
        resolve();
      });
      child.once('error', (err) => {
        ended = err.message;
        resolve();
      });
    });
    try {
      const version = await waitReady(() => ended, port, user, password, readyTimeoutMs, errorLogFile);
      return {
        host: '127.0.0.1',
        port,
        user,
        password,
        version,
        dir,
        errorLog: () => (fs.existsSync(errorLogFile) ? fs.readFileSync(errorLogFile, 'utf8') : ''),
        cli: (sql, o = {}) => runCli(bins.client, port, user, o.password ?? password, sql, o.database),
        stop: async () => {
          if (ended === undefined) {
            child.kill('SIGTERM');
            const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
            await exited;
            clearTimeout(timer);
          }
          process.removeListener('exit', killOnExit);
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      child.kill('SIGKILL');
      await exited;
      process.removeListener('exit', killOnExit);
      lastError = err as Error;
      // Another process took the port between our check and the server's bind: try another.
      if (!/Address already in use|Do you already have another (mysqld|mariadbd) server running/i.test(lastError.message)) throw lastError;
    }
  }
  throw lastError!;
}

function runCli(client: string, port: number, user: string, password: string, sql: string, database?: string): Promise<CliResult> {
  const args = ['--no-defaults', '--protocol=tcp', '-h127.0.0.1', `-P${port}`, `-u${user}`, '--batch', '--skip-column-names', '--connect-timeout=10', '-e', sql, ...(database ? [database] : [])];
  return new Promise((resolve, reject) => {
    // The password goes through the environment, not the command line.
    execFile(client, args, { env: { ...process.env, MYSQL_PWD: password }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : -1) : 0;
      if (code === -1) return reject(err);
      const lines = stdout.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      resolve({ code, rows: lines.map((l) => l.split('\t')), stdout, stderr: stderr.trim() });
    });
  });
}

async function waitReady(ended: () => string | undefined, port: number, user: string, password: string, timeoutMs: number, errorLogFile: string): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const end = ended();
    if (end !== undefined) throw new Error(`mariadbd ended (${end}) before accepting connections:\n${tail(errorLogFile)}`);
    try {
      const c = await mysql.createConnection({ host: '127.0.0.1', port, user, password, connectTimeout: 2000 });
      try {
        const [rows] = await c.query<mysql.RowDataPacket[]>('SELECT VERSION() AS v');
        return String(rows[0]!.v);
      } finally {
        await c.end().catch(() => {});
      }
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`mariadbd did not accept ${user}@127.0.0.1:${port} within ${timeoutMs} ms (${(err as Error).message}):\n${tail(errorLogFile)}`, { cause: err });
    }
    await sleep(100);
  }
}
