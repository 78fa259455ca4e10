/**
 * org.apache.kafka.connect.transforms.TimestampRouter (Kafka 3.9): the topic becomes
 * `topic.format` with `${topic}` and `${timestamp}` (the record timestamp in `timestamp.format`,
 * UTC) filled in. A record without a timestamp is an error.
 */
import { ConnectException, DataException, type ConnectRecord } from '../plugin.js';
import { key } from './config-def.js';
import { schemaString } from './connect-data.js';
import { kafkaTransform, transformation } from './kafka-plugin.js';
import { IllegalPatternError, SimpleDateFormat } from './simple-date-format.js';

const SPECS = [
  key('topic.format', 'STRING', '${topic}-${timestamp}', 'HIGH', 'Format string which can contain <code>${topic}</code> and <code>${timestamp}</code> as placeholders for the topic and timestamp, respectively.'),
  key('timestamp.format', 'STRING', 'yyyyMMdd', 'HIGH', 'Format string for the timestamp that is compatible with <code>java.text.SimpleDateFormat</code>.'),
];

/** Object.toString of a Connect value (maps as {k=v}, lists as [a, b]). */
function javaText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(javaText).join(', ')}]`;
  if (typeof v === 'object') return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}=${javaText(x)}`).join(', ')}}`;
  return String(v);
}

/** SourceRecord/SinkRecord.toString, which the missing-timestamp message includes. */
function recordText(r: ConnectRecord): string {
  const schema = (s: ConnectRecord['keySchema']) => (s ? schemaString(s) : 'null');
  const headers = (r.headers ?? []).map((h) => `ConnectHeader(key=${h.key}, value=${h.value}, schema=Schema{STRING})`).join(', ');
  const base = `ConnectRecord{topic='${r.topic}', kafkaPartition=${r.kafkaPartition ?? null}, key=${javaText(r.key)}, keySchema=${schema(r.keySchema)}, value=${javaText(r.value)}, valueSchema=${schema(r.valueSchema)}, timestamp=null, headers=ConnectHeaders(headers=${headers})}`;
  return 'kafkaOffset' in r ? `SinkRecord{kafkaOffset=${r.kafkaOffset}, timestampType=${r.timestampType}, originalTopic=${r.originalTopic}, originalKafkaPartition=${r.kafkaPartition}, originalKafkaOffset=${r.kafkaOffset}} ${base}` : `SourceRecord{sourcePartition=${javaText(r.sourcePartition)}, sourceOffset=${javaText(r.sourceOffset)}} ${base}`;
}

export const timestampRouterPlugin = kafkaTransform('org.apache.kafka.connect.transforms.TimestampRouter', SPECS, (c) => {
  const topicFormat = c['topic.format'] as string;
  const pattern = c['timestamp.format'] as string;
  // Kafka builds the SimpleDateFormat on first use (a ThreadLocal), so a bad pattern fails the record
  let format: SimpleDateFormat | null = null;
  return transformation((record: ConnectRecord) => {
    const ts = record.timestamp;
    if (ts === undefined || ts === null) throw new DataException('Timestamp missing on record: ' + recordText(record));
    if (!format) {
      try {
        format = new SimpleDateFormat(pattern);
      } catch (err) {
        if (err instanceof IllegalPatternError) throw new ConnectException(err.message, 'java.lang.IllegalArgumentException');
        throw err;
      }
    }
    const topic = topicFormat.split('${topic}').join(record.topic).split('${timestamp}').join(format.format(ts));
    return { ...record, topic };
  });
});
