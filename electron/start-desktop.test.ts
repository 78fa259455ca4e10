import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function electronBinaryExists(): boolean {
  try {
    return existsSync(createRequire(import.meta.url)('electron') as string);
  } catch {
    return false;
  }
}

describe('npm start', () => {
  it.skipIf(electronBinaryExists())('without an Electron binary, explains why and suggests npm run serve, exit code 1', async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [path.join(ROOT, 'bin', 'start-desktop.mjs')], { cwd: ROOT }, (err, _stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Electron is not installed on this machine');
    expect(result.stderr).toContain('npm run serve');
  });
});
