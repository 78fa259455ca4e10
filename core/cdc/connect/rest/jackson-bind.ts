/**
 * Request bodies read as Kafka Connect's JacksonJsonProvider reads them (Jackson 2.16, default
 * ObjectMapper): the first JSON value only (trailing text is ignored), numbers kept as written
 * when bound to String, unknown properties rejected, and every binding failure reported with
 * Jackson's message, location and reference chain. ConnectExceptionMapper turns those into a 500,
 * so the texts reach the client verbatim. Syntax errors come from jackson-errors.ts.
 */
import { ConnectError } from '../errors.js';
import { jacksonParseError } from './jackson-errors.js';
import { JACKSON_SOURCE as SOURCE, JsonCursor } from './json-cursor.js';

const ENTITIES = 'org.apache.kafka.connect.runtime.rest.entities';
const STRING_MAP = 'java.util.LinkedHashMap<java.lang.String,java.lang.String>';
const OBJECT_MAP = 'java.util.LinkedHashMap<java.lang.String,java.lang.Object>';

interface Pos {
  line: number;
  col: number;
}

export type JsonNode = Pos &
  (
    | { kind: 'object'; entries: { key: string; value: JsonNode }[]; end: Pos }
    | { kind: 'array'; items: JsonNode[] }
    | { kind: 'string'; value: string }
    | { kind: 'number'; raw: string }
    | { kind: 'true' | 'false' | 'null' }
  );

/** The first JSON value of `text`, or null for an empty body (the provider's ALLOW_EMPTY_INPUT). */
export function parseBody(text: string): JsonNode | null {
  if (text.trim() === '') return null;
  const syntax = jacksonParseError(text);
  if (syntax !== null) throw new ConnectError(500, syntax);
  const cur = new JsonCursor(text);
  const str = (): string => {
    const start = cur.i;
    cur.adv();
    while (cur.ch !== '"') {
      if (cur.ch === '\\') cur.adv();
      cur.adv();
    }
    cur.adv();
    return JSON.parse(text.slice(start, cur.i)) as string;
  };
  const value = (): JsonNode => {
    cur.ws();
    const at = { line: cur.line, col: cur.col };
    const c = cur.ch!;
    if (c === '{') {
      cur.adv();
      const entries: { key: string; value: JsonNode }[] = [];
      cur.ws();
      while (cur.ch !== '}') {
        cur.ws();
        const key = str();
        cur.ws();
        cur.adv();
        entries.push({ key, value: value() });
        cur.ws();
        if (cur.ch === ',') cur.adv();
        cur.ws();
      }
      cur.adv();
      return { kind: 'object', entries, end: { line: cur.line, col: cur.col }, ...at };
    }
    if (c === '[') {
      cur.adv();
      const items: JsonNode[] = [];
      cur.ws();
      while (cur.ch !== ']') {
        items.push(value());
        cur.ws();
        if (cur.ch === ',') cur.adv();
        cur.ws();
      }
      cur.adv();
      return { kind: 'array', items, ...at };
    }
    if (c === '"') return { kind: 'string', value: str(), ...at };
    const m = /^(?:true|false|null|-?[0-9][-+0-9.eE]*)/.exec(text.slice(cur.i))![0];
    for (let k = 0; k < m.length; k++) cur.adv();
    return m === 'true' || m === 'false' || m === 'null' ? { kind: m, ...at } : { kind: 'number', raw: m, ...at };
  };
  return value();
}

function fail(message: string, at: Pos, chain?: string): never {
  throw new ConnectError(500, `${message}\n at [Source: ${SOURCE}; line: ${at.line}, column: ${at.col}]${chain ? ` (through reference chain: ${chain})` : ''}`);
}

function isFloat(n: JsonNode & { kind: 'number' }): boolean {
  return /[.eE]/.test(n.raw);
}

/** Jackson's names for the token a value starts with. */
function token(n: JsonNode): string {
  switch (n.kind) {
    case 'object':
      return 'Object value (token `JsonToken.START_OBJECT`)';
    case 'array':
      return 'Array value (token `JsonToken.START_ARRAY`)';
    case 'string':
      return 'String value (token `JsonToken.VALUE_STRING`)';
    case 'number':
      return isFloat(n) ? 'Floating-point value (token `JsonToken.VALUE_NUMBER_FLOAT`)' : 'Integer value (token `JsonToken.VALUE_NUMBER_INT`)';
    case 'true':
      return 'Boolean value (token `JsonToken.VALUE_TRUE`)';
    case 'false':
      return 'Boolean value (token `JsonToken.VALUE_FALSE`)';
    default:
      return 'Null value (token `JsonToken.VALUE_NULL`)';
  }
}

