/** The per-stage CPU table's attribution: a profile node's self time goes to the stage of its file. */
import { describe, expect, it } from 'vitest';
import { selfTimeByStage, stageOf } from './stage-profile.js';

describe('per-stage CPU attribution', () => {
  it('names each stage by the file the code is in', () => {
    expect(stageOf('file:///repo/core/cdc/source/embedded-source.ts', 'commit')).toBe('source commit');
    expect(stageOf('file:///repo/core/cdc/log/embedded-log.ts', 'append')).toBe('log append and fetch');
    expect(stageOf('file:///repo/core/cdc/connect/plugins/debezium-mysql/envelope.ts', 'rowValue')).toBe('envelope (Debezium task)');
    expect(stageOf('file:///repo/core/cdc/connect/converters/json-converter.ts', 'fromConnectData')).toBe('converters');
    expect(stageOf('file:///repo/core/cdc/connect/transforms/regex-router.ts', 'apply')).toBe('transforms');
    expect(stageOf('file:///repo/core/cdc/connect/plugins/clickhouse-sink/convert.ts', 'convertRow')).toBe('sink conversion');
    expect(stageOf('file:///repo/node_modules/@clickhouse/client/dist/client.js', 'exec')).toBe('requests (client, HTTP, server JS)');
    expect(stageOf('node:_http_client', 'request')).toBe('requests (client, HTTP, server JS)');
    expect(stageOf('', '(garbage collector)')).toBe('garbage collector');
    expect(stageOf('', '(idle)')).toBeNull();
    expect(stageOf('file:///repo/core/common/clock.ts', 'now')).toBe('other JavaScript');
    expect(stageOf('wasm://wasm/002a0116', 'sqlite3VdbeExec')).toBe('source commit');
    expect(stageOf('', 'set')).toBe('caller');
    expect(stageOf('node:internal/validators', 'validateString')).toBe('caller');
  });

  it('adds each sample’s time (the delta to the next sample) to its node’s stage, a builtin’s to its caller’s', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { url: '', functionName: '(root)' }, children: [2, 3] },
        { id: 2, callFrame: { url: 'file:///r/core/cdc/log/embedded-log.ts', functionName: 'append' }, children: [4] },
        { id: 3, callFrame: { url: '', functionName: '(garbage collector)' } },
        { id: 4, callFrame: { url: '', functionName: 'set' } },
      ],
      samples: [2, 3, 4, 2, 1],
      timeDeltas: [0, 1000, 500, 700, 1500],
    };
    const by = selfTimeByStage(profile);
    expect(by.get('log append and fetch')).toBe(1000 + 700 + 1500);
    expect(by.get('garbage collector')).toBe(500);
  });
});
