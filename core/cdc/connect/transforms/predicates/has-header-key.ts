/** org.apache.kafka.connect.transforms.predicates.HasHeaderKey (Kafka 3.9): true when the record has a header named `name`. */
import { key, NO_DEFAULT, nonEmptyString } from '../config-def.js';
import { kafkaPredicate } from '../kafka-plugin.js';

export const hasHeaderKeyPlugin = kafkaPredicate('org.apache.kafka.connect.transforms.predicates.HasHeaderKey', [key('name', 'STRING', NO_DEFAULT, 'MEDIUM', 'The header name.', nonEmptyString)], (c) => {
  const name = c.name as string;
  return { test: (record) => (record.headers ?? []).some((h) => h.key === name) };
});