function tokenLength(n: JsonNode): number {
  switch (n.kind) {
    case 'number':
      return n.raw.length;
    case 'true':
    case 'null':
      return 4;
    case 'false':
      return 5;
    default:
      return 1;
  }
}

const mismatch = (type: string, n: JsonNode, chain?: string): never => fail(`Cannot deserialize value of type \`${type}\` from ${token(n)}`, n, chain);

/** A scalar bound to java.lang.String: numbers as written, booleans as words. */
function scalarString(n: JsonNode, chain: string): string | null {
  switch (n.kind) {
    case 'null':
      return null;
    case 'string':
      return n.value;
    case 'number':
      return n.raw;
    case 'true':
    case 'false':
      return n.kind;
    default:
      return mismatch('java.lang.String', n, chain);
  }
}

/** Map<String,String> (connector configs, config patches, logger levels). */
export function bindStringMap(n: JsonNode | null, chain = ''): Record<string, string | null> | null {
  if (n === null || n.kind === 'null') return null;
  if (n.kind === 'string') {
    if (n.value === '') fail('Cannot coerce empty String ("") to element of `java.util.LinkedHashMap` (but could if coercion was enabled using `CoercionConfig`)', n, chain || undefined);
    fail(`Cannot construct instance of \`java.util.LinkedHashMap\` (although at least one Creator exists): no String-argument constructor/factory method to deserialize from String value ('${n.value}')`, n, chain || undefined);
  }
  if (n.kind !== 'object') return mismatch(STRING_MAP, n, chain || undefined);
  const out: Record<string, string | null> = {};
  for (const e of n.entries) out[e.key] = scalarString(e.value, `${chain ? `${chain}->` : ''}java.util.LinkedHashMap["${e.key}"]`);
  return out;
}

/** A Jackson bean with a properties-based creator: the first unknown property fails once the object is read. */
function bean(cls: string, known: string[], n: JsonNode, chain: string): Map<string, JsonNode> {
  if (n.kind === 'array') mismatch(`${ENTITIES}.${cls}`, n, chain || undefined);
  if (n.kind !== 'object') {
    const fq = `${ENTITIES}.${cls}`;
    const pre = `Cannot construct instance of \`${fq}\` (although at least one Creator exists): `;
    if (n.kind === 'string') fail(`${pre}no String-argument constructor/factory method to deserialize from String value ('${n.value}')`, n, chain || undefined);
    if (n.kind === 'number' && !isFloat(n)) fail(`${pre}no int/Int-argument constructor/factory method to deserialize from Number value (${n.raw})`, n, chain || undefined);
    if (n.kind === 'true' || n.kind === 'false') fail(`${pre}no boolean/Boolean-argument constructor/factory method to deserialize from boolean value (${n.kind})`, n, chain || undefined);
    fail(`${pre}no double/Double-argument constructor/factory method to deserialize from Number value (${n.kind === 'number' ? n.raw : ''})`, n, chain || undefined);
  }
  const props = new Map<string, JsonNode>();
  const unrecognized = (key: string, at: Pos): never => {
    const list = known.length === 1 ? `one known property: "${known[0]}"` : `${known.length} known properties: ${known.map((k) => `"${k}"`).join(', ')}`;
    return fail(`Unrecognized field "${key}" (class ${ENTITIES}.${cls}), not marked as ignorable (${list}])`, at, `${chain ? `${chain}->` : ''}${ENTITIES}.${cls}["${key}"]`);
  };
  let deferred: string | undefined;
  for (const e of n.entries) {
    if (known.includes(e.key)) {
      props.set(e.key, e.value);
      continue;
    }
    // Until every creator property has been read, Jackson buffers the rest of the object and
    // reports the first unknown field once the object is closed. After that it has built the
    // bean and fails on the spot, where the parser stands: past a scalar value, or just past the
    // opening character of a string, object or array.
    if (deferred === undefined && props.size === known.length) unrecognized(e.key, { line: e.value.line, col: e.value.col + tokenLength(e.value) });
    deferred ??= e.key;
  }
  if (deferred !== undefined) unrecognized(deferred, n.end);
  return props;
}

export interface CreateConnectorBody {
  name: string | null;
  config: Record<string, string | null> | null;
  initialState: 'RUNNING' | 'PAUSED' | 'STOPPED' | null;
}

