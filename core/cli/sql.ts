/**
 * `loupe sql [--port-base N] [--database NAME] [--json] ["<SQL>" | --file PATH]`: runs statements against the
 * embedded source of a running `loupe services` / `loupe serve` (through the connect service's
 * `POST /loupe/sql`) and prints the rows of the last statement as the mysql client does, or as a
 * JSON array of objects. Errors are MySQL's text on stderr with exit code 1.
 *
 * The statements may also come from a file (`--file PATH`, `-` for standard input) or from
 * standard input when no SQL is given and it is not a terminal, as `mysql < dump.sql` takes
 * them: a command line holds only about 128 KB (the kernel's limit on one argument; E2BIG beyond).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { parseExactJson, stringifyExactJson } from '../common/exact-json.js';
import { DEFAULT_PORTS, parsePort, portOverrides } from '../host/ports.js';

export interface SqlIo {
  out(line: string): void;
  err(line: string): void;
  /** Standard input, when it is not a terminal (undefined when it is). */
  stdin?(): Promise<string> | undefined;
}

const stdio: SqlIo = {
  out: (s) => process.stdout.write(s + '\n'),
  err: (s) => process.stderr.write(s + '\n'),
  stdin: () => (process.stdin.isTTY ? undefined : readAll(process.stdin)),
};

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks).toString('utf8');
}

export const SQL_HELP = `usage: loupe sql [--port-base N] [--database NAME] [--json] "<SQL>"
       loupe sql [--port-base N] [--database NAME] [--json] --file PATH   (PATH - is standard input)
       loupe sql [--port-base N] [--database NAME] [--json] < PATH

Runs one or more statements (separated by semicolons) against the embedded source of the running
Loupe services and prints the rows of the last one. --database defaults to demo. Statements longer
than a command line holds (about 128 KB) go through --file or standard input.
The connect port is N+4 with --port-base N, else LOUPE_CONNECT_PORT, else 8083.`;

interface StatementResult {
  kind: 'rows' | 'ok';
  columns: string[];
  rows: unknown[][];
  affectedRows: number;
  info?: string;
  warnings?: { count: number };
}

/** Where the connect service listens, by the same rules the host uses (a variable wins over --port-base). */
export function connectPort(portBase: number | undefined, env: NodeJS.ProcessEnv): number {
  return portOverrides(env, portBase).ports.connect ?? DEFAULT_PORTS.connect;
}

export async function runSqlCommand(argv: string[], env: NodeJS.ProcessEnv, io: SqlIo = stdio): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'port-base': { type: 'string' },
        database: { type: 'string', short: 'D' },
        json: { type: 'boolean', default: false },
        file: { type: 'string', short: 'f' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    io.err(`loupe sql: ${(err as Error).message}\n${SQL_HELP}`);
    return 2;
  }
  const v = parsed.values;
  if (v.help) {
    io.out(SQL_HELP);
    return 0;
  }
  if (v.file !== undefined && parsed.positionals.length) {
    io.err(`loupe sql: give the SQL either as an argument or with --file, not both\n${SQL_HELP}`);
    return 2;
  }
  let sql: string;
  try {
    if (v.file === '-') sql = (await io.stdin?.()) ?? '';
    else if (v.file !== undefined) sql = fs.readFileSync(v.file, 'utf8');
    else sql = parsed.positionals.length ? parsed.positionals.join(' ') : ((await io.stdin?.()) ?? '');
  } catch (err) {
    io.err(`loupe sql: cannot read ${v.file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
    return 2;
  }
  sql = sql.trim();
  if (!sql) {
    io.err(`loupe sql: no SQL given${v.file !== undefined ? ` (${v.file === '-' ? 'standard input' : v.file} is empty)` : ''}\n${SQL_HELP}`);
    return 2;
  }
  let port: number;
  try {
    port = connectPort(v['port-base'] !== undefined ? parsePort(v['port-base'], '--port-base') : undefined, env);
  } catch (err) {
    io.err(`loupe sql: ${(err as Error).message}`);
    return 2;
  }
  const database = v.database ?? 'demo';
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${port}/loupe/sql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ database, sql }) });
  } catch {
    io.err(`ERROR 2003 (HY000): Can't connect to Loupe's embedded source on '127.0.0.1:${port}' (is \`loupe services\` or \`loupe serve\` running?)`);
    return 1;
  }
  // a BIGINT beyond 2^53 comes as its exact digits, which JSON.parse would round
  const body = (await res.text().then(parseExactJson).catch(() => null)) as { results?: StatementResult[]; error?: { text: string }; message?: string } | null;
  if (!res.ok || !body?.results) {
    io.err(body?.error?.text ?? `ERROR 2013 (HY000): ${body?.message ?? `unexpected answer (HTTP ${res.status}) from 127.0.0.1:${port}`}`);
    return 1;
  }
  const last = body.results[body.results.length - 1]!;
  if (v.json) {
    io.out(stringifyExactJson(last.kind === 'rows' ? last.rows.map((r) => Object.fromEntries(last.columns.map((c, i) => [c, r[i] ?? null]))) : []));
    return 0;
  }
  for (const line of formatResult(last)) io.out(line);
  return 0;
}

/** The mysql client's table: numbers right-aligned, NULL for null, then "N rows in set" (and the warnings, counted as it counts them). */
export function formatResult(r: StatementResult): string[] {
  const n = r.warnings?.count ?? 0;
  const warnings = n ? `, ${n} ${n === 1 ? 'warning' : 'warnings'}` : '';
  if (r.kind === 'ok') return [`Query OK, ${r.affectedRows} ${r.affectedRows === 1 ? 'row' : 'rows'} affected${warnings}`, ...(r.info ? [r.info] : [])];
  if (r.rows.length === 0) return [`Empty set${warnings}`];
  const cells = r.rows.map((row) => row.map((c) => (c === null || c === undefined ? 'NULL' : String(c))));
  const widths = r.columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const numeric = r.columns.map((_, i) => r.rows.every((row) => row[i] === null || typeof row[i] === 'number' || typeof row[i] === 'bigint'));
  const rule = '+' + widths.map((w) => '-'.repeat(w + 2)).join('+') + '+';
  const line = (vals: string[], alignNumbers: boolean) => '| ' + vals.map((s, i) => (alignNumbers && numeric[i] ? s.padStart(widths[i]!) : s.padEnd(widths[i]!))).join(' | ') + ' |';
  return [rule, line(r.columns, false), rule, ...cells.map((c) => line(c, true)), rule, `${r.rows.length} ${r.rows.length === 1 ? 'row' : 'rows'} in set${warnings}`];
}
