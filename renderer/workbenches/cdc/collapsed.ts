/**
 * Changes of one id that reached ClickHouse in the same insert block: a replacing engine collapses
 * rows with equal keys inside a block as it writes it (optimize_on_insert = 1), so those changes
 * never appear as separate versions, not even before any merge. Read from the flow view's recent
 * changes, each followed to the insert block (dedup token) that delivered it.
 */
import type { CdcPipelineStep } from '../../../core/host/contract.js';

export interface CollapsedChanges {
  key: string;
  token: string;
  /** The changes' operations in commit order, e.g. ['u', 'u', 'u']. */
  ops: ('c' | 'u' | 'd')[];
}

const keyText = (k: Record<string, unknown>) =>
  Object.values(k)
    .map((v) => (v === null || v === undefined ? '' : String(v)))
    .join(', ');

/** Per id, the insert blocks that carried two or more of its changes (the newest block last). */
export function collapsedInBlocks(steps: CdcPipelineStep[]): Map<string, CollapsedChanges[]> {
  const byBlock = new Map<string, CollapsedChanges>();
  for (const s of steps) {
    if (!s.source.key) continue;
    const token = s.blocks[0]?.token;
    if (!token) continue;
    const key = keyText(s.source.key);
    const id = `${key}\u0000${token}`;
    const entry = byBlock.get(id);
    if (entry) entry.ops.push(s.source.op);
    else byBlock.set(id, { key, token, ops: [s.source.op] });
  }
  const out = new Map<string, CollapsedChanges[]>();
  for (const c of byBlock.values()) {
    if (c.ops.length < 2) continue;
    const list = out.get(c.key);
    if (list) list.push(c);
    else out.set(c.key, [c]);
  }
  return out;
}

const OPS = { c: 'insert', u: 'update', d: 'delete' } as const;

/** In words, for the Raw view's row of that id. */
export function collapsedText(c: CollapsedChanges): string {
  return `${c.ops.length} changes (${c.ops.map((o) => OPS[o]).join(', ')}) arrived in one insert block (${c.token}); ClickHouse kept only the winner of them as it wrote the block (optimize_on_insert), so they were never separate versions here.`;
}
