/**
 * HTTPS GET that trusts a server by thumbprint, the way IAM trusts an OIDC provider: the SHA-1
 * of the top certificate of the chain the server presents must be in the provider's list. The
 * system CA store is deliberately not consulted (the embedded IdP's certificate is self-signed).
 */
import https from 'node:https';
import { createHash } from 'node:crypto';
import type { PeerCertificate, TLSSocket } from 'node:tls';

export class PinnedFetchError extends Error {
  constructor(
    message: string,
    readonly kind: 'thumbprint' | 'network' | 'http' | 'json',
  ) {
    super(message);
  }
}

/** Lower-case hex SHA-1 of the last certificate in the presented chain (the top one). */
export function topThumbprint(socket: TLSSocket): string {
  let cert = socket.getPeerCertificate(true) as PeerCertificate & { issuerCertificate?: PeerCertificate };
  const seen = new Set<string>();
  while (cert.issuerCertificate && cert.issuerCertificate !== cert && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    cert = cert.issuerCertificate;
  }
  return createHash('sha1').update(cert.raw).digest('hex');
}

export interface PinnedResponse {
  status: number;
  body: string;
  thumbprint: string;
}

/**
 * GETs `url`. With `thumbprints` undefined the connection is accepted and its thumbprint
 * reported (what the console's "Get thumbprint" does); otherwise a mismatch aborts before any
 * byte of the body is trusted.
 */
export function pinnedGet(url: string, thumbprints: string[] | undefined, timeoutMs = 5000): Promise<PinnedResponse> {
  const u = new URL(url);
  if (u.protocol !== 'https:') return Promise.reject(new PinnedFetchError(`${url}: the provider URL must use https`, 'network'));
  const pins = thumbprints?.map((t) => t.toLowerCase());
  return new Promise((resolve, reject) => {
    let thumbprint = '';
    const req = https.request(
      u,
      { method: 'GET', rejectUnauthorized: false, agent: false, timeout: timeoutMs, headers: { accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > 1024 * 1024) req.destroy(new PinnedFetchError(`${url}: response too large`, 'http'));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), thumbprint }));
        res.on('error', reject);
      },
    );
    req.on('socket', (socket) => {
      socket.once('secureConnect', () => {
        thumbprint = topThumbprint(socket as TLSSocket);
        if (pins && !pins.includes(thumbprint)) {
          req.destroy(new PinnedFetchError(`${u.host}: certificate thumbprint ${thumbprint} is not in the provider's thumbprint list`, 'thumbprint'));
        }
      });
    });
    req.on('timeout', () => req.destroy(new PinnedFetchError(`${url}: timed out after ${timeoutMs} ms`, 'network')));
    req.on('error', (err) => reject(err instanceof PinnedFetchError ? err : new PinnedFetchError(`${url}: ${err.message}`, 'network')));
    req.end();
  });
}

export async function pinnedGetJson<T>(url: string, thumbprints: string[] | undefined): Promise<{ json: T; thumbprint: string }> {
  const r = await pinnedGet(url, thumbprints);
  if (r.status !== 200) throw new PinnedFetchError(`${url}: HTTP ${r.status}`, 'http');
  try {
    return { json: JSON.parse(r.body) as T, thumbprint: r.thumbprint };
  } catch {
    throw new PinnedFetchError(`${url}: not JSON`, 'json');
  }
}
