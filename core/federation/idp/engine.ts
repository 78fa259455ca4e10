/**
 * The identity provider engine: realms (store), signing keys, login sessions and the operations
 * the HTTP layer and the host call. Knows nothing about HTTP.
 */
import path from 'node:path';
import { mkdirSync, existsSync, readFileSync } from 'node:fs';
import type { Clock } from '../../common/clock.js';
import type { Logger } from '../../common/log.js';
import { writeFileAtomic } from '../../common/json-store.js';
import { randomToken } from '../../common/ids.js';
import { KeyStore } from '../oidc/keys.js';
import { certBase64 } from '../oidc/certificates.js';
import { buildIdpDescriptor } from '../saml/idp-descriptor.js';
import { parseSpMetadata, type SpMetadata } from '../saml/sp-metadata.js';
import { RealmStore } from './store.js';
import { SessionStore } from './sessions.js';
import { cloudMappers } from './saml-mappers.js';
import { DEFAULT_CLOUD_DOMAIN, REALM_DEFAULTS, IdpError, type SamlClientRecord } from './model.js';

export interface IdpOptions {
  clock: Clock;
  /** Prefix of the cloud's SAML attribute names; https://aws.amazon.com unless set. */
  cloudDomain?: string;
  /** The master realm's `admin` password on first start; generated (and written to a 0600 file) when absent. */
  adminPassword?: string;
  /** Create the demo realm on first start (default true). */
  seedDemo?: boolean;
}

export interface RegisterFromMetadata {
  metadataXml: string;
  urlName: string;
  /** Which ACS from the metadata answers IdP-initiated logins; the metadata's default when absent. */
  acsUrl?: string;
  name?: string;
  baseUrl?: string;
  /** Realm roles in the client's scope (Full Scope Allowed is off). */
  scopeRealmRoles?: string[];
  /** Add the cloud's Role mapper and, unless false, RoleSessionName (from the username) and SessionDuration. */
  cloudMappers?: { roleSessionName?: boolean; sessionDuration?: number | null };
  signResponse?: boolean;
  signAssertion?: boolean;
  assertionLifespan?: number;
}

export class IdpEngine {
  private constructor(
    readonly store: RealmStore,
    readonly keys: KeyStore,
    readonly sessions: SessionStore,
    readonly clock: Clock,
    readonly log: Logger,
    readonly dataDir: string,
  ) {}

  static async open(dataDir: string, log: Logger, opts: IdpOptions): Promise<IdpEngine> {
    const keyDir = path.join(dataDir, 'keys');
    mkdirSync(keyDir, { recursive: true, mode: 0o700 });
    const store = RealmStore.open(dataDir, opts.clock, log, opts.cloudDomain ?? DEFAULT_CLOUD_DOMAIN);
    // A retired key stays in the JWKS as long as the longest-lived thing it can have signed.
    const keys = await KeyStore.open(keyDir, opts.clock, REALM_DEFAULTS.ssoSessionMaxLifespan);
    const engine = new IdpEngine(store, keys, new SessionStore(opts.clock), opts.clock, log, dataDir);
    if (!store.hasRealm('master')) {
      const { seedMaster, seedDemo } = await import('./seed.js');
      const password = opts.adminPassword ?? process.env.LOUPE_IDP_ADMIN_PASSWORD ?? randomToken(15);
      await seedMaster(engine, password);
      await writeFileAtomic(engine.adminPasswordFile, password + '\n', { mode: 0o600 });
      log.info('created the master realm; the admin password is in a file', { file: engine.adminPasswordFile });
      if (opts.seedDemo !== false) await seedDemo(engine);
    }
    return engine;
  }

  get adminPasswordFile(): string {
    return path.join(this.dataDir, 'admin-password');
  }

  /** The realm's SAML metadata (entity id = realm URL) with every published signing certificate. */
  descriptor(realmUrl: string): string {
    return buildIdpDescriptor({
      entityId: realmUrl,
      samlEndpoint: `${realmUrl}/protocol/saml`,
      keys: this.keys.published().map((k) => ({ kid: k.kid, certBase64: certBase64(k.certPem) })),
    });
  }

  /** Registers a cloud (or any SP) from its SAML metadata XML, the way an admin imports it into Keycloak. */
  async registerSamlClientFromMetadata(realm: string, input: RegisterFromMetadata): Promise<{ client: SamlClientRecord; metadata: SpMetadata }> {
    let md: SpMetadata;
    try {
      md = parseSpMetadata(input.metadataXml);
    } catch (err) {
      throw new IdpError(400, 'invalid_request', `Could not read the SAML metadata: ${(err as Error).message}`);
    }
    const acs = input.acsUrl ?? md.acsUrls[0]!;
    if (!md.acsUrls.includes(acs)) throw new IdpError(400, 'invalid_request', `${acs} is not an assertion consumer service of ${md.entityId}`);
    const r = this.store.realm(realm);
    const mappers = input.cloudMappers
      ? cloudMappers(r.cloudDomain, {
          roleSessionName: input.cloudMappers.roleSessionName !== false,
          ...(input.cloudMappers.sessionDuration != null ? { sessionDuration: input.cloudMappers.sessionDuration } : {}),
        })
      : [];
    const client = await this.store.createSamlClient(realm, {
      clientId: md.entityId,
      urlName: input.urlName,
      acsUrls: [acs, ...md.acsUrls.filter((u) => u !== acs)],
      ...(input.name ? { name: input.name } : md.serviceName ? { name: md.serviceName } : {}),
      ...(input.baseUrl ? { baseUrl: input.baseUrl } : {}),
      fullScopeAllowed: false,
      scopeRealmRoles: input.scopeRealmRoles ?? [],
      signResponse: input.signResponse ?? true,
      signAssertion: input.signAssertion ?? md.wantAssertionsSigned,
      ...(input.assertionLifespan !== undefined ? { assertionLifespan: input.assertionLifespan } : {}),
      ...(md.logoutUrl ? { logoutUrl: md.logoutUrl } : {}),
      protocolMappers: mappers,
    });
    return { client, metadata: md };
  }

  async close(): Promise<void> {
    await this.store.flush();
  }
}

/** AWS's sign-in SAML metadata as shipped in assets/federation/. */
export function awsSigninMetadata(): string {
  const candidates = [
    new URL('../../../assets/federation/aws-signin-metadata.xml', import.meta.url).pathname,
    path.join(process.cwd(), 'assets/federation/aws-signin-metadata.xml'),
  ];
  for (const file of candidates) if (existsSync(file)) return readFileSync(file, 'utf8');
  throw new Error(`assets/federation/aws-signin-metadata.xml not found (looked in ${candidates.join(', ')})`);
}
