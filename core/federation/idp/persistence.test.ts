/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies of the wire under test */
/**
 * What a user created survives a restart: realms, users (and their passwords), clients, the
 * signing keys (same kid, same certificate) and the HTTPS certificate; key files are 0600.
 */
import { describe, it, expect, afterAll } from 'vitest';
import https from 'node:https';
import { statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { decodeProtectedHeader } from 'jose';
import { startHarness, removeDir, postForm, ssoLogin, parseAutoPost, type Harness } from './testing/harness.js';
import { summarizeSamlResponse } from '../saml/post-body.js';

let h: Harness | undefined;
let dir = '';
afterAll(async () => {
  await h?.close();
  if (dir) removeDir(dir);
});

function httpsGet(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('restart', () => {
  it('keeps users, clients, keys and the HTTPS certificate', async () => {
    h = await startHarness({ adminPassword: 'admin-pass' });
    dir = h.dir;
    await h.idp.api.registerSamlClientFromMetadata('federation', {
      metadataXml: `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://sp.example/metadata"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://sp.example/acs" index="0"/></md:SPSSODescriptor></md:EntityDescriptor>`,
      urlName: 'sp',
    });
    const token1 = await (await postForm(`${h.idp.url}/realms/federation/protocol/openid-connect/token`, { grant_type: 'password', client_id: 'loupe-cli', client_secret: 'loupe-cli-secret', username: 'alice', password: 'alice' })).json() as any;
    const cert1 = h.idp.api.tlsCertPem;
    const jwks1 = await (await fetch(`${h.idp.url}/realms/federation/protocol/openid-connect/certs`)).text();
    await h.close();

    h = await startHarness({ dir });
    const jwks2 = await (await fetch(`${h.idp.url}/realms/federation/protocol/openid-connect/certs`)).text();
    expect(jwks2).toBe(jwks1);
    expect(h.idp.api.tlsCertPem).toBe(cert1);
    const token2 = await (await postForm(`${h.idp.url}/realms/federation/protocol/openid-connect/token`, { grant_type: 'password', client_id: 'loupe-cli', client_secret: 'loupe-cli-secret', username: 'alice', password: 'alice' })).json() as any;
    expect(decodeProtectedHeader(token2.access_token).kid).toBe(decodeProtectedHeader(token1.access_token).kid);
    // The admin password given on first start still works; the seed was not run twice.
    const adm = await postForm(`${h.idp.url}/realms/master/protocol/openid-connect/token`, { grant_type: 'password', client_id: 'admin-cli', username: 'admin', password: 'admin-pass' });
    expect(adm.status).toBe(200);
    expect(h.idp.api.clients('federation').filter((c) => c.clientId === 'loupe-cli')).toHaveLength(1);
    const res = await ssoLogin(`${h.idp.url}/realms/federation/protocol/saml/clients/sp`, { username: 'bob', password: 'bob' });
    const form = parseAutoPost(await res.text());
    expect(form.action).toBe('https://sp.example/acs');
    expect(summarizeSamlResponse(form.SAMLResponse).audience).toBe('https://sp.example/metadata');

    // HTTPS with the kept self-signed certificate, trusted explicitly.
    const d = await httpsGet(`${h.idp.extraUrls!.https}/realms/federation/.well-known/openid-configuration`, cert1);
    expect(d.status).toBe(200);
    expect(JSON.parse(d.body).issuer).toBe(`${h.idp.extraUrls!.https}/realms/federation`);

    const keyDir = path.join(dir, 'keys');
    for (const f of readdirSync(keyDir).filter((f) => f.endsWith('.key.pem'))) expect(statSync(path.join(keyDir, f)).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, 'realms.json')).mode & 0o777).toBe(0o600);
  });
});
