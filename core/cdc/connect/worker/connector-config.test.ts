import { describe, expect, it } from 'vitest';
import { validateCommon } from './connector-config.js';

describe('validateCommon: the framework keys every connector shares', () => {
  it('checks JsonConverter settings under the converter prefix (AbstractHerder.validateConverterConfig)', () => {
    const errors = validateCommon({ 'connector.class': 'x', 'topics': 't', 'value.converter.decimal.format': 'hex', 'key.converter.replace.null.with.default': 'maybe', 'value.converter.schemas.enable': 'nope' }, 'sink');
    expect(errors['value.converter.decimal.format']).toEqual(['Invalid value hex for configuration decimal.format: String must be one of (case insensitive): BASE64, NUMERIC']);
    expect(errors['key.converter.replace.null.with.default']).toEqual(['Invalid value maybe for configuration replace.null.with.default: Expected value to be either true or false']);
    expect(errors['value.converter.schemas.enable']).toEqual(['Invalid value nope for configuration schemas.enable: Expected value to be either true or false']);
    expect(validateCommon({ 'connector.class': 'x', 'topics': 't', 'value.converter.decimal.format': 'Numeric' }, 'sink')['value.converter.decimal.format']).toBeUndefined();
    // another converter's keys are its own business
    expect(validateCommon({ 'connector.class': 'x', 'topics': 't', 'value.converter': 'org.apache.kafka.connect.storage.StringConverter', 'value.converter.decimal.format': 'hex' }, 'sink')['value.converter.decimal.format']).toBeUndefined();
  });

  it('source connectors: topic.creation keys are validated once any is set', () => {
    expect(validateCommon({ 'connector.class': 'x', 'topic.creation.default.partitions': '3' }, 'source')).toEqual({
      'topic.creation.default.replication.factor': ['Missing required configuration "topic.creation.default.replication.factor" which has no default value.'],
    });
    expect(validateCommon({ 'connector.class': 'x' }, 'source')).toEqual({});
  });
});
