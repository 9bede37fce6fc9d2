/**
 * The request part of the store conformance suite: the records one request needs (organization,
 * member, token, device, environment) resolved in one step exactly as the single lookups answer
 * them, and revocations of devices and tokens, idempotent and scoped to their organization.
 */
import type { LatchkeyStore } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';

export interface RequestFixture {
  store: LatchkeyStore;
  /** An organization with project `web` and its environment `prod`. */
  orgId: string;
  id(prefix: string): string;
  /** The time the suite's records are made at. */
  at: string;
}

/** Registers the request tests; `fixture` is read when each test runs. */
export function describeRequestStoreTests(fixture: () => RequestFixture): void {
  resolveTests(fixture);

  concurrentAndRevokeTests(fixture);
}

/** A request’s records resolved in one step, exactly as the single lookups. */
function resolveTests(fixture: () => RequestFixture): void {
  it('resolves the records of a request in one step, exactly as the single lookups', async () => {
    const { store, orgId, id, at } = fixture();
    const org = (await store.organizations.getById(orgId))!;
    const tokenHash = id('hash').padEnd(64, '0');
    await store.members.create({
      organization_id: orgId,
      user: 'resolver',
      role: 'developer',
      grants: [{ project: 'web', environments: ['prod'] }],
      created_at: at,
    });
    await store.tokens.create({
      id: id('tok'),
      organization_id: orgId,
      user: 'resolver',
      name: 'ci',
      token_hash: tokenHash,
      created_at: at,
      revoked_at: null,
    });
    const all = await store.requests.resolve({
      tokenHash,
      organization: org.slug,
      project: 'web',
      environment: 'prod',
    });
    const project = (await store.projects.get(orgId, 'web'))!;
    expect(all).toEqual({
      token: await store.tokens.findByHash(tokenHash),
      member: await store.members.get(orgId, 'resolver'),
      organization: org,
      project,
      environment: await store.environments.get(project.id, 'prod'),
    });
    expect(all.member?.grants).toEqual([{ project: 'web', environments: ['prod'] }]);
    // Nothing named, or names that match nothing: nulls, never another record.
    const none = { token: null, member: null, organization: null, project: null, environment: null };
    expect(await store.requests.resolve({})).toEqual(none);
    expect(
      await store.requests.resolve({
        tokenHash: 'f'.repeat(64),
        organization: 'no-such-org',
        project: 'web',
      }),
    ).toEqual(none);
    // A project is looked up in the named organization only; an environment in the named project only.
    const otherOrg = id('org');
    const otherSlug = `other-${otherOrg.slice(-8)}`;
    await store.organizations.create({
      id: otherOrg,
      slug: otherSlug,
      name: 'Other',
      created_at: at,
    });
    const elsewhere = await store.requests.resolve({
      organization: otherSlug,
      project: 'web',
      environment: 'prod',
    });
    expect(elsewhere).toEqual({ ...none, organization: (await store.organizations.getById(otherOrg))! });
    const noEnv = await store.requests.resolve({
      organization: org.slug,
      project: 'web',
      environment: 'nope',
    });
    expect(noEnv.project).toEqual(project);
    expect(noEnv.environment).toBeNull();
    // A device, when named, is looked up in the named organization only, as devices.get does.
    const deviceId = id('dev');
    await store.devices.create({
      id: deviceId,
      organization_id: orgId,
      user: 'resolver',
      name: 'laptop',
      public_key: 'k',
      status: 'active',
      created_at: at,
      revoked_at: null,
    });
    const withDevice = await store.requests.resolve({ tokenHash, organization: org.slug, device: deviceId });
    expect(withDevice.device).toEqual(await store.devices.get(orgId, deviceId));
    expect(withDevice.device?.id).toBe(deviceId);
    expect((await store.requests.resolve({ organization: otherSlug, device: deviceId })).device).toBeNull();
    expect((await store.requests.resolve({ organization: org.slug, device: id('dev') })).device).toBeNull();
    expect(await store.requests.resolve({ organization: org.slug })).not.toHaveProperty('device');
    // A revoked token is returned as it is: core refuses it.
    const revokedAt = '2026-11-23T00:00:00.000Z';
    await store.tokens.revoke(orgId, all.token!.id, revokedAt);
    expect((await store.requests.resolve({ tokenHash })).token?.revoked_at).toBe(revokedAt);
  });
}

/** Lookups made at the same moment, and revocations. */
function concurrentAndRevokeTests(fixture: () => RequestFixture): void {
  it('answers lookups made at the same moment each with its own records, as when made one by one', async () => {
    const { store, orgId, id, at } = fixture();
    const org = (await store.organizations.getById(orgId))!;
    const hashes = [0, 1, 2].map((i) => id(`hash${i}`).padEnd(64, '0'));
    for (const [i, tokenHash] of hashes.entries()) {
      await store.members.create({
        organization_id: orgId,
        user: `batch-${i}`,
        role: i === 0 ? 'admin' : 'developer',
        grants: i === 2 ? [{ project: 'web', environments: ['prod'] }] : [],
        created_at: at,
      });
      await store.tokens.create({
        id: id(`tok${i}`),
        organization_id: orgId,
        user: `batch-${i}`,
        name: `t${i}`,
        token_hash: tokenHash,
        created_at: at,
        revoked_at: null,
      });
    }
    const deviceId = id('dev');
    await store.devices.create({
      id: deviceId,
      organization_id: orgId,
      user: 'batch-1',
      name: 'laptop',
      public_key: 'k',
      status: 'active',
      created_at: at,
      revoked_at: null,
    });
    // Different tokens, slugs that match and that do not, with and without a device, repeated.
    const keys = [
      { tokenHash: hashes[0], organization: org.slug, project: 'web', environment: 'prod' },
      { tokenHash: hashes[1], organization: org.slug, device: deviceId },
      { tokenHash: hashes[2], organization: org.slug, project: 'web', environment: 'nope' },
      {},
      { tokenHash: 'e'.repeat(64), organization: 'no-such-org', project: 'web', device: deviceId },
      { tokenHash: hashes[1], organization: org.slug, project: 'nope', device: id('dev') },
    ];
    const all = [...keys, ...keys.slice().reverse(), ...keys];
    const oneByOne = [];
    for (const k of all) oneByOne.push(await store.requests.resolve(k));
    expect(await Promise.all(all.map((k) => store.requests.resolve(k)))).toEqual(oneByOne);
    expect(oneByOne[0]!.member?.user).toBe('batch-0');
    expect(oneByOne[1]!.device?.id).toBe(deviceId);
    expect(oneByOne[2]!.member?.user).toBe('batch-2');
    expect(oneByOne[0]).not.toHaveProperty('device');
  });

  it('revokes devices and tokens idempotently and scopes them to their organization', async () => {
    const { store, orgId, id, at } = fixture();
    const deviceId = id('dev');
    await store.devices.create({
      id: deviceId,
      organization_id: orgId,
      user: 'a',
      name: 'laptop',
      public_key: 'k',
      status: 'active',
      created_at: at,
      revoked_at: null,
    });
    expect(await store.devices.revoke('org_someone_else', deviceId, at)).toBeNull();
    expect((await store.devices.revoke(orgId, deviceId, at))!.status).toBe('revoked');
    expect((await store.devices.revoke(orgId, deviceId, '2030-01-01T00:00:00.000Z'))!.revoked_at).toBe(at);
    expect(await store.devices.list(orgId, 'nobody')).toEqual([]);
  });
}
