/**
 * org.apache.kafka.connect.transforms.ReplaceField$Key / $Value (Kafka 3.9): keeps `include`
 * (all when empty) minus `exclude`, then renames (`old:new`). The deprecated `whitelist` and
 * `blacklist` stand in for include/exclude when those are not set (ConfigUtils.translateDeprecatedConfigs).
 */
import { DataException, type Schema } from '../plugin.js';
import { ConfigException, key, replaceNullWithDefaultKey } from './config-def.js';
import { asField, checkPut, copySchemaBasics, findField, putEntry, requireMap, requireStruct, structGet, type Side } from './connect-data.js';
import { keyValueTransforms, sideTransformation } from './kafka-plugin.js';

const PURPOSE = 'field replacement';

/** ReplaceField.parseRenameMappings (String.split(":") drops trailing empty strings). */
export function parseRenameMappings(mappings: string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const mapping of mappings) {
    const parts = javaSplitColon(mapping);
    if (parts.length !== 2) throw ConfigException.invalid('renames', mappings, 'Invalid rename mapping: ' + mapping);
    m.set(parts[0]!, parts[1]!);
  }
  return m;
}

/** String.split(":"): trailing empty strings removed; an empty string gives [""]. */
export function javaSplitColon(s: string): string[] {
  if (s === '') return [''];
  const parts = s.split(':');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const SPECS = [
  key('exclude', 'LIST', [], 'MEDIUM', 'Fields to exclude. This takes precedence over the fields to include.'),
  key('blacklist', 'LIST', null, 'LOW', 'Deprecated. Use exclude instead.'),
  key('include', 'LIST', [], 'MEDIUM', 'Fields to include. If specified, only these fields will be used.'),
  key('whitelist', 'LIST', null, 'LOW', 'Deprecated. Use include instead.'),
  key('renames', 'LIST', [], 'MEDIUM', 'Field rename mappings.', (_name, value) => {
    parseRenameMappings(value as string[]);
  }),
  replaceNullWithDefaultKey(),
];

export const [replaceFieldKeyPlugin, replaceFieldValuePlugin] = keyValueTransforms('org.apache.kafka.connect.transforms.ReplaceField', SPECS, (c, side: Side) => {
  // configure() parses the translated props: a deprecated key counts only when its successor is absent
  const list = (target: string, deprecated: string): string[] => ((c[target] as string[]).length || !c[deprecated] ? (c[target] as string[]) : (c[deprecated] as string[]));
  return make(side, list('exclude', 'blacklist'), list('include', 'whitelist'), parseRenameMappings(c.renames as string[]), c['replace.null.with.default'] as boolean);
});

function make(side: Side, excludeList: string[], includeList: string[], renames: Map<string, string>, replaceNullWithDefault: boolean) {
  const exclude = new Set(excludeList);
  const include = new Set(includeList);
  const reverse = new Map([...renames].map(([k, v]) => [v, k]));
  const filter = (name: string) => !exclude.has(name) && (include.size === 0 || include.has(name));
  const renamed = (name: string) => renames.get(name) ?? name;
  const cache = new WeakMap<Schema, Schema>();
  const updatedSchema = (schema: Schema): Schema => {
    let s = cache.get(schema);
    if (!s) {
      s = { ...copySchemaBasics(schema), fields: (schema.fields ?? []).filter((f) => filter(f.field!)).map((f) => asField(renamed(f.field!), f)) };
      cache.set(schema, s);
    }
    return s;
  };
  return sideTransformation(
    side,
    (value, record) => {
      const map = requireMap(value, PURPOSE);
      const updated: Record<string, unknown> = {};
      for (const k of Object.keys(map)) if (filter(k)) putEntry(updated, renamed(k), map[k]);
      return side.with(record, null, updated);
    },
    (value, schema, record) => {
      const struct = requireStruct(value, schema, PURPOSE);
      const newSchema = updatedSchema(schema);
      const updated: Record<string, unknown> = {};
      for (const f of newSchema.fields!) {
        const orig = reverse.get(f.field!) ?? f.field!;
        const source = findField(schema, orig);
        // Struct.get of a name the old schema lacks throws (DataException "<name> is not a valid field name")
        if (!source) throw new DataException(`${orig} is not a valid field name`);
        updated[f.field!] = checkPut(f, structGet(struct, source, replaceNullWithDefault));
      }
      return side.with(record, newSchema, updated);
    },
  );
}
