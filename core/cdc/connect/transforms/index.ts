/**
 * The transformation chain of a connector, as Kafka Connect 3.9's ConnectorConfig builds it:
 * `transforms=a,b` with `transforms.a.type=<class>` and `transforms.a.<key>=…`, and predicates
 * `predicates=p` with `predicates.p.type=<class>`, applied to a transform by
 * `transforms.a.predicate=p` (and `transforms.a.negate=true`), as TransformationStage does.
 * Validation is ConnectorConfig.enrich's: errors are reported under the full key
 * (`transforms.a.regex`).
 */
import { ConnectException, type ConnectRecord } from '../plugin.js';
import { castKeyPlugin, castValuePlugin } from './cast.js';
import { ConfigException, parseType } from './config-def.js';
import { dropHeadersPlugin } from './drop-headers.js';
import { extractFieldKeyPlugin, extractFieldValuePlugin } from './extract-field.js';
import { extractNewRecordStatePlugin } from './extract-new-record-state.js';
import { filterPlugin } from './filter.js';
import { flattenKeyPlugin, flattenValuePlugin } from './flatten.js';
import { headerFromKeyPlugin, headerFromValuePlugin } from './header-from.js';
import { hoistFieldKeyPlugin, hoistFieldValuePlugin } from './hoist-field.js';
import { insertFieldKeyPlugin, insertFieldValuePlugin } from './insert-field.js';
import { insertHeaderPlugin } from './insert-header.js';
import { maskFieldKeyPlugin, maskFieldValuePlugin } from './mask-field.js';
import { hasHeaderKeyPlugin } from './predicates/has-header-key.js';
import { recordIsTombstonePlugin } from './predicates/record-is-tombstone.js';
import { topicNameMatchesPlugin } from './predicates/topic-name-matches.js';
import { regexRouterPlugin } from './regex-router.js';
import { replaceFieldKeyPlugin, replaceFieldValuePlugin } from './replace-field.js';
import { setSchemaMetadataKeyPlugin, setSchemaMetadataValuePlugin } from './set-schema-metadata.js';
import { timestampConverterKeyPlugin, timestampConverterValuePlugin } from './timestamp-converter.js';
import { timestampRouterPlugin } from './timestamp-router.js';
import type { Predicate, PredicatePlugin, TransformPlugin, Transformation } from './transformation.js';
import { valueToKeyPlugin } from './value-to-key.js';

export type { Predicate, PredicatePlugin, TransformPlugin, Transformation } from './transformation.js';

export const TRANSFORM_PLUGINS: readonly TransformPlugin[] = [
  extractNewRecordStatePlugin,
  regexRouterPlugin,
  flattenValuePlugin,
  flattenKeyPlugin,
  castKeyPlugin,
  castValuePlugin,
  dropHeadersPlugin,
  extractFieldKeyPlugin,
  extractFieldValuePlugin,
  filterPlugin,
  headerFromKeyPlugin,
  headerFromValuePlugin,
  hoistFieldKeyPlugin,
  hoistFieldValuePlugin,
  insertFieldKeyPlugin,
  insertFieldValuePlugin,
  insertHeaderPlugin,
  maskFieldKeyPlugin,
  maskFieldValuePlugin,
  replaceFieldKeyPlugin,
  replaceFieldValuePlugin,
  setSchemaMetadataKeyPlugin,
  setSchemaMetadataValuePlugin,
  timestampConverterKeyPlugin,
  timestampConverterValuePlugin,
  timestampRouterPlugin,
  valueToKeyPlugin,
];

export const PREDICATE_PLUGINS: readonly PredicatePlugin[] = [hasHeaderKeyPlugin, recordIsTombstonePlugin, topicNameMatchesPlugin];

const simpleName = (cls: string) => cls.split('.').pop();

export function findTransform(cls: string): TransformPlugin | undefined {
  const n = cls.trim();
  return TRANSFORM_PLUGINS.find((p) => p.class === n || simpleName(p.class) === n || p.aliases?.includes(n));
}

