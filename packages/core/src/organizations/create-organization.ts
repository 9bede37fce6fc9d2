/**
 * Creating an organization: the caller becomes its owner and gets an owner token for it, shown once
 * (the caller's current token belongs to their current organization only). The organization, its
 * owner, the token and the three events that start the new organization's chain are one unit of work.
 */
import { type Acting, actingEvent } from '../activity/acting.js';
import { generateApiToken, hashToken } from '../auth/tokens.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { type Limits, limitExceeded } from '../model/limits.js';
import type { ApiToken, Organization } from '../model/model.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { LatchkeyStore, StoreTransaction } from '../store/types.js';

/** What creating an organization uses of the core. */
export interface CreateOrganizationDeps {
  store: LatchkeyStore;
  ids: IdGenerator;
  /** Whether the host lets users create organizations (core option `allowOrganizationCreation`). */
  allowOrganizationCreation: boolean;
  /** The per-user bound on organizations created. */
  limits: Pick<Limits, 'organizationsPerUser'>;
}

/** A create request, as the API validated it (`CreateOrganizationBody`). */
export interface CreateOrganizationInput {
  slug: string;
  /** Absent: the slug. */
  name?: string | undefined;
}

/** The new organization and its owner token, the token shown this once. */
export interface OrganizationCreated {
  organization: Organization;
  token: string;
}

/** The new organization and its owner's token record, as stored. */
interface NewRecords {
  organization: Organization;
  record: ApiToken;
}

/** Stores the organization under the per-user bound, its owner and token, and starts its chain. */
async function storeNew(
  tx: StoreTransaction,
  deps: Pick<CreateOrganizationDeps, 'ids' | 'limits'>,
  acting: Acting,
  { organization, record }: NewRecords,
): Promise<void> {
  const user = acting.principal.user;
  const max = deps.limits.organizationsPerUser;
  const created = await tx.organizations.create(organization, { user, max });
  if (created === 'exists') {
    throw new LatchkeyError('already_exists', `An organization ${organization.slug} already exists.`);
  }
  if (created === 'limit') {
    throw limitExceeded(
      `A user may create at most ${max} organizations on this server (limits.organizationsPerUser).`,
    );
  }
  await tx.members.create({
    organization_id: organization.id,
    user,
    role: 'owner',
    grants: [],
    created_at: acting.at,
  });
  await tx.tokens.create(record);
  // The new organization's chain starts with its own creation.
  const inNew = { organization: organization.slug };
  await tx.activity.append(
    organization.id,
    actingEvent(
      deps.ids,
      acting,
      'organization_created',
      { organization: organization.slug, name: organization.name },
      inNew,
    ),
  );
  await tx.activity.append(
    organization.id,
    actingEvent(deps.ids, acting, 'member_added', { user, role: 'owner', grants: [] }, inNew),
  );
  await tx.activity.append(
    organization.id,
    actingEvent(deps.ids, acting, 'token_created', { token_id: record.id, user, name: record.name }, inNew),
  );
}

/**
 * Creates an organization owned by the acting user. Refusals: 403 `forbidden` unless the host enables
 * it, 409 `already_exists` for a slug taken, 409 `limit_exceeded` past `limits.organizationsPerUser`
 * (then nothing is written).
 */
export async function createOrganization(
  deps: CreateOrganizationDeps,
  acting: Acting,
  input: CreateOrganizationInput,
): Promise<OrganizationCreated> {
  if (!deps.allowOrganizationCreation) {
    throw new LatchkeyError('forbidden', 'Creating organizations is not enabled on this server.');
  }
  const organization = {
    id: deps.ids('org'),
    slug: input.slug,
    name: input.name ?? input.slug,
    created_at: acting.at,
  };
  const token = generateApiToken();
  const record = {
    id: deps.ids('tok'),
    organization_id: organization.id,
    user: acting.principal.user,
    name: 'created with the organization',
    token_hash: hashToken(token),
    created_at: acting.at,
    revoked_at: null,
  };
  await deps.store.transaction((tx) => storeNew(tx, deps, acting, { organization, record }));
  return { organization, token };
}
