/**
 * The settings every connector has (Kafka Connect's ConnectorConfig / SourceConnectorConfig /
 * SinkConnectorConfig), their ConfigKeyInfo rows for validate, and their checks.
 */
import { validateTopicCreation } from './topic-creation.js';
import { configKey, type ConfigKeyDef, type ConnectorConfig, type ValidationErrors } from '../plugin.js';
import { CONVERTER_CLASSES, JSON_CONVERTER_CLASS, resolveConverterClass } from '../converters/index.js';
import { validateTransforms } from '../transforms/index.js';

const d = configKey;

export const COMMON_DEFS: ConfigKeyDef[] = [
  d('name', 'STRING', null, 'HIGH', 'Globally unique name to use for this connector.', 'Common', 1, { display_name: 'Connector name' }),
  d('connector.class', 'STRING', null, 'HIGH', 'Name or alias of the class for this connector. Must be a subclass of org.apache.kafka.connect.connector.Connector.', 'Common', 2, { display_name: 'Connector class', width: 'LONG' }),
  d('tasks.max', 'INT', '1', 'HIGH', 'Maximum number of tasks to use for this connector.', 'Common', 3, { display_name: 'Tasks max', width: 'SHORT' }),
  d('key.converter', 'CLASS', null, 'LOW', 'Converter class used to convert between Kafka Connect format and the serialized form that is written to Kafka.', 'Common', 5, { required: false, display_name: 'Key converter class' }),
  d('value.converter', 'CLASS', null, 'LOW', 'Converter class used to convert between Kafka Connect format and the serialized form that is written to Kafka.', 'Common', 6, { required: false, display_name: 'Value converter class' }),
  d('header.converter', 'CLASS', null, 'LOW', 'HeaderConverter class used to convert between Kafka Connect format and the serialized form that is written to Kafka.', 'Common', 7, { required: false }),
  d('transforms', 'LIST', '', 'LOW', 'Aliases for the transformations to be applied to records.', 'Transforms', 0, { display_name: 'Transforms' }),
  d('predicates', 'LIST', '', 'LOW', 'Aliases for the predicates used by transformations.', 'Predicates', 0),
  d('errors.retry.timeout', 'LONG', '0', 'MEDIUM', 'The maximum duration in milliseconds that a failed operation will be reattempted. The default is 0, which means no retries will be attempted. Use -1 for infinite retries.', 'Error Handling', 1),
  d('errors.retry.delay.max.ms', 'LONG', '60000', 'MEDIUM', 'The maximum duration in milliseconds between consecutive retry attempts.', 'Error Handling', 2),
  d('errors.tolerance', 'STRING', 'none', 'MEDIUM', "Behavior for tolerating errors during connector operation. 'none' is the default value and signals that any error will result in an immediate connector task failure; 'all' changes the behavior to skip over problematic records.", 'Error Handling', 3, { recommended: ['none', 'all'] }),
  d('errors.log.enable', 'BOOLEAN', 'false', 'MEDIUM', 'If true, write each error and the details of the failed operation and problematic record to the Connect application log.', 'Error Handling', 4),
];

export const SOURCE_DEFS: ConfigKeyDef[] = [
  d('topic.creation.groups', 'LIST', '', 'LOW', 'Groups of configurations for topics created by source connectors', 'Topic Creation', 1),
  d('topic.creation.default.replication.factor', 'SHORT', null, 'LOW', 'Replication factor of topics the connector creates; -1 means the broker default.', 'Topic Creation', 2, { required: false }),
  d('topic.creation.default.partitions', 'INT', null, 'LOW', 'Number of partitions of topics the connector creates; -1 means the broker default.', 'Topic Creation', 3, { required: false }),
  d('exactly.once.support', 'STRING', 'requested', 'MEDIUM', 'Permitted values are requested, required.', 'Exactly Once Support', 1),
  d('offsets.storage.topic', 'STRING', null, 'LOW', 'The name of a separate offsets topic to use for this connector.', 'offsets.topic', 1, { required: false }),
];

export const SINK_DEFS: ConfigKeyDef[] = [
  d('topics', 'LIST', '', 'HIGH', 'List of topics to consume, separated by commas', 'Common', 4, { display_name: 'Topics' }),
  d('topics.regex', 'STRING', '', 'HIGH', 'Regular expression giving topics to consume.', 'Common', 4, { display_name: 'Topics regex' }),
  d('errors.deadletterqueue.topic.name', 'STRING', '', 'MEDIUM', 'The name of the topic to be used as the dead letter queue (DLQ) for messages that result in an error when processed by this sink connector, or its transformations or converters.', 'Error Handling', 5),
];

const INT = /^-?\d+$/;

export function validateCommon(config: ConnectorConfig, type: 'source' | 'sink'): ValidationErrors {
  const errors: ValidationErrors = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  const tasksMax = config['tasks.max'];
  if (tasksMax !== undefined) {
    if (!INT.test(tasksMax.trim())) add('tasks.max', `Invalid value ${tasksMax} for configuration tasks.max: Not a number of type INT`);
    else if (Number(tasksMax) < 1) add('tasks.max', `Invalid value ${tasksMax} for configuration tasks.max: Value must be at least 1`);
  }
  for (const k of ['key.converter', 'value.converter']) {
    const v = config[k];
    if (v !== undefined && !resolveConverterClass(v)) add(k, `Invalid value ${v} for configuration ${k}: Class ${v} could not be found.`);
    const se = config[`${k}.schemas.enable`];
    if (se !== undefined && !/^(true|false)$/i.test(se.trim())) add(`${k}.schemas.enable`, `Invalid value ${se} for configuration schemas.enable: Expected value to be either true or false`);
    // JsonConverterConfig's other keys, validated under the converter's prefix as AbstractHerder.validateConverterConfig does
    if (v === undefined || resolveConverterClass(v) === JSON_CONVERTER_CLASS) {
      const df = config[`${k}.decimal.format`];
      if (df !== undefined && !['BASE64', 'NUMERIC'].includes(df.trim().toUpperCase())) add(`${k}.decimal.format`, `Invalid value ${df} for configuration decimal.format: String must be one of (case insensitive): BASE64, NUMERIC`);
      const rn = config[`${k}.replace.null.with.default`];
      if (rn !== undefined && !/^(true|false)$/i.test(rn.trim())) add(`${k}.replace.null.with.default`, `Invalid value ${rn} for configuration replace.null.with.default: Expected value to be either true or false`);
    }
  }
  const tol = config['errors.tolerance'];
  if (tol !== undefined && !['none', 'all'].includes(tol.trim().toLowerCase())) add('errors.tolerance', `Invalid value ${tol} for configuration errors.tolerance: String must be one of (case insensitive): NONE, ALL`);
  const rt = config['errors.retry.timeout'];
  if (rt !== undefined && !INT.test(rt.trim())) add('errors.retry.timeout', `Invalid value ${rt} for configuration errors.retry.timeout: Not a number of type LONG`);
  Object.assign(errors, validateTransforms(config));
  if (type === 'sink') {
    const topics = (config.topics ?? '').trim();
    const regex = (config['topics.regex'] ?? '').trim();
    if (topics && regex) add('topics', 'Must configure one of topics or topics.regex');
    if (!topics && !regex) add('topics', 'Must configure one of topics or topics.regex');
    if (regex) {
      try {
        new RegExp(regex);
      } catch (err) {
        add('topics.regex', `Invalid value ${regex} for configuration topics.regex: Invalid regex: ${(err as Error).message}`);
      }
    }
  } else Object.assign(errors, validateTopicCreation(config));
  return errors;
}

export { CONVERTER_CLASSES };
