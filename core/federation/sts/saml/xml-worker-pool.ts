/**
 * SAML parsing and signature checks on worker threads, so the event loop every engine shares
 * never runs them: a flood of costly assertions queues here while other requests are served.
 *
 * A few threads (one fewer than the cores, at least one, at most 4), started on first use and
 * restarted if one dies; a job is refused with AWS's Throttling once MAX_QUEUED wait, and a job
 * running past JOB_TIMEOUT_MS (30 s) has its thread ended (and replaced).
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { SamlReadInput, SamlReading } from './saml-reading.js';

const MAX_QUEUED = 256;
/** Far above any real assertion's cost, even on a loaded machine; only a pathological input gets here. */
const JOB_TIMEOUT_MS = 30_000;

export class SamlWorkerOverloaded extends Error {}

interface Job {
  id: number;
  /** A job whose thread died (not one that hung) is tried once more on a fresh thread. */
  retried?: boolean;
  input: SamlReadInput;
  resolve: (r: SamlReading) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

function entryUrl(): string {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './xml-worker-entry.ts' : './xml-worker-entry.js', here).href;
}

export class SamlWorkerPool {
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly size = Math.max(1, Math.min(4, availableParallelism() - 1))) {}

  read(input: SamlReadInput): Promise<SamlReading> {
    if (this.closed) return Promise.reject(new Error('the SAML worker pool is closed'));
    if (this.queue.length >= MAX_QUEUED) return Promise.reject(new SamlWorkerOverloaded('Rate exceeded'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, resolve, reject });
      this.pump();
    });
  }

  /** Starts every thread of the pool now rather than on first use (the service does at start-up). */
  warm(): void {
    if (this.closed) return;
    while (this.slots.length < this.size) this.spawn();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(new Error('the SAML worker pool is closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots = [];
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.timer = setTimeout(() => this.fail(slot!, new Error('reading the SAML response took too long')), JOB_TIMEOUT_MS);
      slot.worker.postMessage({ id: job.id, input: job.input });
    }
  }

  private spawn(): Slot {
    const worker = new Worker(fileURLToPath(new URL('./xml-worker-boot.mjs', import.meta.url)), { workerData: { entry: entryUrl() } });
    worker.unref();
    const slot: Slot = { worker };
    worker.on('message', (m: { id: number; result?: SamlReading; error?: string }) => {
      const job = slot.job;
      if (!job || job.id !== m.id) return;
      clearTimeout(slot.timer);
      slot.job = undefined;
      if (m.error !== undefined) job.reject(new Error(m.error));
      else job.resolve(m.result!);
      this.pump();
    });
    worker.on('error', (err) => this.fail(slot, err, true));
    worker.on('exit', () => {
      if (slot.job) this.fail(slot, new Error('the SAML reading thread stopped'), true);
      this.slots = this.slots.filter((s) => s !== slot);
      if (!this.closed) this.pump();
    });
    this.slots.push(slot);
    return slot;
  }

  /** Ends a thread whose job failed or hung; a fresh one takes the next job (and a crashed job once more). */
  private fail(slot: Slot, err: Error, crashed = false): void {
    clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = undefined;
    this.slots = this.slots.filter((s) => s !== slot);
    void slot.worker.terminate();
    if (job && crashed && !job.retried && !this.closed) {
      job.retried = true;
      this.queue.unshift(job);
    } else job?.reject(err);
    if (!this.closed) this.pump();
  }
}
