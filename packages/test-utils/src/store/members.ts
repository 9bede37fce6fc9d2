/**
 * The member-lifecycle part of the store conformance suite: changes and removals keep the last owner,
 * even when owners demote or remove each other at the same moment, and a member's tokens and devices
 * can be revoked at once.
 */
import type { LatchkeyStore, Role } from '@latchkey/core';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';

/** What the member tests need: a store and a way to make fresh organizations. */
export interface MemberFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const at = '2026-11-22T00:00:00.000Z';

async function organizationWith(fixture: MemberFixture, members: [string, Role][]): Promise<string> {
  const { store, id } = fixture;
  const orgId = id('org');
  await store.organizations.create({ id: orgId, slug: orgId.replace('_', '-'), name: 'Org', created_at: at });
  for (const [user, role] of members) {
    await store.members.create({ organization_id: orgId, user, role, grants: [], created_at: at });
  }
  return orgId;
}

/** Registers the member-lifecycle tests; `fixture` is read when each test runs. */
export function describeMemberTests(fixture: () => MemberFixture): void {
  it('members: update changes role and grants, and never demotes the last owner', async () => {
    const { store } = fixture();
    const orgId = await organizationWith(fixture(), [
      ['olga', 'owner'],
      ['dev', 'developer'],
    ]);
    const grants = [{ project: 'web', environments: ['staging'] }];
    const changed = await store.members.update(orgId, 'dev', { role: 'viewer', grants });
    expect(changed).toMatchObject({
      ok: true,
      before: { role: 'developer', grants: [] },
      member: { role: 'viewer', grants },
    });
    expect(await store.members.get(orgId, 'dev')).toMatchObject({ role: 'viewer', grants });
    expect(await store.members.update(orgId, 'olga', { role: 'admin' })).toEqual({
      ok: false,
      reason: 'last_owner',
    });
    expect(await store.members.update(orgId, 'nobody', { role: 'admin' })).toEqual({
      ok: false,
      reason: 'not_found',
    });
    expect((await store.members.get(orgId, 'olga'))!.role).toBe('owner');
    // An owner may stay an owner (grants only), and a second owner makes demotion possible.
    expect((await store.members.update(orgId, 'olga', { grants: [] })).ok).toBe(true);
    expect((await store.members.update(orgId, 'dev', { role: 'owner' })).ok).toBe(true);
    expect((await store.members.update(orgId, 'olga', { role: 'admin' })).ok).toBe(true);
  });

  it('members: remove deletes the member, and never the last owner', async () => {
    const { store } = fixture();
    const orgId = await organizationWith(fixture(), [
      ['olga', 'owner'],
      ['dev', 'developer'],
    ]);
    expect(await store.members.remove(orgId, 'dev')).toMatchObject({ ok: true, member: { user: 'dev' } });
    expect(await store.members.get(orgId, 'dev')).toBeNull();
    expect(await store.members.remove(orgId, 'dev')).toEqual({ ok: false, reason: 'not_found' });
    expect(await store.members.remove(orgId, 'olga')).toEqual({ ok: false, reason: 'last_owner' });
    expect(await store.members.get(orgId, 'olga')).not.toBeNull();
  });

  it('members: owners demoting and removing each other at once always leave one owner', async () => {
    const { store } = fixture();
    for (let round = 0; round < 5; round++) {
      const orgId = await organizationWith(fixture(), [
        ['a', 'owner'],
        ['b', 'owner'],
        ['c', 'owner'],
      ]);
      const results = await Promise.all([
        store.members.update(orgId, 'a', { role: 'admin' }),
        store.members.remove(orgId, 'b'),
        store.transaction((tx) => tx.members.update(orgId, 'c', { role: 'viewer' })),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(2);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'last_owner' }]);
      const owners = (await store.members.list(orgId)).filter((m) => m.role === 'owner');
      expect(owners).toHaveLength(1);
    }
  });

  it('members: revokeAllOf revokes every live token and device of one member only', async () => {
    const { store, id } = fixture();
    const orgId = await organizationWith(fixture(), [
      ['olga', 'owner'],
      ['dev', 'developer'],
    ]);
    for (const user of ['dev', 'dev', 'olga']) {
      await store.tokens.create({
        id: id('tok'),
        organization_id: orgId,
        user,
        name: 't',
        token_hash: id('hash').padEnd(64, '0'),
        created_at: at,
        revoked_at: null,
      });
      await store.devices.create({
        id: id('dev'),
        organization_id: orgId,
        user,
        name: 'd',
        public_key: 'k',
        status: 'active',
        created_at: at,
        revoked_at: null,
      });
    }
    const later = '2026-11-23T00:00:00.000Z';
    expect(await store.tokens.revokeAllOf(orgId, 'dev', later)).toBe(2);
    expect(await store.devices.revokeAllOf(orgId, 'dev', later)).toBe(2);
    expect(await store.tokens.revokeAllOf(orgId, 'dev', later)).toBe(0);
    expect(await store.devices.revokeAllOf('org_other', 'olga', later)).toBe(0);
    const tokens = await store.tokens.list(orgId);
    expect(tokens.filter((t) => t.revoked_at === later).map((t) => t.user)).toEqual(['dev', 'dev']);
    expect(tokens.find((t) => t.user === 'olga')!.revoked_at).toBeNull();
    const devices = await store.devices.list(orgId);
    expect(devices.filter((d) => d.status === 'revoked').map((d) => d.user)).toEqual(['dev', 'dev']);
  });
}
