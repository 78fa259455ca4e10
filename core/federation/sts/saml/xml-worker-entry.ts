/** A SAML reading thread (see xml-worker-pool.ts): reads each job with readSamlResponse and answers. */
import { parentPort } from 'node:worker_threads';
import { readSamlResponse, type SamlReadInput } from './saml-reading.js';

const port = parentPort!;
port.on('message', (m: { id: number; input: SamlReadInput }) => {
  try {
    port.postMessage({ id: m.id, result: readSamlResponse(m.input) });
  } catch (err) {
    port.postMessage({ id: m.id, error: (err as Error).message });
  }
});
