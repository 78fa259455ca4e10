/**
 * A connector config against an earlier version, key by key, as a reviewer reads it: what was
 * added, removed and changed (old and new value), in key order, with the unchanged keys counted.
 */
export type ConfigChange =
  | { key: string; kind: 'added'; after: string }
  | { key: string; kind: 'removed'; before: string }
  | { key: string; kind: 'changed'; before: string; after: string };

export interface ConfigDiff {
  changes: ConfigChange[];
  unchanged: number;
}

export function diffConfigs(before: Record<string, string>, after: Record<string, string>): ConfigDiff {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changes: ConfigChange[] = [];
  let unchanged = 0;
  for (const key of keys) {
    const had = Object.hasOwn(before, key);
    const has = Object.hasOwn(after, key);
    if (had && has) {
      if (before[key] === after[key]) unchanged++;
      else changes.push({ key, kind: 'changed', before: before[key]!, after: after[key]! });
    } else if (has) changes.push({ key, kind: 'added', after: after[key]! });
    else changes.push({ key, kind: 'removed', before: before[key]! });
  }
  return { changes, unchanged };
}

export const sameConfig = (a: Record<string, string>, b: Record<string, string>) => diffConfigs(a, b).changes.length === 0;

/** One line a summary can show: "2 changed, 1 added, 1 removed". */
export function diffSummary(d: ConfigDiff): string {
  const n = (kind: ConfigChange['kind']) => d.changes.filter((c) => c.kind === kind).length;
  const parts = (['changed', 'added', 'removed'] as const).filter((k) => n(k) > 0).map((k) => `${n(k)} ${k}`);
  return parts.length ? parts.join(', ') : 'no changes';
}

/** Keys whose values are credentials (database.password, ssl.key.password, sasl.jaas.config, …). */
export const isSecretKey = (key: string) => /(password|secret|token|credentials?|api[._-]?key|jaas\.config)$/i.test(key);

/** FNV-1a, 32 bits: tells two secret values apart without keeping either. */
function fingerprint(value: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * The config as the history keeps and shows it: a credential's value replaced by a short
 * fingerprint, so a changed password shows as changed without the password being stored or shown.
 */
export function maskSecrets(config: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) out[k] = isSecretKey(k) && v !== '' ? `(hidden, #${fingerprint(v)})` : v;
  return out;
}
