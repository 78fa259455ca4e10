/** `_source` filtering: includes and excludes with `*` wildcards on dotted paths, as Elasticsearch applies them. */
import type { SourceFilter } from './ast.js';

type Json = Record<string, unknown>;

function toRegex(patterns: string[]): RegExp | undefined {
  if (patterns.length === 0) return undefined;
  return new RegExp('^(' + patterns.map((p) => p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')).join('|') + ')$');
}

export function filterSource(source: Json, filter: SourceFilter): Json | undefined {
  if (filter === false) return undefined;
  if (filter.includes.length === 0 && filter.excludes.length === 0) return source;
  const inc = toRegex(filter.includes);
  const exc = toRegex(filter.excludes);
  // a path is kept when it or a parent matches an include, or when it is a parent of one
  const includePrefixes = filter.includes.map((p) => p.split('*')[0]!);
  const walk = (obj: Json, prefix: string, included: boolean): Json => {
    const out: Json = {};
    for (const [k, v] of Object.entries(obj)) {
      const path = prefix ? `${prefix}.${k}` : k;
      if (exc?.test(path)) continue;
      const here = included || !inc || inc.test(path);
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const mayContain = here || includePrefixes.some((p) => p.startsWith(path + '.') || path.startsWith(p));
        if (!mayContain) continue;
        const sub = walk(v as Json, path, here);
        if (Object.keys(sub).length > 0 || here) out[k] = sub;
      } else if (here) out[k] = v;
    }
    return out;
  };
  return walk(source, '', false);
}