/** CreateConnectorRequest, whose InitialState.forValue upper-cases the text and calls valueOf. */
export function bindCreateConnectorRequest(n: JsonNode | null): CreateConnectorBody | null {
  if (n === null || n.kind === 'null') return null;
  const self = `${ENTITIES}.CreateConnectorRequest`;
  // Jackson lists the known properties in this order in its message.
  const p = bean('CreateConnectorRequest', ['config', 'name', 'initial_state'], n, '');
  const nameNode = p.get('name');
  const name = nameNode ? scalarString(nameNode, `${self}["name"]`) : null;
  const cfg = p.get('config');
  const config = cfg ? bindStringMap(cfg, `${self}["config"]`) : null;
  const st = p.get('initial_state');
  let initialState: CreateConnectorBody['initialState'] = null;
  if (st && st.kind !== 'null') {
    const chain = `${self}["initial_state"]`;
    const enumName = `${self}$InitialState`;
    if (st.kind === 'object' || st.kind === 'array') {
      fail(
        `Input mismatch reading Enum \`${enumName}\`: properties-based \`@JsonCreator\` ([method ${enumName}#forValue(java.lang.String)]) expects String Value, got ${st.kind === 'object' ? 'Object value (`JsonToken.START_OBJECT`)' : 'Array value (`JsonToken.START_ARRAY`)'}`,
        st,
        chain,
      );
    }
    const text = (scalarString(st, chain) ?? '').toUpperCase();
    if (text !== 'RUNNING' && text !== 'PAUSED' && text !== 'STOPPED') {
      fail(`Cannot construct instance of \`${enumName}\`, problem: No enum constant ${self}.InitialState.${text}`, st, chain);
    }
    initialState = text;
  }
  return { name, config, initialState };
}

export interface OffsetEntry {
  partition: Record<string, unknown> | null;
  offset: Record<string, unknown> | null;
}

function plain(n: JsonNode): unknown {
  switch (n.kind) {
    case 'object':
      return Object.fromEntries(n.entries.map((e) => [e.key, plain(e.value)]));
    case 'array':
      return n.items.map(plain);
    case 'string':
      return n.value;
    case 'number':
      return Number(n.raw);
    case 'null':
      return null;
    default:
      return n.kind === 'true';
  }
}

function objectMap(n: JsonNode, chain: string): Record<string, unknown> | null {
  if (n.kind === 'null') return null;
  if (n.kind !== 'object') return mismatch(OBJECT_MAP, n, chain);
  return plain(n) as Record<string, unknown>;
}

/** ConnectorOffsets: {"offsets": [{"partition": {...}, "offset": {...}}]}; null when the body is empty. */
export function bindConnectorOffsets(n: JsonNode | null): { offsets: OffsetEntry[] | null } | null {
  if (n === null || n.kind === 'null') return null;
  const self = `${ENTITIES}.ConnectorOffsets`;
  const p = bean('ConnectorOffsets', ['offsets'], n, '');
  const list = p.get('offsets');
  if (!list || list.kind === 'null') return { offsets: null };
  const listChain = `${self}["offsets"]`;
  if (list.kind !== 'array') return mismatch(`java.util.ArrayList<${ENTITIES}.ConnectorOffset>`, list, listChain);
  const offsets = list.items.map((item, idx): OffsetEntry => {
    const chain = `${listChain}->java.util.ArrayList[${idx}]`;
    if (item.kind === 'null') return null as unknown as OffsetEntry;
    const q = bean('ConnectorOffset', ['partition', 'offset'], item, chain);
    const at = (k: string) => `${chain}->${ENTITIES}.ConnectorOffset["${k}"]`;
    const part = q.get('partition');
    const off = q.get('offset');
    return { partition: part ? objectMap(part, at('partition')) : null, offset: off ? objectMap(off, at('offset')) : null };
  });
  return { offsets };
}

/**
 * The task configs InternalClusterResource reads with a plain ObjectMapper (List<Map<String,String>>
 * from the raw bytes): unlike the provider, it refuses an empty body.
 */
export function bindTaskConfigs(text: string): (Record<string, string | null> | null)[] | null {
  if (text.trim() === '') throw new ConnectError(500, `No content to map due to end-of-input\n at [Source: ${SOURCE}; line: 1]`);
  const n = parseBody(text)!;
  if (n.kind === 'null') return null;
  if (n.kind !== 'array') return mismatch('java.util.ArrayList<java.util.Map<java.lang.String,java.lang.String>>', n);
  return n.items.map((item, i) => bindStringMap(item, `java.util.ArrayList[${i}]`));
}
