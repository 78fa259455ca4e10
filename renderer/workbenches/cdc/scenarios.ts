/**
 * The scenario player's canned sequences: SQL against the source's demo.customers, one step each,
 * so a demo runs without typing. The version column is created_at, so every scenario sets it.
 */
export interface Scenario {
  id: string;
  title: string;
  /** What the presenter will see in the target. */
  shows: string;
  steps: string[];
}

const at = (s: number) => `'2030-01-01 00:00:${String(s).padStart(2, '0')}'`;

/** `n` rows in INSERT statements of `batch` rows each (ids from `first`). */
export function burst(n: number, first = 100_000, batch = 500): string[] {
  const out: string[] = [];
  for (let start = 0; start < n; start += batch) {
    const rows: string[] = [];
    for (let i = start; i < Math.min(n, start + batch); i++) rows.push(`(${at(0)}, ${first + i}, 'burst ${i}')`);
    out.push(`INSERT INTO customers (created_at, id, name) VALUES ${rows.join(', ')} ON DUPLICATE KEY UPDATE name = VALUES(name), created_at = created_at + INTERVAL 1 SECOND`);
  }
  return out;
}

export const SCENARIOS: Scenario[] = [
  {
    id: 'update-five',
    title: 'Update one id five times',
    shows: 'five versions of id 42 in Raw, one in FINAL, one after cleanup',
    steps: [
      `INSERT INTO customers (created_at, id, name) VALUES (${at(1)}, 42, 'Barbara') ON DUPLICATE KEY UPDATE name = 'Barbara', created_at = ${at(1)}`,
      ...[2, 3, 4, 5].map((v) => `UPDATE customers SET name = 'Barbara v${v}', created_at = ${at(v)} WHERE id = 42`),
    ],
  },
  {
    id: 'delete-reinsert',
    title: 'Delete, then re-insert',
    shows: 'a delete version (__deleted = 1) that wins until the re-insert outranks it',
    steps: [
      `INSERT INTO customers (created_at, id, name) VALUES (${at(10)}, 43, 'Carl') ON DUPLICATE KEY UPDATE name = 'Carl', created_at = ${at(10)}`,
      'DELETE FROM customers WHERE id = 43',
      `INSERT INTO customers (created_at, id, name) VALUES (${at(12)}, 43, 'Carl again')`,
    ],
  },
  {
    id: 'version-backwards',
    title: 'Update the version column backwards',
    shows: 'the later change loses: FINAL keeps the row with the higher created_at, so target ≠ source',
    steps: [
      `INSERT INTO customers (created_at, id, name) VALUES (${at(30)}, 44, 'Dana') ON DUPLICATE KEY UPDATE name = 'Dana', created_at = ${at(30)}`,
      `UPDATE customers SET name = 'Dana (older version)', created_at = ${at(20)} WHERE id = 44`,
    ],
  },
  {
    id: 'burst',
    title: 'A burst of 10,000 changes',
    shows: '10,000 inserts in 20 transactions; watch the counters and the parts',
    steps: burst(10_000),
  },
];
