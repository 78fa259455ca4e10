/**
 * A token service that cannot start (its port taken by another program) leaves nothing running:
 * its SAML reading threads would otherwise keep `loupe serve` from exiting on SIGTERM. Run in a
 * child process, which must exit on its own once the start has been refused.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

const SCRIPT = (service: string, log: string, dataDir: string) => `
import net from 'node:net';
import { startStsService } from ${JSON.stringify(service)};
import { silentLogger } from ${JSON.stringify(log)};
const taken = net.createServer();
await new Promise((r) => taken.listen(0, '127.0.0.1', r));
const port = taken.address().port;
try {
  await startStsService({ host: '127.0.0.1', port, dataDir: ${JSON.stringify(dataDir)}, log: silentLogger, peers: {} });
  console.log('started');
} catch (err) {
  console.log('refused: ' + err.message);
}
taken.close();
`;

describe('the token service refused its port', () => {
  it('leaves no thread or socket behind: the process exits by itself', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sts-start-'));
    const file = path.join(dir, 'start.mts');
    fs.writeFileSync(file, SCRIPT(path.join(here, 'service.ts'), path.join(here, '../../common/log.ts'), dir));
    const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const exited = await new Promise<number | 'still running'>((resolve) => {
      const timer = setTimeout(() => resolve('still running'), 30_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code ?? -1);
      });
    });
    if (exited === 'still running') child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(out).toMatch(/^refused: sts: port \d+ on 127\.0\.0\.1 is already in use/);
    expect(exited).toBe(0);
  }, 60_000);
});
