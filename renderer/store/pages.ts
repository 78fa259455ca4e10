/**
 * The pages of the shell and what each workbench is about. Plain data: the sidebar, the
 * workbench pages and the status bar all read from here.
 */
import type { ServiceName } from '../../core/host/contract.js';

export type WorkbenchId = 'federation' | 'relevance' | 'cdc';
export type PageId = WorkbenchId | 'services' | 'settings';

export interface ServiceInfo {
  name: ServiceName;
  /** The name people know it by. */
  title: string;
  /** What Loupe's embedded engine stands in for. */
  standsFor: string;
  /** What a user points the area at instead, in Settings. */
  remoteKind: string;
  /** A first command to try against it from a terminal; `{url}` is the service's base URL. */
  tryIt: string;
}

export const SERVICE_INFO: Record<ServiceName, ServiceInfo> = {
  search: {
    name: 'search',
    remoteKind: 'an Elasticsearch or OpenSearch cluster',
    title: 'Search',
    standsFor: 'Elasticsearch REST API',
    tryIt: "curl -s '{url}/_cluster/health?pretty'",
  },
  idp: {
    name: 'idp',
    remoteKind: 'a Keycloak server',
    title: 'Identity provider',
    standsFor: 'Keycloak (OpenID Connect + SAML 2.0)',
    tryIt: "curl -s -d grant_type=password -d client_id=loupe-cli -d client_secret=loupe-cli-secret -d username=alice -d password=alice '{url}/realms/federation/protocol/openid-connect/token'",
  },
  sts: {
    name: 'sts',
    remoteKind: 'AWS STS or an STS-compatible service',
    title: 'Token service',
    standsFor: 'AWS STS Query API',
    tryIt: 'aws sts assume-role-with-web-identity --endpoint-url {url} --role-arn arn:aws:iam::123456789012:role/LoupeReadOnly --role-session-name alice --web-identity-token "$ID_TOKEN"',
  },
  connect: {
    name: 'connect',
    remoteKind: 'a Kafka Connect worker',
    title: 'Connect worker',
    standsFor: 'Kafka Connect REST API (Debezium-style source, ClickHouse sink)',
    tryIt: "curl -s '{url}/connector-plugins'",
  },
  clickhouse: {
    name: 'clickhouse',
    remoteKind: 'a ClickHouse server',
    title: 'ClickHouse',
    standsFor: 'ClickHouse HTTP interface (real ClickHouse through chDB)',
    tryIt: "curl -s '{url}/?query=SELECT%20version()'",
  },
};

export interface Workbench {
  id: WorkbenchId;
  title: string;
  /** One line under the title. */
  tagline: string;
  /** What the workbench will let you do, one capability per line. */
  capabilities: string[];
  services: ServiceName[];
}

export const WORKBENCHES: Workbench[] = [
  {
    id: 'federation',
    title: 'Federation',
    tagline: 'From a SAML or OpenID Connect login to temporary cloud credentials.',
    capabilities: [
      'Click through a SAML login in an embedded browser window and capture the SAMLResponse the identity provider posts to the cloud sign-in endpoint, without sending it on.',
      'Decode the assertion: issuer, subject, conditions, audience, the Role and RoleSessionName attributes, and whether the signature verifies.',
      'Pick a role and call AssumeRoleWithSAML to get an access key, secret key and session token with their expiry.',
      'From a terminal: the OpenID Connect password grant followed by AssumeRoleWithWebIdentity.',
    ],
    services: ['idp', 'sts'],
  },
  {
    id: 'relevance',
    title: 'Relevance',
    tagline: 'Why a document scored what it did, and why another did not match at all.',
    capabilities: [
      'Write a Query DSL request in an editor and run it against an index, embedded or on your cluster.',
      'See the hits with their scores and the explanation tree behind each score (BM25: idf, tf, field norms).',
      'Ask why a given document did not match, term by term, with the analyzed tokens of the query and the field.',
    ],
    services: ['search'],
  },
  {
    id: 'cdc',
    title: 'CDC',
    tagline: 'A change-data-capture pipeline from a relational table to a replacing analytics table.',
    capabilities: [
      'Change rows in a relational source and watch the change messages (before, after, op, source position) land on the topic log.',
      'Run a sink connector through the Kafka Connect REST API into a ReplacingMergeTree table.',
      'Watch row versions pile up and disappear after OPTIMIZE TABLE … FINAL CLEANUP, and compare SELECT with and without FINAL.',
    ],
    services: ['connect', 'clickhouse'],
  },
];

export const PAGE_IDS: PageId[] = ['federation', 'relevance', 'cdc', 'services', 'settings'];

export function pageFromHash(hash: string): PageId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return (PAGE_IDS as string[]).includes(id) ? (id as PageId) : 'federation';
}
