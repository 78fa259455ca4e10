/** A single message transform (Kafka Connect's Transformation) and its plugin description. */
import type { ConfigKeyDef, ConnectRecord } from '../plugin.js';

export interface Transformation {
  /** The transformed record, or null to drop it. */
  apply<R extends ConnectRecord>(record: R): R | null;
}

export interface TransformPlugin {
  readonly class: string;
  readonly aliases?: readonly string[];
  readonly version: string;
  readonly configDefs: readonly ConfigKeyDef[];
  /** Errors per key (keys relative to the transform, e.g. `regex`). */
  validate(config: Record<string, string>): Record<string, string[]>;
  create(config: Record<string, string>): Transformation;
}

export function def(name: string, type: ConfigKeyDef['type'], defaultValue: string | null, importance: ConfigKeyDef['importance'], documentation: string, extra: Partial<ConfigKeyDef> = {}): ConfigKeyDef {
  return { name, type, required: defaultValue === null && !extra.recommended, default_value: defaultValue, importance, documentation, group: null, width: 'NONE', display_name: name, dependents: [], order: -1, ...extra };
}
