/**
 * org.apache.kafka.connect.transforms.Filter (Kafka 3.9): drops every record; meant to be used
 * with a predicate (`transforms.<alias>.predicate`, optionally `negate`).
 */
import { kafkaTransform, transformation } from './kafka-plugin.js';

export const filterPlugin = kafkaTransform('org.apache.kafka.connect.transforms.Filter', [], () => transformation(() => null));
