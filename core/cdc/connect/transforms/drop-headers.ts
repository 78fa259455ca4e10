/** org.apache.kafka.connect.transforms.DropHeaders (Kafka 3.9): removes every header with one of the listed names. */
import type { ConnectRecord } from '../plugin.js';
import { key, NO_DEFAULT, nonEmptyList } from './config-def.js';
import { kafkaTransform, transformation } from './kafka-plugin.js';

const SPECS = [key('headers', 'LIST', NO_DEFAULT, 'HIGH', 'The name of the headers to be removed.', nonEmptyList)];

export const dropHeadersPlugin = kafkaTransform('org.apache.kafka.connect.transforms.DropHeaders', SPECS, (c) => {
  const names = new Set(c.headers as string[]);
  return transformation((record: ConnectRecord) => ({ ...record, headers: (record.headers ?? []).filter((h) => !names.has(h.key)) }));
});
