/**
 * The token exchange (`POST /workload-tokens`): an ID token a CI job was issued, checked against a
 * workload identity, becomes a short-lived API token acting as that identity, with an ephemeral
 * device made from the job's public key that expires with it. The `jti` is spent, the device and
 * the token written and `workload_token_issued` appended in one unit of work.
 */
import { eventDraft } from '../activity/event-types/index.js';
import { recordChange } from '../activity/record-change.js';
import { generateApiToken, hashToken, TOKEN_PREFIX } from '../auth/tokens.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { checkNotRestoring } from '../health/restoring.js';
import type { Device, Organization } from '../model/model.js';
import { WORKLOAD_TOKEN_PREFIX, type WorkloadIdentity, type WorkloadToken } from '../model/workload.js';
import type { IdGenerator } from '../runtime/ids.js';
import { enrollmentKey } from '../secrets/enrollment-key.js';
import type { LatchkeyStore, WorkloadIssueResult } from '../store/types.js';
import type { IssuerKeys } from './issuer-keys.js';
import { IdTokenRefusal, type VerifiedIdToken, verifyIdToken } from './verify-id-token.js';

/** How many unexpired `jti`s are remembered per organization and issuer (a bound on the store). */
const MAX_REMEMBERED_JTIS = 10_000;

/** What the exchange needs of the core. */
export interface ExchangeDeps {
  store: LatchkeyStore;
  now(): number;
  ids: IdGenerator;
  issuerKeys: IssuerKeys;
}

/** The exchange's input, as `POST /workload-tokens` validated it. */
export interface ExchangeInput {
  organization: string;
  identity: string;
  id_token: string;
  public_key: string;
}

/** What the exchange answers (201). */
export interface ExchangeAnswer {
  token: string;
  expires_at: string;
  device_id: string;
  grants: WorkloadIdentity['grants'];
  actions: WorkloadIdentity['actions'];
}

/** The 401 of a failed check: it names the check, never the token. */
function invalidWorkloadToken(check: string, message: string): LatchkeyError {
  return new LatchkeyError('invalid_workload_token', `The ID token failed the ${check} check: ${message}.`);
}

/** Exchanges an ID token; a `LatchkeyError` (401, 409, 400) when it may not. */
export async function exchangeWorkloadToken(
  deps: ExchangeDeps,
  input: ExchangeInput,
): Promise<ExchangeAnswer> {
  const { store } = deps;
  const organization = await store.organizations.getBySlug(input.organization);
  if (organization) checkNotRestoring(store, organization.id);
  const identity = organization && (await store.workloads.get(organization.id, input.identity));
  if (!organization || !identity)
    throw invalidWorkloadToken('identity', 'no such workload identity in that organization');
  const publicKey = enrollmentKey(input.public_key);
  const verified = await verifyIdToken(input.id_token, identity, deps.issuerKeys, deps.now()).catch(
    (error: unknown) => {
      if (error instanceof IdTokenRefusal) throw invalidWorkloadToken(error.check, error.message);
      throw error;
    },
  );
  return issue(deps, organization, identity, verified, publicKey);
}

/** Writes the exchange: the `jti` spent, the ephemeral device, the token and its event, in one unit of work. */
async function issue(
  deps: ExchangeDeps,
  organization: Organization,
  identity: WorkloadIdentity,
  verified: VerifiedIdToken,
  publicKey: string,
): Promise<ExchangeAnswer> {
  const nowMs = deps.now();
  const [at, expiresAt] = [nowMs, nowMs + identity.token_ttl_seconds * 1000].map((ms) =>
    new Date(ms).toISOString(),
  ) as [string, string];
  const token = WORKLOAD_TOKEN_PREFIX + generateApiToken().slice(TOKEN_PREFIX.length);
  const device: Device = {
    id: deps.ids('dev'),
    organization_id: organization.id,
    user: identity.id,
    name: `workload ${identity.name}`,
    public_key: publicKey,
    status: 'active',
    created_at: at,
    revoked_at: null,
    expires_at: expiresAt,
  };
  const record: WorkloadToken = {
    id: deps.ids('wlt'),
    organization_id: organization.id,
    identity_id: identity.id,
    token_hash: hashToken(token),
    device_id: device.id,
    created_at: at,
    expires_at: expiresAt,
  };
  await recordChange(
    deps.store,
    organization.id,
    async (tx) => {
      const issued = await tx.workloads.issue({
        token: record,
        device,
        issuer: identity.issuer,
        jti: verified.jti,
        jti_expires_at: new Date(verified.expiresAt).toISOString(),
        now: at,
        max_jtis: MAX_REMEMBERED_JTIS,
      });
      if (issued !== 'issued') throw issueRefusal(issued);
    },
    () =>
      eventDraft({
        id: deps.ids('evt'),
        occurred_at: at,
        organization: organization.slug,
        actor: { type: 'workload', id: identity.id },
        device_id: device.id,
        type: 'workload_token_issued',
        data: {
          identity: identity.name,
          iss: verified.iss,
          sub: verified.sub,
          aud: verified.aud,
          jti: verified.jti,
          claims: verified.claims,
          expires_at: expiresAt,
        },
      }),
  );
  return {
    token,
    expires_at: expiresAt,
    device_id: device.id,
    grants: identity.grants,
    actions: identity.actions,
  };
}

/** The answer to an exchange the store refused: nothing was written. */
function issueRefusal(result: Exclude<WorkloadIssueResult, 'issued'>): LatchkeyError {
  if (result === 'replayed')
    return new LatchkeyError('token_replayed', 'This ID token (its jti) was already exchanged.');
  if (result === 'identity_gone')
    return invalidWorkloadToken('identity', 'no such workload identity in that organization');
  return new LatchkeyError(
    'limit_exceeded',
    `More than ${MAX_REMEMBERED_JTIS} unexpired ID tokens of this issuer were exchanged; try again later. Nothing was issued.`,
  );
}
