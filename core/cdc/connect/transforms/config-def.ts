/**
 * The part of Kafka's ConfigDef (clients, tag 3.9.0-rc3) that transformation and predicate
 * configs go through: parseType, the validators the built-in SMTs use, validateAll as
 * ConnectorConfig.enrich embeds a plugin's ConfigDef under `transforms.<alias>.`, and
 * SimpleConfig for configure().
 *
 * Names in messages follow where Kafka builds them: parse errors and "Missing required" use the
 * full (prefixed) name, but a validator sees the name with the prefix taken off
 * (ConfigDef.embeddedValidator), so its "Invalid value … for configuration <key>" is unprefixed.
 */
import { ConnectException, type ConfigKeyDef, type ConfigType } from '../plugin.js';
import { def } from './transformation.js';

/** org.apache.kafka.common.config.ConfigException. */
export class ConfigException extends ConnectException {
  constructor(message: string) {
    super(message, 'org.apache.kafka.common.config.ConfigException');
    this.name = 'ConfigException';
  }
  /** ConfigException(name, value, message): "Invalid value <value> for configuration <name>: <message>". */
  static invalid(name: string, value: unknown, message: string | null): ConfigException {
    return new ConfigException(`Invalid value ${javaString(value)} for configuration ${name}${message === null ? '' : ': ' + message}`);
  }
}

