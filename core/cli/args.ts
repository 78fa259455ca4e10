/** Flags every `loupe` subcommand shares, parsed once with clear errors. */
import { parseArgs } from 'node:util';
import { SERVICE_NAMES, type ServiceName } from '../common/service.js';
import { parsePort } from '../host/ports.js';

export interface CommonFlags {
  portBase?: number;
  dataDir?: string;
  only?: ServiceName[];
  open: boolean;
  help: boolean;
  version: boolean;
  positionals: string[];
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseCommon(argv: string[]): CommonFlags {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'port-base': { type: 'string' },
        'data-dir': { type: 'string' },
        only: { type: 'string' },
        open: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  let portBase: number | undefined;
  if (v['port-base'] !== undefined) {
    try {
      portBase = parsePort(v['port-base'], '--port-base');
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (portBase + 7 > 65535) throw new UsageError(`--port-base ${portBase} leaves no room for the 8 ports (N … N+7)`);
  }
  let only: ServiceName[] | undefined;
  if (v.only !== undefined) {
    only = v.only.split(',').map((s) => s.trim()).filter(Boolean) as ServiceName[];
    const bad = only.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n));
    if (bad.length) throw new UsageError(`--only: unknown service ${bad.join(', ')}; the services are ${SERVICE_NAMES.join(', ')}`);
  }
  return {
    ...(portBase !== undefined ? { portBase } : {}),
    ...(v['data-dir'] ? { dataDir: v['data-dir'] } : {}),
    ...(only ? { only } : {}),
    open: v.open ?? false,
    help: v.help ?? false,
    version: v.version ?? false,
    positionals: parsed.positionals,
  };
}
