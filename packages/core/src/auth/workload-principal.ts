/**
 * Authentication by a workload token (`lkw_…`, from `POST /workload-tokens`): the token, its
 * identity and the records the path names, read together. Workload tokens are the core's own
 * credentials, so they authenticate the same whether or not the host brings its own authentication.
 */
import { LatchkeyError } from '../errors/latchkey-error.js';
import { checkNotRestoring } from '../health/restoring.js';
import type { LatchkeyStore, RequestKeys, RequestRecords } from '../store/types.js';
import type { Principal } from './permissions.js';
import { hashToken } from './tokens.js';

/** The principal of a workload token, or a 401 `unauthenticated` (unknown, expired or its identity deleted). */
export async function authenticateWorkload(
  token: string,
  store: LatchkeyStore,
  keys: Omit<RequestKeys, 'tokenHash'>,
  nowMs: number,
): Promise<{ principal: Principal; records: RequestRecords }> {
  const [found, records] = await Promise.all([
    store.workloads.findToken(hashToken(token)),
    store.requests.resolve(keys),
  ]);
  if (!found) throw new LatchkeyError('unauthenticated', 'The credential is not valid.');
  if (Date.parse(found.token.expires_at) <= nowMs)
    throw new LatchkeyError('unauthenticated', 'The workload token has expired; exchange a new ID token.');
  checkNotRestoring(store, found.token.organization_id);
  const { identity } = found;
  return {
    principal: {
      organizationId: identity.organization_id,
      user: identity.id,
      // The lowest rank: a workload never acts on members, and its actions decide the rest.
      role: 'viewer',
      grants: identity.grants,
      workload: { identityId: identity.id, deviceId: found.token.device_id, actions: identity.actions },
    },
    records,
  };
}
