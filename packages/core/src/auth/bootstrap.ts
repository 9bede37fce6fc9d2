/** The bootstrap of an organization with an owner and a known token (example servers, tests). */
import type { Organization } from '../model/model.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { LatchkeyStore } from '../store/types.js';
import { hashToken } from './tokens.js';

/** Creates (or finds) an organization with an owner whose API token is `input.token`. Idempotent. */
export async function bootstrapOrganization(
  store: LatchkeyStore,
  services: { now(): number; ids: IdGenerator },
  input: BootstrapOptions,
): Promise<Organization> {
  const at = new Date(services.now()).toISOString();
  const candidate: Organization = {
    id: services.ids('org'),
    slug: input.organization,
    name: input.name ?? input.organization,
    created_at: at,
  };
  // One unit of work: a crash half-way never leaves an organization without its owner.
  return store.transaction(async (tx) => {
    await tx.organizations.create(candidate);
    const org = (await tx.organizations.getBySlug(input.organization))!;
    await tx.members.create({
      organization_id: org.id,
      user: input.user,
      role: 'owner',
      grants: [],
      created_at: at,
    });
    const tokenHash = hashToken(input.token);
    if (!(await tx.tokens.findByHash(tokenHash))) {
      await tx.tokens.create({
        id: services.ids('tok'),
        organization_id: org.id,
        user: input.user,
        name: 'bootstrap',
        token_hash: tokenHash,
        created_at: at,
        revoked_at: null,
      });
    }
    return org;
  });
}

/** The bootstrap of an organization with an owner and a known token (example servers, tests). */
export interface BootstrapOptions {
  organization: string;
  name?: string;
  user: string;
  token: string;
}
