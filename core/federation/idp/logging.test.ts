/** Secrets never reach the log: passwords, client secrets, tokens and assertions stay out. */
import { describe, it, expect, afterAll } from 'vitest';
import { memoryLogger } from '../../common/log.js';
import { startHarness, removeDir, postForm, ssoLogin, type Harness } from './testing/harness.js';

let h: Harness | undefined;
afterAll(async () => {
  await h?.close();
  if (h) removeDir(h.dir);
});

describe('logging', () => {
  it('a run with logins, tokens and bad requests logs none of their secrets', async () => {
    const log = memoryLogger();
    h = await startHarness({ log, adminPassword: 'Adm1n-Secret-Passw0rd' });
    const realm = `${h.idp.url}/realms/federation`;
    const t = await (await postForm(`${realm}/protocol/openid-connect/token`, { grant_type: 'password', client_id: 'loupe-cli', client_secret: 'loupe-cli-secret', username: 'bob', password: 'bob' })).json() as { access_token: string; refresh_token: string };
    await postForm(`${realm}/protocol/openid-connect/token`, { grant_type: 'password', client_id: 'loupe-cli', client_secret: 'wrong-secret-xyz', username: 'bob', password: 'Wr0ngPassw0rd!' });
    const sso = await (await ssoLogin(`${realm}/protocol/saml/clients/cloud`, { username: 'alice', password: 'alice' })).text();
    const saml = /NAME="SAMLResponse" VALUE="([^"]+)"/.exec(sso)![1]!;
    await postForm(`${realm}/protocol/saml`, { SAMLRequest: 'garbage' });
    await fetch(`${h.idp.url}/admin/realms`, { headers: { authorization: 'Bearer forged.token.here' } });
    const all = log.lines.join('\n');
    expect(log.lines.length).toBeGreaterThan(0);
    for (const secret of ['Adm1n-Secret-Passw0rd', 'loupe-cli-secret', 'wrong-secret-xyz', 'Wr0ngPassw0rd!', t.access_token, t.refresh_token, saml.slice(0, 40)]) expect(all).not.toContain(secret);
  });
});
