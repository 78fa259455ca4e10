/**
 * A TransformPlugin or PredicatePlugin made from a Kafka ConfigDef (see config-def.ts): validate
 * is ConfigDef.validateAll on the embedded keys, create is configure() on SimpleConfig.
 */
import type { ConnectRecord } from '../plugin.js';
import { configKeyDefs, parseConfig, validateKeys, type KeySpec } from './config-def.js';
import { KEY, VALUE, type Side } from './connect-data.js';
import type { Predicate, PredicatePlugin, TransformPlugin, Transformation } from './transformation.js';

/** AppInfoParser.getVersion() of the Kafka build these follow. */
export const KAFKA_TRANSFORMS_VERSION = '3.9.0';

export function kafkaTransform(cls: string, specs: readonly KeySpec[], create: (config: Record<string, unknown>) => Transformation): TransformPlugin {
  return {
    class: cls,
    version: KAFKA_TRANSFORMS_VERSION,
    configDefs: configKeyDefs(specs),
    prefixAware: true,
    validate: (config, prefix = '') => validateKeys(specs, config, prefix),
    create: (config) => create(parseConfig(specs, config)),
  };
}

/** The `$Key` and `$Value` classes of an abstract Kafka SMT, in that order. */
export function keyValueTransforms(base: string, specs: readonly KeySpec[], create: (config: Record<string, unknown>, side: Side) => Transformation): [TransformPlugin, TransformPlugin] {
  return [kafkaTransform(`${base}$Key`, specs, (c) => create(c, KEY)), kafkaTransform(`${base}$Value`, specs, (c) => create(c, VALUE))];
}

export function kafkaPredicate(cls: string, specs: readonly KeySpec[], create: (config: Record<string, unknown>) => Predicate): PredicatePlugin {
  return {
    class: cls,
    version: KAFKA_TRANSFORMS_VERSION,
    configDefs: configKeyDefs(specs),
    validate: (config, prefix) => validateKeys(specs, config, prefix),
    create: (config) => create(parseConfig(specs, config)),
  };
}

/** A transformation from a function of the record. */
export function transformation(apply: (record: ConnectRecord) => ConnectRecord | null): Transformation {
  return { apply: <R extends ConnectRecord>(record: R) => apply(record) as R | null };
}
