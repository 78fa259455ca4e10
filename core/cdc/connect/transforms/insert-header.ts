/**
 * org.apache.kafka.connect.transforms.InsertHeader (Kafka 3.9): adds `header` with
 * `value.literal` to every record. Kafka parses the literal (Values.parseString) and the header
 * converter writes it back; for a JSON array or object that canonical form drops the spaces, for
 * anything else it is the literal itself.
 */
import type { ConnectRecord } from '../plugin.js';
import { parseExactJson } from '../../../common/exact-json.js';
import { headerText } from '../converters/header-text.js';
import { key, NO_DEFAULT, nonNull } from './config-def.js';
import { kafkaTransform, transformation } from './kafka-plugin.js';

const SPECS = [
  key('header', 'STRING', NO_DEFAULT, 'HIGH', 'The name of the header.', nonNull),
  key('value.literal', 'STRING', NO_DEFAULT, 'HIGH', 'The literal value that is to be set as the header value on all records.', nonNull),
];

/** Values.parseString then SimpleHeaderConverter, for the literals where the two differ. */
export function literalHeaderText(literal: string): string {
  const t = literal.trim();
  if ((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('{') && t.endsWith('}'))) {
    try {
      return headerText(parseExactJson(t)) ?? literal;
    } catch {
      return literal;
    }
  }
  return literal;
}

export const insertHeaderPlugin = kafkaTransform('org.apache.kafka.connect.transforms.InsertHeader', SPECS, (c) => {
  const header = c.header as string;
  const value = literalHeaderText(c['value.literal'] as string);
  return transformation((record: ConnectRecord) => ({ ...record, headers: [...(record.headers ?? []), { key: header, value }] }));
});