export function findPredicate(cls: string): PredicatePlugin | undefined {
  const n = cls.trim();
  return PREDICATE_PLUGINS.find((p) => p.class === n || simpleName(p.class) === n);
}

/** The abstract classes whose $Key/$Value subclasses are the plugins (ExtractField, Cast, …). */
const ABSTRACT_BASES = new Map<string, string[]>();
for (const p of TRANSFORM_PLUGINS) {
  const m = /^(.*)\$(Key|Value)$/.exec(p.class);
  if (m) ABSTRACT_BASES.set(m[1]!, [...(ABSTRACT_BASES.get(m[1]!) ?? []), p.class].sort((a, b) => (a.endsWith('$Key') ? -1 : b.endsWith('$Key') ? 1 : 0)));
}

function aliases(config: Record<string, string>, listKey: 'transforms' | 'predicates'): string[] {
  try {
    return parseType(listKey, config[listKey], 'LIST') as string[] | null ?? [];
  } catch {
    return [];
  }
}

export function transformAliases(config: Record<string, string>): string[] {
  return aliases(config, 'transforms').filter(Boolean);
}

export function predicateAliases(config: Record<string, string>): string[] {
  return aliases(config, 'predicates').filter(Boolean);
}

function subConfig(config: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v;
  return out;
}

/**
 * ConnectorConfig.enrich's checks of `transforms`/`predicates` and everything under them.
 * Note that Kafka 3.9 does not check here that a transform's `predicate` names a configured
 * predicate: that fails when the task is built (see transformChain).
 */
export function validateTransforms(config: Record<string, string>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (k: string, msgs: string[]) => {
    if (msgs.length) (errors[k] ??= []).push(...msgs);
  };
  for (const kind of ['transforms', 'predicates'] as const) {
    const list = aliases(config, kind);
    if (new Set(list).size < list.length) add(kind, [ConfigException.invalid(kind, list, 'Duplicate alias provided.').message]);
    for (const alias of new Set(list)) {
      const prefix = `${kind}.${alias}.`;
      const typeKey = `${prefix}type`;
      const msgs: string[] = [];
      const cls = config[typeKey];
      const transform = kind === 'transforms' && cls !== undefined ? findTransform(cls) : undefined;
      const predicate = kind === 'predicates' && cls !== undefined ? findPredicate(cls) : undefined;
      const otherKind = cls === undefined ? undefined : kind === 'transforms' ? findPredicate(cls) : findTransform(cls);
      const abstractBase = cls === undefined ? undefined : ABSTRACT_BASES.get(cls.trim());
      let known = false;
      if (cls === undefined) msgs.push(`Missing required configuration "${typeKey}" which has no default value.`);
      else if (!transform && !predicate && !otherKind && !abstractBase) msgs.push(`Invalid value ${cls} for configuration ${typeKey}: Class ${cls} could not be found.`);
      else known = true;
      // the type key's validator: validateProps, then the class's ConfigDef (its first failure only)
      if (kind === 'transforms' && Object.prototype.hasOwnProperty.call(config, `${prefix}negate`) && !Object.prototype.hasOwnProperty.call(config, `${prefix}predicate`)) {
        msgs.push(`Config '${prefix}negate' was provided but there is no config '${prefix}predicate' defining a predicate to be negated.`);
      } else if (known && abstractBase) {
        msgs.push(`This class is abstract and cannot be created. Did you mean ${abstractBase.join(', ')}?`);
      } else if (known && otherKind) {
        msgs.push(`Class class ${otherKind.class} does not implement the ${kind === 'transforms' ? 'Transformation' : 'Predicate'} interface`);
      }
      add(typeKey, msgs);
      const plugin = transform ?? predicate;
      if (!plugin) continue;
      const sub = subConfig(config, prefix);
      if (kind === 'transforms') {
        // the implicit keys every transformation has
        if (sub.negate !== undefined) {
          try {
            parseType(`${prefix}negate`, sub.negate, 'BOOLEAN');
          } catch (err) {
            add(`${prefix}negate`, [(err as Error).message]);
          }
        }
        delete sub.predicate;
        delete sub.negate;
      }
      const perKey = transform && !transform.prefixAware ? legacyValidate(transform, sub, prefix) : plugin.validate(sub, prefix);
      for (const [k, m] of Object.entries(perKey)) add(prefix + k, m);
    }
  }
  return errors;
}

