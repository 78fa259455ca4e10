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
  /**
   * Errors per key (keys relative to the transform, e.g. `regex`). A plugin that sets
   * `prefixAware` writes its messages for the key's place under `prefix` itself
   * (`transforms.<alias>.`); for the others the chain rewrites the key names in them.
   */
  validate(config: Record<string, string>, prefix?: string): Record<string, string[]>;
  readonly prefixAware?: boolean;
  /** Throws a ConfigException (configure()) for a config validation cannot catch. */
  create(config: Record<string, string>): Transformation;
}

/** org.apache.kafka.connect.transforms.predicates.Predicate */
export interface Predicate {
  test(record: ConnectRecord): boolean;
}

export interface PredicatePlugin {
  readonly class: string;
  readonly version: string;
  readonly configDefs: readonly ConfigKeyDef[];
  validate(config: Record<string, string>, prefix: string): Record<string, string[]>;
  create(config: Record<string, string>): Predicate;
}

export function def(name: string, type: ConfigKeyDef['type'], defaultValue: string | null, importance: ConfigKeyDef['importance'], documentation: string, extra: Partial<ConfigKeyDef> = {}): ConfigKeyDef {
  return { name, type, required: defaultValue === null && !extra.recommended, default_value: defaultValue, importance, documentation, group: null, width: 'NONE', display_name: name, dependents: [], order: -1, ...extra };
}
