/**
 * The staged restore part of the store conformance suite: one open session per organization (of two
 * begins at once, one stores its session and the other is answered with it; an expired one does not
 * count), parts whose sizes never add up past the limit even when sent at once (a part sent again
 * replaces its size), `end` dropping the session with every part, and `claim` marking a session
 * being applied once, which the sweep of expired sessions then leaves.
 */
import { emptyBackupCounts, type LatchkeyStore } from '@latchkey/core';
import type { RestoreSession } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';

export interface RestoreStoreFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

/** Later than any real clock in the tests, so a begin elsewhere in the same schema never expires these. */
const T0 = '2030-01-01T00:00:00.000Z';
const HOUR = 60 * 60 * 1000;
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const MANIFEST = {
  sha256: '0'.repeat(64),
  bytes: 10,
  counts: emptyBackupCounts(),
};

/** Registers the tests; `fixture` is read when each test runs. */
export function describeRestoreStoreTests(fixture: () => RestoreStoreFixture): void {
  async function organization() {
    const { store, id } = fixture();
    const orgId = id('org');
    await store.organizations.create({ id: orgId, slug: `rs-${orgId.slice(-8)}`, name: 'R', created_at: T0 });
    return orgId;
  }
  const session = (orgId: string, id: string, at = T0): RestoreSession => ({
    id,
    organization_id: orgId,
    user: 'owner',
    manifest: MANIFEST,
    force: false,
    created_at: at,
    expires_at: later(Date.parse(at) - Date.parse(T0) + 2 * HOUR),
  });

  it('restores: one open session per organization, even for two begins at once; an expired one does not count', async () => {
    const { store, id } = fixture();
    const orgId = await organization();
    const [a, b] = [session(orgId, id('rst')), session(orgId, id('rst'))];
    const answers = await Promise.all([store.restores.begin(a, T0), store.restores.begin(b, T0)]);
    expect(answers.filter((answer) => answer === null)).toHaveLength(1);
    const winner = answers[0] === null ? a : b;
    expect(answers.find((answer) => answer !== null)).toEqual(winner);
    expect(await store.restores.get(orgId, winner.id, T0)).toEqual(winner);
    expect(await store.restores.get(orgId, (winner === a ? b : a).id, T0)).toBeNull();
    // Another organization is not held up.
    const other = await organization();
    expect(await store.restores.begin(session(other, id('rst')), T0)).toBeNull();
    // Past its expiry, the open session is dropped with its parts by the next begin.
    expect(await store.restores.putPart(winner.id, 0, 'x', 1, 10)).toBe(1);
    const next = session(orgId, id('rst'), later(3 * HOUR));
    expect(await store.restores.begin(next, later(3 * HOUR))).toBeNull();
    expect(await store.restores.partStats(winner.id)).toEqual({ count: 0, maxIndex: -1 });
    await store.restores.end(next.id);
    expect(
      await store.restores.begin(session(orgId, id('rst'), later(3 * HOUR)), later(3 * HOUR)),
    ).toBeNull();
  });

  it('restores: parts never hold more than the limit, even sent at once; a part sent again replaces its size; end drops them', async () => {
    const { store, id } = fixture();
    const orgId = await organization();
    const open = session(orgId, id('rst'));
    expect(await store.restores.begin(open, T0)).toBeNull();
    expect(await store.restores.putPart(open.id, 0, 'aaaa', 4, 10)).toBe(4);
    // 4 + 5 + 5 > 10: of two parts sent at once, one is stored.
    const racing = await Promise.all([
      store.restores.putPart(open.id, 1, 'bbbbb', 5, 10),
      store.restores.putPart(open.id, 2, 'ccccc', 5, 10),
    ]);
    expect([...racing].sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual([9, 14]);
    expect(await store.restores.partStats(open.id)).toMatchObject({ count: 2 });
    // Part 0 again, smaller: its old size no longer counts, so the other part now fits.
    expect(await store.restores.putPart(open.id, 0, 'a', 1, 10)).toBe(6);
    const stored = racing[0] === 9 ? 1 : 2;
    expect(await store.restores.putPart(open.id, 3 - stored, 'ddd', 3, 10)).toBe(9);
    expect(await store.restores.putPart(open.id, 0, 'aaaaaaaaa', 9, 10)).toBe(17);
    // Read on a transaction's view, as the port asks.
    const parts = await store.transaction(async (tx) => {
      const read: string[] = [];
      for await (const part of tx.restores.parts(open.id)) read.push(part);
      return read;
    });
    expect(parts).toEqual(stored === 1 ? ['a', 'bbbbb', 'ddd'] : ['a', 'ddd', 'ccccc']);
    await store.restores.end(open.id);
    expect(await store.restores.partStats(open.id)).toEqual({ count: 0, maxIndex: -1 });
    expect(await store.restores.get(orgId, open.id, T0)).toBeNull();
    expect(await store.restores.putPart(open.id, 0, 'a', 1, 10)).toBeNull();
    await store.restores.end(open.id);
  });

  it('restores: a claim marks a session once, and an expired claimed session outlives the sweep of expired ones and the drop of its parts', async () => {
    const { store, id } = fixture();
    const orgId = await organization();
    const open = session(orgId, id('rst'));
    expect(await store.restores.begin(open, T0)).toBeNull();
    expect(await store.restores.claim(await organization(), open.id, T0)).toBeNull();
    // Of two claims at once, one marks it.
    const claims = await Promise.all([
      store.restores.claim(orgId, open.id, T0),
      store.restores.claim(orgId, open.id, T0),
    ]);
    expect(claims.filter((claim) => claim !== null)).toEqual([open]);
    expect(await store.restores.claim(orgId, open.id, T0)).toBeNull();
    // Past its expiry, another organization's begin sweeps expired sessions: not this one, being applied.
    await store.restores.putPart(open.id, 0, 'x', 1, 10);
    const after = later(3 * HOUR);
    expect(await store.restores.begin(session(await organization(), id('rst'), after), after)).toBeNull();
    expect(await store.restores.partStats(open.id)).toEqual({ count: 1, maxIndex: 0 });
    // Its parts dropped (as a restore in steps does once it has read them), the session stays.
    await store.restores.putPart(open.id, 1, 'y', 1, 10);
    await store.restores.dropParts(open.id);
    expect(await store.restores.partStats(open.id)).toEqual({ count: 0, maxIndex: -1 });
    expect(await store.restores.get(orgId, open.id, T0)).toMatchObject({ id: open.id });
    expect(await store.restores.claim(orgId, open.id, T0)).toBeNull();
    await store.restores.end(open.id);
    expect(await store.restores.partStats(open.id)).toEqual({ count: 0, maxIndex: -1 });
    // Ended, the organization may begin again (and that session may be claimed).
    const next = session(orgId, id('rst'), after);
    expect(await store.restores.begin(next, after)).toBeNull();
    expect(await store.restores.claim(orgId, next.id, after)).toEqual(next);
    await store.restores.end(next.id);
  });
}
