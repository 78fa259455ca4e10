import { describe, expect, it } from 'vitest';
import type { Settings } from '../../core/host/contract.js';
import { diffSettings, fieldErrorsOf } from './settings.js';
import { HostError } from '../bridge.js';
import { pageFromHash } from './pages.js';

const area = (port: number) => ({ mode: 'embedded' as const, remoteUrl: '', port });
const stored: Settings = {
  version: 1,
  areas: { search: area(9200), idp: area(8080), sts: area(8090), connect: area(8083), clickhouse: area(8123) },
  idpHttpsPort: 8443,
  uiPort: 5170,
  theme: 'system',
};

describe('saving settings sends only what the user changed', () => {
  it('nothing edited: an empty patch (a port fixed by a flag for this run is never written back)', () => {
    expect(diffSettings(stored, structuredClone(stored))).toEqual({});
  });

  it('switching search to a remote cluster sends that area’s mode and URL only', () => {
    const draft = structuredClone(stored);
    draft.areas.search = { ...draft.areas.search, mode: 'remote', remoteUrl: 'https://es.example:9200' };
    draft.uiPort = 5171;
    expect(diffSettings(stored, draft)).toEqual({ areas: { search: { mode: 'remote', remoteUrl: 'https://es.example:9200' } }, uiPort: 5171 });
  });
});

describe('host errors land on the field they are about', () => {
  it('per-parameter issues from schema validation', () => {
    const err = new HostError({
      code: 'bad_params',
      message: 'bad params for settings.update: areas.sts.port: Too big: expected number to be <=65535',
      issues: [{ path: 'areas.sts.port', message: 'Too big: expected number to be <=65535' }],
    });
    expect(fieldErrorsOf(err)).toEqual({ 'areas.sts.port': 'Too big: expected number to be <=65535' });
  });

  it('a cross-field check reported as one "<path>: <reason>" message', () => {
    const err = new HostError({ code: 'bad_params', message: 'areas.clickhouse.remoteUrl: a remote clickhouse needs a URL' });
    expect(fieldErrorsOf(err)).toEqual({ 'areas.clickhouse.remoteUrl': 'a remote clickhouse needs a URL' });
  });

  it('other failures are not pinned on a field', () => {
    expect(fieldErrorsOf(new HostError({ code: 'failed', message: 'areas.search.port: disk full' }))).toEqual({});
    expect(fieldErrorsOf(new Error('boom'))).toEqual({});
  });
});

describe('addresses', () => {
  it('each page has its own address, and an unknown one opens Federation', () => {
    expect(pageFromHash('#/relevance')).toBe('relevance');
    expect(pageFromHash('#/settings')).toBe('settings');
    expect(pageFromHash('#/cdc/pipelines/1')).toBe('cdc');
    expect(pageFromHash('')).toBe('federation');
    expect(pageFromHash('#/nope')).toBe('federation');
  });
});
