/** Request parameter checks in STS's validation wording. */
import { StsError, validationError } from './errors.js';

export type ParamErrors = Parameters<typeof validationError>[0];

export function checkArn(errs: ParamErrors, v: string | undefined, at: string): void {
  if (v === undefined) errs.push({ value: undefined, at, constraint: 'Member must not be null' });
  else if (v.length < 20) errs.push({ value: v, at, constraint: 'Member must have length greater than or equal to 20' });
  else if (v.length > 2048) errs.push({ value: v, at, constraint: 'Member must have length less than or equal to 2048' });
}

/**
 * A session policy can only narrow what the role allows; Loupe has no resources to apply it to,
 * so it is checked for shape (as STS does) and otherwise has no effect.
 */
export function checkSessionPolicy(policy: string | undefined): void {
  if (policy === undefined) return;
  if (policy.length > 2048) throw validationError([{ value: policy.slice(0, 32) + '…', at: 'policy', constraint: 'Member must have length less than or equal to 2048' }]);
  try {
    const doc = JSON.parse(policy) as { Statement?: unknown };
    if (!doc || typeof doc !== 'object' || doc.Statement === undefined) throw new Error('no Statement');
  } catch {
    throw new StsError('MalformedPolicyDocument', 'Syntax errors in policy.');
  }
}

export function checkDuration(errs: ParamErrors, v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) {
    errs.push({ value: v, at: 'durationSeconds', constraint: 'Member must be an integer' });
    return undefined;
  }
  const n = Number(v);
  if (n < 900) errs.push({ value: v, at: 'durationSeconds', constraint: 'Member must have value greater than or equal to 900' });
  else if (n > 43200) errs.push({ value: v, at: 'durationSeconds', constraint: 'Member must have value less than or equal to 43200' });
  return n;
}
