/**
 * Kafka's `cleanup.policy` (Kafka 3.9 at tag 3.9.0-rc3): a LIST config checked by
 * `ValidList.in("compact", "delete")`. Each item turns on one cleaner (LogConfig.compact,
 * LogConfig.delete): `compact` the log cleaner (latest record per key, LogCleanerManager takes
 * only logs with config.compact), `delete` time and size retention (UnifiedLog.deleteOldSegments
 * applies retention.ms and retention.bytes only when config.delete). `compact,delete` (in either
 * order) is both; an empty list is neither. The list is kept as given, so a topic is described
 * as its creator set it (describe-configs joins the parsed list with ",").
 */
import { LogError } from './types.js';

export type CleanupPolicy = 'compact' | 'delete';

const VALID: readonly string[] = ['compact', 'delete'];

/**
 * The policy list of a config value: a string in Kafka's list syntax (ConfigDef.parseType for
 * LIST: trimmed, split at commas with the spaces around them, an empty string an empty list), or
 * a list as it is; each item checked as ValidList does, with ConfigException's text.
 */
export function parseCleanupPolicy(value: unknown): CleanupPolicy[] {
  let items: unknown[];
  if (Array.isArray(value)) items = [...(value as unknown[])];
  else if (typeof value === 'string') items = value.trim() === '' ? [] : value.trim().split(/\s*,\s*/);
  else throw new LogError(`Invalid value ${String(value)} for configuration cleanup.policy: Expected a comma separated list.`, 'INVALID_REQUEST');
  for (const item of items) {
    if (typeof item !== 'string' || !VALID.includes(item)) {
      throw new LogError(`Invalid value ${String(item)} for configuration cleanup.policy: String must be one of: ${VALID.join(', ')}`, 'INVALID_REQUEST');
    }
  }
  return items as CleanupPolicy[];
}

/** LogConfig.compact: the log cleaner keeps the newest record per key (and keyless records are refused). */
export function compacts(policy: readonly CleanupPolicy[]): boolean {
  return policy.includes('compact');
}

/** LogConfig.delete: retention.ms and retention.bytes delete old segments. */
export function deletes(policy: readonly CleanupPolicy[]): boolean {
  return policy.includes('delete');
}
