/** org.apache.kafka.connect.transforms.predicates.RecordIsTombstone (Kafka 3.9): true when the value is null. */
import { kafkaPredicate } from '../kafka-plugin.js';

export const recordIsTombstonePlugin = kafkaPredicate('org.apache.kafka.connect.transforms.predicates.RecordIsTombstone', [], () => ({
  test: (record) => record.value === null || record.value === undefined,
}));
