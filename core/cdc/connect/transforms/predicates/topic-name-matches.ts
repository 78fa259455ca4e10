/**
 * org.apache.kafka.connect.transforms.predicates.TopicNameMatches (Kafka 3.9): true when the
 * whole topic name matches `pattern` (Matcher.matches()).
 */
import { compileJavaRegex } from '../regex-router.js';
import { composite, ConfigException, key, NO_DEFAULT, nonEmptyString } from '../config-def.js';
import { kafkaPredicate } from '../kafka-plugin.js';

/** org.apache.kafka.connect.transforms.util.RegexValidator (JavaScript's reason stands in for Java's). */
const regexValidator = (name: string, value: unknown) => {
  try {
    if (value === null) throw new Error('null');
    compileJavaRegex(value as string);
  } catch (err) {
    throw ConfigException.invalid(name, value, 'Invalid regex: ' + (err as Error).message);
  }
};

export const topicNameMatchesPlugin = kafkaPredicate(
  'org.apache.kafka.connect.transforms.predicates.TopicNameMatches',
  [key('pattern', 'STRING', NO_DEFAULT, 'MEDIUM', "A Java regular expression for matching against the name of a record's topic.", composite(nonEmptyString, regexValidator))],
  (c) => {
    const value = c.pattern as string;
    let re: RegExp;
    try {
      re = compileJavaRegex(value);
    } catch (err) {
      throw ConfigException.invalid('pattern', value, 'entry must be a Java-compatible regular expression: ' + (err as Error).message);
    }
    return { test: (record) => record.topic !== null && record.topic !== undefined && re.test(record.topic) };
  },
);
