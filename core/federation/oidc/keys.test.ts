/** Key rotation: the old key stays in the JWKS until anything it signed has expired, then goes. */
import { describe, it, expect, afterAll } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ManualClock } from '../../common/clock.js';
import { KeyStore } from './keys.js';

const dir = mkdtempSync(path.join(tmpdir(), 'loupe-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('signing keys', () => {
  it('rotation keeps the old key published for the retention time, then drops it; survives reopening', async () => {
    const clock = new ManualClock();
    const keys = await KeyStore.open(dir, clock, 3600);
    const first = keys.active.kid;
    expect(statSync(path.join(dir, `${first}.key.pem`)).mode & 0o777).toBe(0o600);
    const second = (await keys.rotate()).kid;
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([second, first]);
    clock.advance(3599_000);
    expect(keys.byKid(first)).toBeDefined();
    clock.advance(2_000);
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([second]);
    const reopened = await KeyStore.open(dir, clock, 3600);
    expect(reopened.active.kid).toBe(second);
    expect(reopened.active.certPem).toBe(keys.active.certPem);
  });
});
