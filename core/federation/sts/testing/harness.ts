/** Test support: a token service on a free port with one SAML provider and two roles. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STSClient } from '@aws-sdk/client-sts';
import { silentLogger } from '../../../common/log.js';
import type { ServiceHandle } from '../../../common/service.js';
import { startStsService, type StsApi, type StsServiceOptions } from '../service.js';
import { generateSigningKey, idpMetadataXml, type SigningKey } from './saml-signer.js';

export const ACCOUNT = '123456789012';
export const TEST_ISSUER = 'http://127.0.0.1:18080/realms/test';
export const PROVIDER_ARN = `arn:aws:iam::${ACCOUNT}:saml-provider/TestIdP`;
export const ROLE_ARN = `arn:aws:iam::${ACCOUNT}:role/Reader`;
export const ADMIN_ROLE_ARN = `arn:aws:iam::${ACCOUNT}:role/Admin`;

export interface TestSts {
  url: string;
  dir: string;
  handle: ServiceHandle<StsApi>;
  key: SigningKey;
  sdk: STSClient;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export function samlTrust(providerArn = PROVIDER_ARN) {
  return {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { Federated: providerArn }, Action: 'sts:AssumeRoleWithSAML', Condition: { StringEquals: { 'SAML:aud': 'https://signin.aws.amazon.com/saml' } } }],
  };
}

export function sdkFor(url: string, credentials = { accessKeyId: 'AKIDUNSIGNEDCALLS', secretAccessKey: 'unused-for-unsigned-calls' }): STSClient {
  return new STSClient({ region: 'us-east-1', endpoint: url, credentials, maxAttempts: 1 });
}

export async function startTestSts(opts: StsServiceOptions = {}, key?: SigningKey): Promise<TestSts> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-sts-'));
  const k = key ?? (await generateSigningKey());
  const start = () => startStsService({ host: '127.0.0.1', port: 0, dataDir: dir, log: silentLogger, peers: {} }, { seed: false, ...opts });
  let handle = await start();
  const engine = handle.api.engine;
  await engine.createSamlProvider('TestIdP', idpMetadataXml(TEST_ISSUER, k));
  await engine.createRole({ name: 'Reader', trustPolicy: samlTrust(), maxSessionDuration: 3600 });
  await engine.createRole({ name: 'Admin', trustPolicy: samlTrust(), maxSessionDuration: 43200 });
  const t: TestSts = {
    url: handle.url,
    dir,
    handle,
    key: k,
    sdk: sdkFor(handle.url),
    async restart() {
      await handle.close();
      handle = await start();
      t.handle = handle;
      t.url = handle.url;
      t.sdk = sdkFor(handle.url);
    },
    async close() {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}
