/**
 * Recent successful SAML readings, by the exact bytes read and the provider they were read
 * for. Reading is a pure function of (XML, certificates, entity id): the same response read
 * again (the UI checks its signature when it shows the assertion, then AssumeRoleWithSAML
 * reads it; saml2aws-style tools redeem one assertion for several roles) gives the same answer,
 * so the parse and the signature check are not done twice. Everything that depends on the
 * moment (validity window, the five-minute redemption limit, the role and provider chosen) is
 * still checked on every call by assume-role-with-saml.ts. Rejections are never remembered.
 */
import { createHash } from 'node:crypto';
import type { SamlReadInput, SamlReading } from './saml-reading.js';

export interface SamlReader {
  read(input: SamlReadInput): Promise<SamlReading>;
  close(): Promise<void>;
}

/** AWS redeems an assertion only within five minutes of its IssueInstant; no reading is useful longer. */
const KEEP_MS = 5 * 60_000;
const MAX_ENTRIES = 64;

function keyOf(input: SamlReadInput): string {
  const h = createHash('sha256');
  for (const part of [input.entityId, ...input.certificates, input.xml]) h.update(String(part.length)).update(':').update(part);
  return h.digest('base64');
}

export class RememberedSamlReadings implements SamlReader {
  private readonly entries = new Map<string, { at: number; reading: SamlReading }>();

  constructor(
    private readonly inner: SamlReader,
    private readonly now: () => number,
  ) {}

  async read(input: SamlReadInput): Promise<SamlReading> {
    const key = keyOf(input);
    const hit = this.entries.get(key);
    const now = this.now();
    if (hit && now - hit.at >= 0 && now - hit.at < KEEP_MS) return structuredClone(hit.reading);
    if (hit) this.entries.delete(key);
    const reading = await this.inner.read(input);
    if (reading.ok) {
      this.entries.set(key, { at: now, reading: structuredClone(reading) });
      // A Map iterates in insertion order: the first key is the oldest.
      while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    return reading;
  }

  close(): Promise<void> {
    this.entries.clear();
    return this.inner.close();
  }
}
