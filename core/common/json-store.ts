/**
 * Durable JSON files: written to a temporary file, fsynced, then renamed over the old one, so a
 * crash leaves either the old or the new content, never half of each.
 */
import { promises as fs, readFileSync, writeFileSync, renameSync, openSync, fsyncSync, closeSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export interface WriteOptions {
  /** File mode; credential and key files use 0o600. */
  mode?: number;
}

export async function writeJsonAtomic(file: string, value: unknown, opts: WriteOptions = {}): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n', opts);
}

export async function writeFileAtomic(file: string, data: string | Uint8Array, opts: WriteOptions = {}): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
  const handle = await fs.open(tmp, 'w', opts.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (opts.mode !== undefined) await fs.chmod(tmp, opts.mode);
  await fs.rename(tmp, file);
}

export function writeFileAtomicSync(file: string, data: string | Uint8Array, opts: WriteOptions = {}): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, data, { mode: opts.mode ?? 0o644 });
  const fd = openSync(tmp, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export type ReadResult<T> =
  | { kind: 'missing' }
  | { kind: 'ok'; value: T }
  | { kind: 'corrupt'; error: string; backup: string };

/**
 * Reads a JSON file. A file that does not parse (or fails `validate`) is renamed to
 * `<file>.corrupt-<timestamp>` and reported, never silently dropped.
 */
export function readJsonOrBackup<T>(file: string, validate: (raw: unknown) => T = (x) => x as T): ReadResult<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
  try {
    return { kind: 'ok', value: validate(JSON.parse(text)) };
  } catch (err) {
    const backup = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(file, backup);
    return { kind: 'corrupt', error: (err as Error).message, backup };
  }
}