/** String.valueOf for the values a config can hold (a List prints as `[a, b]`). */
export function javaString(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(javaString).join(', ')}]`;
  return String(value);
}

/** Java's String.trim: strips code points up to U+0020 from both ends. */
function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
  return s.slice(a, b);
}

export const NO_DEFAULT = Symbol('NO_DEFAULT_VALUE');

export type Validator = (name: string, value: unknown) => void;

export interface KeySpec {
  name: string;
  type: ConfigType;
  /** Parsed default (a list is an array), null, or NO_DEFAULT. */
  default: unknown;
  importance: ConfigKeyDef['importance'];
  documentation: string;
  validator?: Validator;
}

export function key(name: string, type: ConfigType, dflt: unknown, importance: ConfigKeyDef['importance'], documentation: string, validator?: Validator): KeySpec {
  return { name, type, default: dflt, importance, documentation, ...(validator ? { validator } : {}) };
}

const COMMA_WITH_WHITESPACE = /\s*,\s*/;

/** ConfigDef.parseType for a string property. */
export function parseType(name: string, value: string | undefined | null, type: ConfigType): unknown {
  if (value === null || value === undefined) return null;
  const trimmed = javaTrim(value);
  switch (type) {
    case 'BOOLEAN':
      if (trimmed.toLowerCase() === 'true') return true;
      if (trimmed.toLowerCase() === 'false') return false;
      throw ConfigException.invalid(name, value, 'Expected value to be either true or false');
    case 'STRING':
    case 'PASSWORD':
    case 'CLASS':
      return trimmed;
    case 'INT':
    case 'SHORT':
    case 'LONG': {
      const bits = type === 'INT' ? 31 : type === 'SHORT' ? 15 : 63;
      if (!/^[+-]?[0-9]+$/.test(trimmed)) throw ConfigException.invalid(name, value, `Not a number of type ${type}`);
      const n = BigInt(trimmed);
      if (n < -(1n << BigInt(bits)) || n >= 1n << BigInt(bits)) throw ConfigException.invalid(name, value, `Not a number of type ${type}`);
      return Number(n);
    }
    case 'DOUBLE': {
      const n = Number(trimmed);
      if (trimmed === '' || Number.isNaN(n)) throw ConfigException.invalid(name, value, 'Not a number of type DOUBLE');
      return n;
    }
    case 'LIST':
      return trimmed === '' ? [] : trimmed.split(COMMA_WITH_WHITESPACE);
  }
}

// ------------------------------------------------------------------------ validators

/** org.apache.kafka.connect.transforms.util.NonEmptyListValidator */
export const nonEmptyList: Validator = (name, value) => {
  if (value === null || (value as unknown[]).length === 0) throw ConfigException.invalid(name, value, 'Empty list');
};

/** ConfigDef.NonEmptyString: null passes. */
export const nonEmptyString: Validator = (name, value) => {
  if (value === '') throw ConfigException.invalid(name, value, 'String must be non-empty');
};

/** ConfigDef.NonNullValidator: the value printed is the string "null". */
export const nonNull: Validator = (name, value) => {
  if (value === null) throw ConfigException.invalid(name, 'null', 'entry must be non null');
};

/** ConfigDef.ValidString.in */
export function validString(...options: string[]): Validator {
  return (name, value) => {
    if (!options.includes(value as string)) throw ConfigException.invalid(name, value, `String must be one of: ${options.join(', ')}`);
  };
}

/** ConfigDef.CaseInsensitiveValidString.in */
export function caseInsensitiveValidString(...options: string[]): Validator {
  return (name, value) => {
    if (typeof value !== 'string' || !options.includes(value.toUpperCase())) throw ConfigException.invalid(name, value, `String must be one of (case insensitive): ${options.join(', ')}`);
  };
}

export function composite(...validators: Validator[]): Validator {
  return (name, value) => {
    for (const v of validators) v(name, value);
  };
}

// ------------------------------------------------------------------------ validate / configure

/**
 * ConfigDef.validateAll over an embedded ConfigDef: errors per key relative to the plugin
 * (`regex`), with Kafka's messages (see the module comment for which name each one carries).
 */
export function validateKeys(specs: readonly KeySpec[], config: Record<string, string>, prefix: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const spec of specs) {
    const msgs: string[] = [];
    const full = prefix + spec.name;
    let value: unknown = null;
    if (Object.prototype.hasOwnProperty.call(config, spec.name)) {
      try {
        value = parseType(full, config[spec.name], spec.type);
      } catch (err) {
        msgs.push((err as Error).message);
      }
    } else if (spec.default === NO_DEFAULT) {
      msgs.push(`Missing required configuration "${full}" which has no default value.`);
    } else value = spec.default;
    if (spec.validator) {
      try {
        spec.validator(spec.name, value);
      } catch (err) {
        if (!(err instanceof ConfigException)) throw err;
        msgs.push(err.message);
      }
    }
    if (msgs.length) errors[spec.name] = msgs;
  }
  return errors;
}

/** SimpleConfig(CONFIG_DEF, props): parsed values, or the first ConfigException (as AbstractConfig throws it). */
export function parseConfig(specs: readonly KeySpec[], config: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    let value: unknown;
    if (Object.prototype.hasOwnProperty.call(config, spec.name)) value = parseType(spec.name, config[spec.name], spec.type);
    else if (spec.default === NO_DEFAULT) throw new ConfigException(`Missing required configuration "${spec.name}" which has no default value.`);
    else value = spec.default;
    spec.validator?.(spec.name, value);
    out[spec.name] = value;
  }
  return out;
}

/** ConfigDef.convertToString of a default, as ConfigKeyInfo shows it. */
function defaultText(spec: KeySpec): string | null {
  if (spec.default === NO_DEFAULT || spec.default === null || spec.default === undefined) return null;
  if (Array.isArray(spec.default)) return spec.default.join(',');
  return String(spec.default);
}

/** The ConfigKeyInfo rows (AbstractHerder.convertConfigKey) of a ConfigDef. */
export function configKeyDefs(specs: readonly KeySpec[]): ConfigKeyDef[] {
  return specs.map((s) => def(s.name, s.type, defaultText(s), s.importance, s.documentation, { required: s.default === NO_DEFAULT }));
}

/** Text for replace.null.with.default, shared by most SMTs. */
export const REPLACE_NULL_WITH_DEFAULT_DOC = 'Whether to replace fields that have a default value and that are null to the default value. When set to true, the default value is used, otherwise null is used.';
export const replaceNullWithDefaultKey = (): KeySpec => key('replace.null.with.default', 'BOOLEAN', true, 'MEDIUM', REPLACE_NULL_WITH_DEFAULT_DOC);
