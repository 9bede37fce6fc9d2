/**
 * The services of members, tokens and devices on the memory store, called as the routes call them:
 * a refusal writes nothing and records nothing, a change is recorded once with the caller as actor.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Acting } from '../activity/acting.js';
import type { Principal } from '../auth/permissions.js';
import { createMemoryStore } from '../memory/index.js';
import type { Role } from '../model/roles.js';
import type { LatchkeyStore } from '../store/types.js';
import { addMember } from './add-member.js';
import { changeMember } from './change-member.js';
import { createToken } from './create-token.js';
import type { OrganizationDeps } from './deps.js';
import { enrollDevice } from './enroll-device.js';
import { removeMember } from './remove-member.js';
import { revokeDevice } from './revoke-device.js';

const AT = '2026-03-01T12:00:00.000Z';
const ORG = { id: 'org_1', slug: 'acme', name: 'Acme', created_at: AT };
/** A real Ed25519 public key, raw and base64url, as a device enrolls it. */
const PUBLIC_KEY = (generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as { x: string }).x;

/** The caller `user` with `role`, acting on the organization at `AT`. */
function actingAs(user: string, role: Role): Acting {
  const principal: Principal = { organizationId: ORG.id, user, role, grants: [] };
  return { principal, organization: ORG, at: AT };
}

/** A store with an owner, an admin and a developer, and the deps the services use, ids counted. */
async function world(wrap: (store: LatchkeyStore) => LatchkeyStore = (s) => s) {
  const store = createMemoryStore();
  await store.organizations.create(ORG);
  for (const [user, role] of [
    ['usr_owner', 'owner'],
    ['usr_admin', 'admin'],
    ['usr_dev', 'developer'],
  ] as const) {
    await store.members.create({ organization_id: ORG.id, user, role, grants: [], created_at: AT });
  }
  let next = 0;
  const deps: OrganizationDeps = { store: wrap(store), ids: (prefix) => `${prefix}_${++next}` };
  const events = async () =>
    (await store.activity.list({ organizationId: ORG.id, oldestFirst: true, limit: 100 })).map((e) => ({
      type: e.type,
      actor: e.actor,
      data: e.data,
    }));
  return { store, deps, events };
}

describe('changeMember', () => {
  it('re-checks the member as the transaction reads it: promoted meanwhile, it is refused and undone', async () => {
    // Between the first read and the transaction, someone makes the developer an owner.
    const { store, deps, events } = await world((inner) => ({
      ...inner,
      async transaction(fn) {
        await inner.members.update(ORG.id, 'usr_dev', { role: 'owner' });
        return inner.transaction(fn);
      },
    }));
    const change = changeMember(deps, actingAs('usr_admin', 'admin'), 'usr_dev', { role: 'viewer' });
    await expect(change).rejects.toMatchObject({ code: 'forbidden' });
    expect((await store.members.get(ORG.id, 'usr_dev'))?.role).toBe('owner');
    expect(await events()).toEqual([]);
  });

  it('records the role and grants, from and to, acted by the caller', async () => {
    const { deps, events } = await world();
    const member = await changeMember(deps, actingAs('usr_admin', 'admin'), 'usr_dev', { role: 'admin' });
    expect(member).toMatchObject({ user: 'usr_dev', role: 'admin', grants: [] });
    expect(await events()).toEqual([
      {
        type: 'member_updated',
        actor: { type: 'user', id: 'usr_admin' },
        data: { user: 'usr_dev', role: { from: 'developer', to: 'admin' }, grants: { from: [], to: [] } },
      },
    ]);
  });

  it('never demotes the last owner', async () => {
    const { deps, events } = await world();
    const change = changeMember(deps, actingAs('usr_owner', 'owner'), 'usr_owner', { role: 'admin' });
    await expect(change).rejects.toMatchObject({ code: 'last_owner' });
    expect(await events()).toEqual([]);
  });
});

describe('removeMember', () => {
  it('revokes the member’s tokens and devices with them, in the event it records', async () => {
    const { store, deps, events } = await world();
    const dev = actingAs('usr_dev', 'developer');
    const { record } = await createToken(deps, actingAs('usr_admin', 'admin'), {
      user: 'usr_dev',
      name: 'ci',
    });
    const device = await enrollDevice(deps, dev, { name: 'laptop', public_key: PUBLIC_KEY });
    const removed = await removeMember(deps, actingAs('usr_admin', 'admin'), 'usr_dev');
    expect(removed).toEqual({ user: 'usr_dev', role: 'developer', tokens_revoked: 1, devices_revoked: 1 });
    expect((await store.tokens.list(ORG.id)).find((t) => t.id === record.id)?.revoked_at).toBe(AT);
    expect((await store.devices.get(ORG.id, device.id))?.status).toBe('revoked');
    expect((await events()).at(-1)).toEqual({
      type: 'member_removed',
      actor: { type: 'user', id: 'usr_admin' },
      data: removed,
    });
  });

  it('refuses a member ranked above the caller and writes nothing', async () => {
    const { store, deps, events } = await world();
    await expect(removeMember(deps, actingAs('usr_admin', 'admin'), 'usr_owner')).rejects.toMatchObject({
      code: 'forbidden',
      message: 'Your role (admin) cannot remove a owner.',
    });
    expect(await store.members.get(ORG.id, 'usr_owner')).toBeDefined();
    expect(await events()).toEqual([]);
  });
});

describe('addMember, createToken, revokeDevice', () => {
  it('refuse what ranks above the caller, recording nothing', async () => {
    const { deps, events } = await world();
    const admin = actingAs('usr_admin', 'admin');
    const owner = actingAs('usr_owner', 'owner');
    const ownersDevice = await enrollDevice(deps, owner, { name: 'desk', public_key: PUBLIC_KEY });
    const before = await events();
    await expect(addMember(deps, admin, { user: 'usr_new', role: 'owner' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(createToken(deps, admin, { user: 'usr_owner', name: 'x' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(revokeDevice(deps, admin, ownersDevice.id)).rejects.toMatchObject({ code: 'forbidden' });
    expect(await events()).toEqual(before);
  });

  it('answers someone else’s device as missing without devices:manage_all', async () => {
    const { deps } = await world();
    const device = await enrollDevice(deps, actingAs('usr_admin', 'admin'), {
      name: 'd',
      public_key: PUBLIC_KEY,
    });
    await expect(revokeDevice(deps, actingAs('usr_dev', 'developer'), device.id)).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
