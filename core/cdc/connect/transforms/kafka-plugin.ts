/**
 * A TransformPlugin or PredicatePlugin made from a Kafka ConfigDef (see config-def.ts): validate
 * is ConfigDef.validateAll on the embedded keys, create is configure() on SimpleConfig.
 */
import type { ConnectRecord, Schema } from '../plugin.js';
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

/**
 * The apply() of a $Key/$Value SMT: a null key or value passes unchanged; otherwise
 * applySchemaless when the side has no schema, applyWithSchema when it has one.
 */
export function sideTransformation(
  side: Side,
  schemaless: (value: unknown, record: ConnectRecord) => ConnectRecord | null,
  withSchema: (value: unknown, schema: Schema, record: ConnectRecord) => ConnectRecord | null,
): Transformation {
  return transformation((record) => {
    const value = side.value(record);
    if (value === null || value === undefined) return record;
    const schema = side.schema(record);
    return schema ? withSchema(value, schema, record) : schemaless(value, record);
  });
}
