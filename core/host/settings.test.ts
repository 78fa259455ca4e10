import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SettingsStore, defaultSettings } from './settings.js';
import { createHost } from './host.js';
import { memoryLogger } from '../common/log.js';
import { echoRegistry } from './testing/echo-service.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'loupe-settings-'));

describe('settings', () => {
  it('are kept in the data directory and survive a restart', async () => {
    const dir = tmp();
    const a = new SettingsStore(dir);
    await a.update({ theme: 'dark', areas: { clickhouse: { mode: 'remote', remoteUrl: 'http://ch.internal:8123' } } });
    const b = new SettingsStore(dir);
    expect(b.effective().theme).toBe('dark');
    expect(b.effective().areas.clickhouse).toEqual({ mode: 'remote', remoteUrl: 'http://ch.internal:8123', port: 8123 });
  });

  it('a corrupt file is reported and kept as a backup, never silently dropped', async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'settings.json'), '{"version":1, "areas": {');
    const log = memoryLogger();
    const host = await createHost({ dataDir: dir, env: {}, log, registry: echoRegistry([]) });
    const view = host.settings.view();
    expect(view.corruptBackup).toMatch(/settings\.json\.corrupt-/);
    expect(readFileSync(view.corruptBackup!, 'utf8')).toBe('{"version":1, "areas": {');
    expect(view.settings).toEqual(defaultSettings());
    expect(log.lines.some((l) => l.includes('settings file was not valid') && l.includes(path.basename(view.corruptBackup!)))).toBe(true);
    await host.close();
  });

  it('a file with valid JSON but wrong values is treated as corrupt too', () => {
    const dir = tmp();
    const bad = { ...defaultSettings(), uiPort: 70000 };
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(bad));
    const s = new SettingsStore(dir);
    expect(s.corruptBackup).toBeDefined();
    expect(s.corruptReason).toMatch(/uiPort/);
    expect(readdirSync(dir).filter((f) => f.startsWith('settings.json.corrupt-'))).toHaveLength(1);
  });

  it('an update that is not valid changes nothing on disk', async () => {
    const dir = tmp();
    const s = new SettingsStore(dir);
    await s.update({ theme: 'light' });
    const before = readFileSync(s.file, 'utf8');
    await expect(s.update({ areas: { search: { mode: 'remote' } } })).rejects.toThrow('areas.search.remoteUrl: a remote search needs a URL');
    expect(readFileSync(s.file, 'utf8')).toBe(before);
  });
});
