/**
 * KafkaLog needs a broker for everything that talks to Kafka; none runs here. These tests cover
 * what needs none: the record mapping both ways and the offset arithmetic of a produce answer.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOPIC_CONFIG } from './types.js';
import { assignOffsets, fromKafkaMessage, toKafkaMessage, topicConfigEntries } from './kafka-log.js';

describe('KafkaLog without a broker', () => {
  it('maps records to kafkajs messages (tombstone value null, headers, timestamp, partition)', () => {
    expect(toKafkaMessage({ key: '{"id":1}', value: null, headers: [{ key: 'h', value: 'v' }], timestamp: 5, partition: 2 })).toEqual({ key: '{"id":1}', value: null, headers: { h: 'v' }, timestamp: '5', partition: 2 });
  });

  it('maps fetched messages back, keeping tombstones and repeated headers', () => {
    const r = fromKafkaMessage('t', 1, { offset: '42', key: Buffer.from('k'), value: null, timestamp: '7', headers: { a: [Buffer.from('x'), Buffer.from('y')] } });
    expect(r).toEqual({ topic: 't', partition: 1, offset: 42, key: 'k', value: null, headers: [{ key: 'a', value: 'x' }, { key: 'a', value: 'y' }], timestamp: 7 });
  });

  it('gives each record base offset + its index among the records of its partition', () => {
    const meta = [
      { topicName: 't', partition: 0, errorCode: 0, baseOffset: '10' },
      { topicName: 't', partition: 1, errorCode: 0, baseOffset: '3' },
    ];
    expect(assignOffsets('t', [0, 1, 0, 0, 1], meta).map((r) => [r.partition, r.offset])).toEqual([
      [0, 10],
      [1, 3],
      [0, 11],
      [0, 12],
      [1, 4],
    ]);
  });

  it('sends cleanup.policy as Kafka writes a list, so compact,delete reaches the broker as both', () => {
    const given = { cleanupPolicy: ['compact', 'delete'] as const };
    expect(topicConfigEntries(given, { ...DEFAULT_TOPIC_CONFIG, ...given })[0]).toEqual({ name: 'cleanup.policy', value: 'compact,delete' });
  });

  it('sends the topic configs it was given under their Kafka names, so the broker applies what the embedded log would', () => {
    const given = { segmentBytes: 1024, messageTimestampType: 'LogAppendTime' as const, minInsyncReplicas: 2 };
    expect(topicConfigEntries(given, { ...DEFAULT_TOPIC_CONFIG, ...given })).toEqual([
      { name: 'cleanup.policy', value: 'delete' },
      { name: 'retention.ms', value: '604800000' },
      { name: 'retention.bytes', value: '-1' },
      { name: 'segment.bytes', value: '1024' },
      { name: 'message.timestamp.type', value: 'LogAppendTime' },
      { name: 'min.insync.replicas', value: '2' },
    ]);
  });
});
