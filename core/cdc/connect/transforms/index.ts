/**
 * The transformation chain of a connector: `transforms=a,b` with `transforms.a.type=<class>` and
 * `transforms.a.<key>=…`. Validation errors are reported under the full key
 * (`transforms.a.regex`), as Kafka Connect's enriched ConfigDef does.
 */
import type { ConnectRecord } from '../plugin.js';
import { extractNewRecordStatePlugin } from './extract-new-record-state.js';
import { flattenKeyPlugin, flattenValuePlugin } from './flatten.js';
import { regexRouterPlugin } from './regex-router.js';
import type { TransformPlugin, Transformation } from './transformation.js';

export type { TransformPlugin, Transformation } from './transformation.js';

export const TRANSFORM_PLUGINS: readonly TransformPlugin[] = [extractNewRecordStatePlugin, regexRouterPlugin, flattenValuePlugin, flattenKeyPlugin];

export function findTransform(cls: string): TransformPlugin | undefined {
  const n = cls.trim();
  return TRANSFORM_PLUGINS.find((p) => p.class === n || p.class.split('.').pop() === n || p.aliases?.includes(n));
}

export function transformAliases(config: Record<string, string>): string[] {
  return (config.transforms ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function subConfig(config: Record<string, string>, alias: string): Record<string, string> {
  const prefix = `transforms.${alias}.`;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v;
  return out;
}

export function validateTransforms(config: Record<string, string>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const aliases = transformAliases(config);
  const seen = new Set<string>();
  for (const alias of aliases) {
    if (seen.has(alias)) {
      (errors.transforms ??= []).push(`Invalid value ${config.transforms} for configuration transforms: Duplicate alias provided.`);
      continue;
    }
    seen.add(alias);
    const typeKey = `transforms.${alias}.type`;
    const cls = config[typeKey];
    if (cls === undefined || cls.trim() === '') {
      errors[typeKey] = [`Missing required configuration "${typeKey}" which has no default value.`];
      continue;
    }
    const plugin = findTransform(cls);
    if (!plugin) {
      errors[typeKey] = [`Invalid value ${cls} for configuration ${typeKey}: Class ${cls} could not be found.`];
      continue;
    }
    for (const [k, msgs] of Object.entries(plugin.validate(subConfig(config, alias)))) {
      if (msgs.length) errors[`transforms.${alias}.${k}`] = msgs.map((m) => m.replace(`for configuration ${k}`, `for configuration transforms.${alias}.${k}`).replace(`configuration "${k}"`, `configuration "transforms.${alias}.${k}"`));
    }
  }
  return errors;
}

/** Builds the chain; call only with a validated config. */
export function buildTransformChain(config: Record<string, string>): (record: ConnectRecord) => ConnectRecord | null {
  const chain: Transformation[] = transformAliases(config).map((alias) => findTransform(config[`transforms.${alias}.type`]!)!.create(subConfig(config, alias)));
  return (record) => {
    let r: ConnectRecord | null = record;
    for (const t of chain) {
      if (!r) return null;
      r = t.apply(r);
    }
    return r;
  };
}