/** Plugins written before prefix-aware validation name the key inside their messages without the prefix. */
function legacyValidate(plugin: TransformPlugin, sub: Record<string, string>, prefix: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, msgs] of Object.entries(plugin.validate(sub))) {
    out[k] = msgs.map((m) => m.replace(`for configuration ${k}`, `for configuration ${prefix}${k}`).replace(`configuration "${k}"`, `configuration "${prefix}${k}"`));
  }
  return out;
}

type Stage = (record: ConnectRecord) => ConnectRecord | null;

/** Java's Throwable.toString of an error a plugin's configure() threw. */
function throwableText(err: unknown): string {
  const e = err as Error & { javaClass?: string };
  return `${e.javaClass ?? 'java.lang.RuntimeException'}: ${e.message}`;
}

/** ConnectorConfig.transformationStages: the stages, or the ConnectException it throws. */
function stages(config: Record<string, string>): Stage[] {
  const predicateNames = new Set(predicateAliases(config));
  return transformAliases(config).map((alias) => {
    const prefix = `transforms.${alias}.`;
    try {
      const plugin = findTransform(config[`${prefix}type`] ?? '');
      if (!plugin) throw new ConfigException(`Unknown configuration '${prefix}type'`);
      const sub = subConfig(config, prefix);
      const predicateAlias = sub.predicate;
      const negateText = sub.negate;
      delete sub.predicate;
      delete sub.negate;
      const t: Transformation = plugin.create(sub);
      if (predicateAlias === undefined) return (r: ConnectRecord) => t.apply(r);
      const predicatePrefix = `predicates.${predicateAlias}.`;
      // only listed predicates have a type key in the enriched config
      const p = predicateNames.has(predicateAlias) ? findPredicate(config[`${predicatePrefix}type`] ?? '') : undefined;
      if (!p) throw new ConfigException(`Unknown configuration '${predicatePrefix}type'`);
      const predicate: Predicate = p.create(subConfig(config, predicatePrefix));
      const negate = negateText !== undefined && negateText.toLowerCase() === 'true';
      return (r: ConnectRecord) => (negate !== predicate.test(r) ? t.apply(r) : r);
    } catch (err) {
      throw new ConnectException(throwableText(err));
    }
  });
}

/**
 * The chain of a validated config, built once: `apply` runs it; `error` says why it cannot be
 * built (a configure() check such as InsertField's "No field insertion configured", or a
 * predicate alias that is not configured), as the ConnectException text Kafka fails the task
 * with, and null when it builds. A chain that cannot be built throws that error on every record.
 */
export function transformChain(config: Record<string, string>): { apply: (record: ConnectRecord) => ConnectRecord | null; error: string | null } {
  let chain: Stage[];
  try {
    chain = stages(config);
  } catch (err) {
    const failure = err as Error;
    return {
      apply: () => {
        throw failure;
      },
      error: failure.message,
    };
  }
  return {
    apply: (record) => {
      let r: ConnectRecord | null = record;
      for (const t of chain) {
        if (!r) return null;
        r = t(r);
      }
      return r;
    },
    error: null,
  };
}

/** Why the chain of a config cannot be built, or null (see transformChain). */
export function transformChainError(config: Record<string, string>): string | null {
  return transformChain(config).error;
}

/** The chain's apply (see transformChain). */
export function buildTransformChain(config: Record<string, string>): (record: ConnectRecord) => ConnectRecord | null {
  return transformChain(config).apply;
}
