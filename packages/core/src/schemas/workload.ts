/** The schemas of workload identities and of the token exchange. */
import { z } from 'zod';
import { WORKLOAD_ACTIONS } from '../model/workload.js';
import { GrantSchema, SlugSchema } from './api.js';
import { text } from './text.js';

/** A matcher value: exact, never empty, never holding `*` (no wildcard matches any repository). */
const Exact = (what: string) =>
  text()
    .min(1, `${what} must not be empty`)
    .max(500)
    .refine((value) => !value.includes('*'), `${what} must be an exact value, without "*"`)
    .refine((value) => value.trim() === value, `${what} must not start or end with white space`);

/** The issuer URL: https, no credentials, query or fragment. */
const IssuerUrl = Exact('issuer').refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !url.username && !url.password && !url.search && !url.hash;
  } catch {
    return false;
  }
}, 'issuer must be an https URL without credentials, query or fragment');

/** A claim name: what a JWT claim is called (`repository_id`, `ref`, …), never a registered one the exchange checks itself. */
const ClaimName = text()
  .regex(/^[A-Za-z_][A-Za-z0-9_.:-]{0,99}$/, 'a claim name: letters, digits, "_", ".", ":", "-"')
  .refine(
    (name) => !['iss', 'sub', 'aud', 'exp', 'iat', 'nbf', 'jti'].includes(name),
    'iss, sub, aud, exp, iat, nbf and jti are checked by their own fields',
  );

/** Body of `POST …/workload-identities`. */
export const CreateWorkloadIdentityBody = z.strictObject({
  name: SlugSchema.describe('How the exchange names it (or by its id)'),
  issuer: IssuerUrl.describe('The OIDC issuer, exactly as its tokens’ iss says (https)'),
  audience: Exact('audience').describe('Must be one of the token’s aud values'),
  subject: Exact('subject').describe('The exact sub a token must carry'),
  claims: z
    .record(ClaimName, Exact('each claim'))
    .refine((claims) => Object.keys(claims).length <= 20, 'at most 20 claims')
    .optional()
    .describe(
      'Further claims and the exact string each must equal (repository_id, ref, environment, job_workflow_ref, …)',
    ),
  grants: z.array(GrantSchema).min(1).max(100),
  actions: z.array(z.enum(WORKLOAD_ACTIONS)).min(1).max(WORKLOAD_ACTIONS.length),
  token_ttl_seconds: z.int().min(60).max(3600).default(900),
});

/** A workload identity as answers show it. */
export const WorkloadIdentityResponse = z.strictObject({
  id: z.string(),
  name: z.string(),
  issuer: z.string(),
  audience: z.string(),
  subject: z.string(),
  claims: z.record(z.string(), z.string()),
  grants: z.array(GrantSchema),
  actions: z.array(z.enum(WORKLOAD_ACTIONS)),
  token_ttl_seconds: z.int(),
  created_at: z.string(),
});

/** Body of `POST /workload-tokens`. */
export const WorkloadTokenBody = z.strictObject({
  organization: SlugSchema,
  identity: text().min(1).max(100).describe('The identity’s name or id'),
  id_token: text().min(1).max(16_384).describe('The OIDC ID token (a JWT) the CI job was issued'),
  public_key: text()
    .min(1)
    .max(4096)
    .describe('The Ed25519 public key of the key pair the job made: raw 32 bytes base64url, or SPKI PEM'),
});

/** The answer of `POST /workload-tokens`. */
export const WorkloadTokenResponse = z.strictObject({
  token: z.string().describe('The API token, shown only here'),
  expires_at: z.string(),
  device_id: z.string().describe('The ephemeral device made from public_key; it expires with the token'),
  grants: z.array(GrantSchema),
  actions: z.array(z.enum(WORKLOAD_ACTIONS)),
});
