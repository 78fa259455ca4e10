import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { memoryLogger } from '../../../common/log.js';
import { AccountStore } from './store.js';
import type { SessionRecord } from './model.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-sts-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const record = (id: string, expiration: string): SessionRecord => ({
  accessKeyId: id,
  secretAccessKey: 's'.repeat(40),
  sessionToken: 't',
  expiration,
  issuedAt: '2026-01-01T00:00:00Z',
  roleArn: 'arn:aws:iam::123456789012:role/R',
  assumedRoleArn: 'arn:aws:sts::123456789012:assumed-role/R/x',
  assumedRoleId: 'AROAXXXXXXXXXXXXXXXXX:x',
  sessionName: 'x',
  via: 'AssumeRoleWithSAML',
  providerArn: 'arn:aws:iam::123456789012:saml-provider/p',
  subject: 'x',
});

describe('the session log', () => {
  it('survives a crash in the middle of an append: the torn line is skipped and reported', async () => {
    const { store } = AccountStore.open(dir, '123456789012', memoryLogger());
    await store.addSession(record('ASIA1', '2099-01-01T00:00:00Z'));
    await store.addSession(record('ASIA2', '2099-01-01T00:00:00Z'));
    appendFileSync(path.join(dir, 'sessions.jsonl'), '{"accessKeyId":"ASIA3","secr');
    const log = memoryLogger();
    const again = AccountStore.open(dir, '123456789012', log).store;
    expect(again.listSessions().map((s) => s.accessKeyId).sort()).toEqual(['ASIA1', 'ASIA2']);
    expect(log.lines.join('\n')).toMatch(/skipped unreadable lines/);
    // The log never carries secrets into the logger.
    expect(log.lines.join('\n')).not.toContain('s'.repeat(40));
  });

  it('records expired for more than a week are dropped at open', async () => {
    const { store } = AccountStore.open(dir, '123456789012', memoryLogger());
    await store.addSession(record('ASIAOLD', '2020-01-01T00:00:00Z'));
    await store.addSession(record('ASIANEW', '2099-01-01T00:00:00Z'));
    AccountStore.open(dir, '123456789012', memoryLogger());
    expect(readFileSync(path.join(dir, 'sessions.jsonl'), 'utf8')).not.toContain('ASIAOLD');
  });
});
