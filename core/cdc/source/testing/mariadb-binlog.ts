/**
 * The row events of a MariaDB binary log as `mariadb-binlog -v --base64-output=DECODE-ROWS`
 * prints them (`### UPDATE `db`.`t` / ### WHERE / ###   @1=1 / ### SET / …`): what a real server
 * logs, to set the embedded source's change log beside.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { MariaDbServer } from './mariadb-server.js';

export interface DecodedRowEvent {
  op: 'c' | 'u' | 'd';
  database: string;
  table: string;
  /** Column values in table order, as mariadb-binlog prints them: `1`, `'text'`, `NULL`. */
  before: string[] | null;
  after: string[] | null;
}

/** Where the server's binary log stands now (`SHOW MASTER STATUS`). */
export async function binlogPosition(server: MariaDbServer): Promise<{ file: string; pos: number }> {
  const res = await server.cli('SHOW MASTER STATUS');
  const [file, pos] = res.rows[0] ?? [];
  if (res.code !== 0 || !file || !pos) throw new Error(`SHOW MASTER STATUS gave no binary log (${res.stderr || res.stdout}): start the server with { binlog: true }`);
  return { file, pos: Number(pos) };
}

/** The row events written to `from.file` (of a server started with `binlog: true`) from `from.pos` on. */
export function readRowEvents(binlogTool: string, server: MariaDbServer, from: { file: string; pos: number }): Promise<DecodedRowEvent[]> {
  const file = path.join(server.dir, 'binlog', from.file);
  return new Promise((resolve, reject) => {
    execFile(binlogTool, ['--no-defaults', '-v', '--base64-output=DECODE-ROWS', `--start-position=${from.pos}`, file], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${path.basename(binlogTool)} failed: ${stderr || err.message}`));
      resolve(parseRowEvents(stdout));
    });
  });
}

const HEAD = /^### (INSERT INTO|UPDATE|DELETE FROM) `((?:[^`]|``)*)`\.`((?:[^`]|``)*)`$/;

export function parseRowEvents(text: string): DecodedRowEvent[] {
  const out: DecodedRowEvent[] = [];
  let ev: DecodedRowEvent | undefined;
  let into: string[] | null = null;
  for (const line of text.split('\n')) {
    if (!line.startsWith('###')) continue;
    const head = HEAD.exec(line);
    if (head) {
      const op = head[1] === 'INSERT INTO' ? 'c' : head[1] === 'UPDATE' ? 'u' : 'd';
      ev = { op, database: head[2]!.replace(/``/g, '`'), table: head[3]!.replace(/``/g, '`'), before: null, after: null };
      out.push(ev);
      into = null;
    } else if (line === '### WHERE' && ev) into = ev.before = [];
    else if (line === '### SET' && ev) into = ev.after = [];
    else {
      const value = /^###\s+@\d+=(.*)$/.exec(line);
      if (value && into) into.push(value[1]!);
      else throw new Error(`unexpected line in mariadb-binlog's output: ${line}`);
    }
  }
  return out;
}
