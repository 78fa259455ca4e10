/**
 * org.apache.kafka.connect.transforms.RegexRouter: if the regex matches the WHOLE topic name
 * (Java's Matcher.matches()), the topic becomes Matcher.replaceFirst(replacement) — `$n` and
 * `${name}` are group references, `\` escapes the next character. Otherwise the record passes
 * unchanged. So `$3` needs a regex such as `([^.]+)\.([^.]+)\.([^.]+)`.
 */
import { DataException, type ConnectRecord } from '../plugin.js';
import { def, type TransformPlugin, type Transformation } from './transformation.js';

export const REGEX_ROUTER_CLASS = 'org.apache.kafka.connect.transforms.RegexRouter';

/** Compiles a Java-style regex; throws with the reason when JavaScript cannot. */
export function compileJavaRegex(source: string): RegExp {
  // Java's possessive quantifiers and \A, \Z, \z anchors have close JS equivalents.
  const js = source.replace(/\\A/g, '^').replace(/\\[zZ]/g, '$');
  return new RegExp(`^(?:${js})$`, 'u');
}

/** Java's Matcher.appendReplacement rules applied to one match. */
export function javaReplacement(replacement: string, m: RegExpExecArray): string {
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === '\\') {
      i++;
      if (i >= replacement.length) throw new DataException('character to be escaped is missing');
      out += replacement[i];
    } else if (c === '$') {
      i++;
      if (i >= replacement.length) throw new DataException('Illegal group reference: group index is missing');
      if (replacement[i] === '{') {
        const end = replacement.indexOf('}', i);
        if (end < 0) throw new DataException("named capturing group is missing trailing '}'");
        const name = replacement.slice(i + 1, end);
        if (!m.groups || !(name in m.groups)) throw new DataException(`No group with name {${name}}`);
        out += m.groups[name] ?? '';
        i = end;
      } else {
        if (!/[0-9]/.test(replacement[i]!)) throw new DataException('Illegal group reference');
        // Java takes further digits while the number stays a valid group.
        let n = Number(replacement[i]);
        while (i + 1 < replacement.length && /[0-9]/.test(replacement[i + 1]!) && n * 10 + Number(replacement[i + 1]) < m.length) {
          n = n * 10 + Number(replacement[++i]);
        }
        if (n >= m.length) throw new DataException(`No group ${n}`);
        out += m[n] ?? '';
      }
    } else out += c;
  }
  return out;
}

export const regexRouterPlugin: TransformPlugin = {
  class: REGEX_ROUTER_CLASS,
  version: '3.9.0',
  configDefs: [def('regex', 'STRING', null, 'HIGH', 'Regular expression to use for matching.'), def('replacement', 'STRING', null, 'HIGH', 'Replacement string.')],
  validate(config) {
    const errors: Record<string, string[]> = {};
    if (config.regex === undefined) errors.regex = ['Missing required configuration "regex" which has no default value.'];
    else {
      try {
        compileJavaRegex(config.regex);
      } catch (err) {
        errors.regex = [`Invalid value ${config.regex} for configuration regex: Invalid regex: ${(err as Error).message}`];
      }
    }
    if (config.replacement === undefined) errors.replacement = ['Missing required configuration "replacement" which has no default value.'];
    return errors;
  },
  create(config): Transformation {
    const re = compileJavaRegex(config.regex ?? '');
    const replacement = config.replacement ?? '';
    // The new name depends only on the topic: worked out once per topic (null: no match).
    const routes = new Map<string, string | null>();
    const route = (topic: string): string | null => {
      const m = re.exec(topic);
      const to = m ? javaReplacement(replacement, m) : null;
      if (routes.size < 10_000) routes.set(topic, to);
      return to;
    };
    return {
      apply<R extends ConnectRecord>(record: R): R | null {
        const cached = routes.get(record.topic);
        const to = cached === undefined ? route(record.topic) : cached;
        if (to === null) return record;
        return { ...record, topic: to };
      },
    };
  },
};
