/**
 * bench:cdc's peer in a process of its own: the same messages straight into chDB (chdb-direct.ts)
 * on a data directory of its own. In the bench's process the peer
 * meets the pipeline's heap (a million-entry source model, the change log's cache): with the
 * change log's cache raised to 1.2 million events (tried, not kept), chDB's inserts there spent up
 * to ten times the system CPU and took 1.5–2.5× as long as in the run before. A child
 * process that holds nothing else runs chDB as a program of its own would; the bench runs the
 * peer both ways and takes the faster.
 *
 * The parent (bench/cdc.ts) forks this module with IPC and sends one run at a time:
 * `{ file, table, ddl }` — NDJSON messages in `file` — and gets `{ ms, cpu }` back.
 */
import { readFileSync } from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Session } from 'chdb';
import { bodiesOf, insertDirect, mergesEnded, sessionQuery } from './chdb-direct.js';

export interface PeerRun {
  file: string;
  table: string;
  ddl: string;
}

export interface PeerResult {
  ms: number;
  cpu: NodeJS.CpuUsage;
  blocks: number;
}

/** The peer's process and a function that runs one insert pass in it. */
export function startPeer(dataDir: string): { run: (r: PeerRun) => Promise<PeerResult>; close: () => void } {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [dataDir], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let pending: { resolve: (r: PeerResult) => void; reject: (e: Error) => void } | undefined;
  child.on('message', (m: PeerResult | { error: string }) => {
    const p = pending;
    pending = undefined;
    if ('error' in m) p?.reject(new Error(`chDB peer: ${m.error}`));
    else p?.resolve(m);
  });
  child.on('exit', (code) => pending?.reject(new Error(`chDB peer exited with ${code}`)));
  return {
    run: (r) =>
      new Promise<PeerResult>((resolve, reject) => {
        pending = { resolve, reject };
        child.send(r);
      }),
    close: () => void child.kill(),
  };
}

/** In the child: one insert pass per message from the parent. */
function serve(dataDir: string): void {
  const session = new Session(dataDir);
  process.on('message', (r: PeerRun) => {
    void (async () => {
      try {
        const blocks = bodiesOf(readFileSync(r.file, 'utf8').split('\n').filter(Boolean));
        await session.queryAsync(r.ddl);
        // the previous run's merges ended, as the bench waits for the embedded server's
        await mergesEnded(sessionQuery(session));
        process.send!({ ...(await insertDirect(session, r.table, blocks)), blocks: blocks.length } satisfies PeerResult);
      } catch (err) {
        process.send!({ error: (err as Error).message });
      }
    })();
  });
  process.on('disconnect', () => {
    session.close();
    process.exit(0);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) serve(process.argv[2]!);
