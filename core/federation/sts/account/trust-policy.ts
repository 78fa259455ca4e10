/**
 * Evaluates a role's trust policy (AssumeRolePolicyDocument) for a federated caller, the way
 * IAM does for the parts federation uses: Allow/Deny statements, Principal.Federated, Action
 * with wildcards, and string conditions on keys such as SAML:aud or `<provider>:aud`.
 * An explicit Deny wins; without a matching Allow the answer is no. Unknown condition
 * operators make a statement not match (fail closed).
 */
import type { PolicyDocument, PolicyStatement, PolicyValue } from './model.js';

export interface TrustRequest {
  action: 'sts:AssumeRoleWithSAML' | 'sts:AssumeRoleWithWebIdentity';
  federatedPrincipal: string;
  /** Condition keys and their values, e.g. { 'SAML:aud': 'https://signin.aws.amazon.com/saml' }. */
  context: Record<string, string | undefined>;
}

export function trustAllows(policy: PolicyDocument, req: TrustRequest): boolean {
  let allowed = false;
  for (const st of policy.Statement ?? []) {
    if (!statementApplies(st, req)) continue;
    if (st.Effect === 'Deny') return false;
    if (st.Effect === 'Allow') allowed = true;
  }
  return allowed;
}

const list = (v: PolicyValue | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function glob(pattern: string, value: string, ignoreCase = false): boolean {
  const re = new RegExp('^' + pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$', ignoreCase ? 'i' : '');
  return re.test(value);
}

function statementApplies(st: PolicyStatement, req: TrustRequest): boolean {
  if (!list(st.Action).some((a) => glob(a, req.action, true))) return false;
  if (st.Principal !== '*') {
    const fed = list(st.Principal?.Federated);
    if (!fed.some((f) => f === '*' || f === req.federatedPrincipal)) return false;
  }
  for (const [op, conds] of Object.entries(st.Condition ?? {})) {
    for (const [key, expected] of Object.entries(conds)) {
      if (!conditionHolds(op, lookup(req.context, key), list(expected))) return false;
    }
  }
  return true;
}

/** Condition keys are case-insensitive in IAM. */
function lookup(ctx: Record<string, string | undefined>, key: string): string | undefined {
  const k = Object.keys(ctx).find((c) => c.toLowerCase() === key.toLowerCase());
  return k === undefined ? undefined : ctx[k];
}

function conditionHolds(op: string, actual: string | undefined, expected: string[]): boolean {
  const base = op.replace(/^ForAnyValue:|^ForAllValues:/, '').replace(/IfExists$/, '');
  if (actual === undefined) return op.endsWith('IfExists') || base.startsWith('StringNot');
  switch (base) {
    case 'StringEquals':
      return expected.includes(actual);
    case 'StringNotEquals':
      return !expected.includes(actual);
    case 'StringEqualsIgnoreCase':
      return expected.some((e) => e.toLowerCase() === actual.toLowerCase());
    case 'StringNotEqualsIgnoreCase':
      return !expected.some((e) => e.toLowerCase() === actual.toLowerCase());
    case 'StringLike':
      return expected.some((e) => glob(e, actual));
    case 'StringNotLike':
      return !expected.some((e) => glob(e, actual));
    default:
      return false;
  }
}

export function validatePolicy(raw: unknown): PolicyDocument {
  const p = raw as PolicyDocument;
  if (!p || typeof p !== 'object' || !Array.isArray(p.Statement) || p.Statement.length === 0) throw new Error('Policy document must contain a Statement array');
  for (const st of p.Statement) {
    if (st.Effect !== 'Allow' && st.Effect !== 'Deny') throw new Error('Statement Effect must be Allow or Deny');
    if (list(st.Action).length === 0) throw new Error('Statement must have an Action');
  }
  return { Version: p.Version ?? '2012-10-17', Statement: p.Statement };
}
