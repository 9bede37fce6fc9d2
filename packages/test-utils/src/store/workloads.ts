/**
 * Workload identity's part of the store conformance suite: identities unique by name and bounded
 * even when creates race; an exchange spends its `jti` once even when two race, refuses past the
 * bound of remembered `jti`s and once its identity is gone, writing nothing then; deleting an
 * identity removes its tokens and revokes their devices in one step.
 */
import type { Device, LatchkeyStore, WorkloadIdentity, WorkloadIssue } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';

export interface WorkloadFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const at = '2026-12-01T00:00:00.000Z';
const later = '2026-12-01T00:15:00.000Z';

async function organization(store: LatchkeyStore, id: (prefix: string) => string): Promise<string> {
  const organizationId = id('org');
  await store.organizations.create({
    id: organizationId,
    slug: `wl-${organizationId}`,
    name: 'W',
    created_at: at,
  });
  return organizationId;
}

const identity = (organizationId: string, id: string, name: string): WorkloadIdentity => ({
  id,
  organization_id: organizationId,
  name,
  issuer: 'https://token.actions.githubusercontent.com',
  audience: 'https://latchkey.example',
  subject: 'repo:acme/web:ref:refs/heads/main',
  claims: { repository_id: '1' },
  grants: [{ project: 'web', environments: ['prod'] }],
  actions: ['secrets:read', 'secrets:push'],
  token_ttl_seconds: 900,
  created_at: at,
});

function issue(
  who: WorkloadIdentity,
  id: (prefix: string) => string,
  jti: string,
  maxJtis = 10_000,
): WorkloadIssue {
  const device: Device = {
    id: id('dev'),
    organization_id: who.organization_id,
    user: who.id,
    name: `workload ${who.name}`,
    public_key: Buffer.alloc(32, 9).toString('base64url'),
    status: 'active',
    created_at: at,
    revoked_at: null,
    expires_at: later,
  };
  return {
    token: {
      id: id('wlt'),
      organization_id: who.organization_id,
      identity_id: who.id,
      token_hash: id('hash'),
      device_id: device.id,
      created_at: at,
      expires_at: later,
    },
    device,
    issuer: who.issuer,
    jti,
    jti_expires_at: later,
    now: at,
    max_jtis: maxJtis,
  };
}

/** Registers the tests; `fixture` is read when each test runs. */
export function describeWorkloadStoreTests(fixture: () => WorkloadFixture): void {
  it('workload identities: unique by name, bounded when creates race, found by name or id', async () => {
    const { store, id } = fixture();
    const org = await organization(store, id);
    const first = identity(org, id('wid'), 'ci');
    expect(await store.workloads.create(first, 3)).toBe('created');
    expect(await store.workloads.create(identity(org, id('wid'), 'ci'), 3)).toBe('duplicate');
    const raced = await Promise.all(
      [1, 2, 3, 4].map((n) => store.workloads.create(identity(org, id('wid'), `ci-${n}`), 3)),
    );
    expect(raced.filter((r) => r === 'created')).toHaveLength(2);
    expect(raced.filter((r) => r === 'limit')).toHaveLength(2);
    expect(await store.workloads.get(org, 'ci')).toEqual(first);
    expect(await store.workloads.get(org, first.id)).toEqual(first);
    expect(await store.workloads.get(await organization(store, id), first.id)).toBeNull();
    const created = ['ci', ...[1, 2, 3, 4].filter((_n, i) => raced[i] === 'created').map((n) => `ci-${n}`)];
    expect((await store.workloads.list(org)).map((i) => i.name)).toEqual(created.sort());
  });

  it('workload exchange: a jti is spent once even when exchanges race; refused ones write nothing', async () => {
    const { store, id } = fixture();
    const org = await organization(store, id);
    const who = identity(org, id('wid'), 'ci');
    await store.workloads.create(who, 10);
    const raced = await Promise.all([1, 2, 3].map(() => store.workloads.issue(issue(who, id, 'jti-1'))));
    expect(raced.sort()).toEqual(['issued', 'replayed', 'replayed']);
    // The bound counts the issuer's unexpired jtis; one at the bound is refused and writes nothing.
    const refused = issue(who, id, 'jti-2', 1);
    expect(await store.workloads.issue(refused)).toBe('jti_limit');
    expect(await store.workloads.findToken(refused.token.token_hash)).toBeNull();
    expect(await store.devices.get(org, refused.device.id)).toBeNull();
    // Expired jtis are forgotten first: the same bound then has room.
    const afterExpiry = { ...issue(who, id, 'jti-3', 1), now: '2026-12-01T01:00:00.000Z' };
    expect(await store.workloads.issue(afterExpiry)).toBe('issued');
    const found = await store.workloads.findToken(afterExpiry.token.token_hash);
    expect(found).toEqual({ token: afterExpiry.token, identity: who });
    expect(await store.devices.get(org, afterExpiry.device.id)).toMatchObject({
      expires_at: later,
      user: who.id,
    });
    // A jti remembered past its expiry counts as forgotten: given again, it is spent again.
    const again = { ...issue(who, id, 'jti-3', 1), now: '2026-12-01T02:00:00.000Z' };
    expect(await store.workloads.issue(again)).toBe('issued');
    expect(await store.workloads.findToken(again.token.token_hash)).not.toBeNull();
    expect(await store.workloads.issue({ ...issue(who, id, 'jti-3'), now: at })).toBe('replayed');
  });

  it('workload identities: removal takes the tokens with it and revokes their devices; then issue refuses', async () => {
    const { store, id } = fixture();
    const org = await organization(store, id);
    const who = identity(org, id('wid'), 'ci');
    await store.workloads.create(who, 10);
    const issued = issue(who, id, 'jti-r');
    expect(await store.workloads.issue(issued)).toBe('issued');
    expect(await store.workloads.remove(org, 'ci', later)).toEqual(who);
    expect(await store.workloads.remove(org, 'ci', later)).toBeNull();
    expect(await store.workloads.findToken(issued.token.token_hash)).toBeNull();
    expect(await store.devices.get(org, issued.device.id)).toMatchObject({
      status: 'revoked',
      revoked_at: later,
    });
    const again = issue(who, id, 'jti-s');
    expect(await store.workloads.issue(again)).toBe('identity_gone');
    expect(await store.devices.get(org, again.device.id)).toBeNull();
  });
}
