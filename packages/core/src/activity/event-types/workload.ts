/** Event types of workload identity: the CI jobs trusted by their OIDC ID tokens, and the tokens issued to them. */
import { z } from 'zod';
import { entry, Grant, Time } from './shared.js';

const IdentityFields = z.strictObject({
  identity_id: z.string(),
  name: z.string(),
  issuer: z.string(),
  audience: z.string(),
  subject: z.string(),
  claims: z.record(z.string(), z.string()),
  grants: z.array(Grant),
  actions: z.array(z.string()),
  token_ttl_seconds: z.int(),
});

export const workloadEventTypes = {
  workload_identity_created: entry(
    'A workload identity (a trust rule for a CI job’s ID tokens) was created',
    IdentityFields,
  ),
  workload_identity_removed: entry(
    'A workload identity was deleted; the tokens issued to it stopped working at once',
    IdentityFields,
  ),
  workload_token_issued: entry(
    "An ID token was exchanged for a workload token (never the JWT nor the token); the event's device_id names the ephemeral device",
    z.strictObject({
      identity: z.string().describe('the identity’s name'),
      iss: z.string(),
      sub: z.string(),
      aud: z.array(z.string()),
      jti: z.string(),
      claims: z
        .record(z.string(), z.string())
        .describe('the identity’s listed claims, as the token held them'),
      expires_at: Time,
    }),
  ),
};
