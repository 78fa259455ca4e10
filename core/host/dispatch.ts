/**
 * Turns `(method, params)` into a handler call: unknown methods and bad params get a clear
 * error naming what was wrong; a failing handler never leaks a stack trace.
 */
import type { z } from 'zod';
import type { ContractErrorBody } from './contract.js';
import { HostCallError, type HostRuntime, type MethodSpec } from './area.js';
import type { MethodName } from './contract.js';

export type CallOutcome = { ok: true; result: unknown } | { ok: false; error: ContractErrorBody['error'] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type MethodTable = Record<string, MethodSpec<any>>;

export class Dispatcher {
  constructor(
    private readonly methods: MethodTable,
    private readonly rt: HostRuntime,
  ) {}

  names(): string[] {
    return Object.keys(this.methods).sort();
  }

  describe(): { method: string; summary: string }[] {
    return this.names().map((m) => ({ method: m, summary: this.methods[m]!.summary ?? '' }));
  }

  async call(method: string, params: unknown): Promise<CallOutcome> {
    const spec = Object.hasOwn(this.methods, method) ? this.methods[method as MethodName] : undefined;
    if (!spec) {
      return { ok: false, error: { code: 'unknown_method', message: `unknown method "${method}"; see the host contract for the methods there are` } };
    }
    const parsed = (spec.params as z.ZodType).safeParse(params ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(params)', message: i.message }));
      return {
        ok: false,
        error: { code: 'bad_params', message: `bad params for ${method}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues },
      };
    }
    try {
      return { ok: true, result: await spec.handler(parsed.data, this.rt) };
    } catch (err) {
      if (err instanceof HostCallError) {
        return {
          ok: false,
          error: {
            code: err.code,
            message: err.message,
            ...(err.issues ? { issues: err.issues } : {}),
            ...(err.detail !== undefined ? { detail: err.detail } : {}),
          },
        };
      }
      const message = err instanceof Error ? err.message : String(err);
      this.rt.log.warn(`${method} failed`, { message });
      return { ok: false, error: { code: 'failed', message } };
    }
  }
}
