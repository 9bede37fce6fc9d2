/**
 * The unit-of-work part of the store conformance suite: `store.transaction(fn)` is all or nothing,
 * sees its own writes, and serialises with other transactions.
 */
import type { LatchkeyStore } from '@latchkey/core';
import type { ActivityDraft } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import { pushTemplate } from './push-template.js';

/** What the transaction tests need from the suite: a store with one organization and environment. */
export interface TransactionFixture {
  store: LatchkeyStore;
  orgId: string;
  envId: string;
  id(prefix: string): string;
  draft(organization: string, type?: string): ActivityDraft;
}

const at = '2026-11-22T00:00:00.000Z';

class Boom extends Error {}

/** Registers the transaction tests; `fixture` is read when each test runs. */
export function describeTransactionTests(fixture: () => TransactionFixture): void {
  it('transaction: a thrown error writes nothing, activity, nonces and pushes included', async () => {
    const { store, orgId, envId, id, draft } = fixture();
    const before = await store.activity.list({ organizationId: orgId, limit: 1 });
    const projectId = id('prj');
    const failed = store.transaction(async (tx) => {
      await tx.projects.create({
        id: projectId,
        organization_id: orgId,
        slug: 'doomed',
        name: 'd',
        created_at: at,
      });
      await tx.members.create({
        organization_id: orgId,
        user: 'doomed',
        role: 'viewer',
        grants: [],
        created_at: at,
      });
      expect(await tx.nonces.consume('tx-scope', 'doomed-nonce', Date.now() + 60_000, Date.now())).toBe(true);
      const pushed = await tx.secrets.applyPush({
        organizationId: orgId,
        environmentId: envId,
        changes: [{ key: 'TX_DOOMED', value: 'v', if_version: 0 }],
        force: false,
        now: at,
        eventTemplate: pushTemplate(id('evt'), orgId, at),
      });
      expect(pushed.ok).toBe(true);
      await tx.activity.append(orgId, draft(orgId, 'project_created'));
      throw new Boom('roll back');
    });
    await expect(failed).rejects.toBeInstanceOf(Boom);
    expect(await store.projects.get(orgId, 'doomed')).toBeNull();
    expect(await store.members.get(orgId, 'doomed')).toBeNull();
    expect((await store.secrets.listLive(envId)).some((s) => s.key === 'TX_DOOMED')).toBe(false);
    expect(await store.nonces.consume('tx-scope', 'doomed-nonce', Date.now() + 60_000, Date.now())).toBe(
      true,
    );
    expect(await store.activity.list({ organizationId: orgId, limit: 1 })).toEqual(before);
    // The chain goes on from where it was: the next event takes the rolled-back seq.
    const next = await store.activity.append(orgId, draft(orgId));
    expect(next.seq).toBe((before[0]?.seq ?? 0) + 1);
  });

  it('transaction: reads inside see its own writes, and the result of fn is returned', async () => {
    const { store, orgId, id } = fixture();
    const result = await store.transaction(async (tx) => {
      await tx.projects.create({
        id: id('prj'),
        organization_id: orgId,
        slug: 'seen',
        name: 's',
        created_at: at,
      });
      return (await tx.projects.get(orgId, 'seen'))?.slug;
    });
    expect(result).toBe('seen');
    expect(await store.projects.get(orgId, 'seen')).not.toBeNull();
  });

  it('transaction: concurrent transactions never see or leave half of another', async () => {
    const { store, orgId, envId, id } = fixture();
    const seed = await store.secrets.applyPush({
      organizationId: orgId,
      environmentId: envId,
      changes: [{ key: 'TX_COUNTER', value: '0' }],
      force: false,
      now: at,
      eventTemplate: pushTemplate(id('evt'), orgId, at),
    });
    expect(seed.ok).toBe(true);
    // Each unit of work reads the counter, yields, then writes it + 1 (compare-and-set on the version
    // it read) together with a marker of its own; on a conflict it throws, which must undo both
    // writes, and tries again. A lost update, a half-applied unit or a leftover marker shows at the end.
    let conflicts = 0;
    const increment = async (i: number) => {
      for (;;) {
        try {
          await store.transaction(async (tx) => {
            const current = (await tx.secrets.listLive(envId)).find((s) => s.key === 'TX_COUNTER')!;
            await new Promise((resolve) => setTimeout(resolve, 1));
            const marked = await tx.secrets.applyPush({
              organizationId: orgId,
              environmentId: envId,
              changes: [{ key: `TX_MARK_${i}`, value: current.value }],
              force: false,
              now: at,
              eventTemplate: pushTemplate(id('evt'), orgId, at),
            });
            expect(marked.ok).toBe(true);
            const next = String(Number(current.value) + 1);
            const result = await tx.secrets.applyPush({
              organizationId: orgId,
              environmentId: envId,
              changes: [{ key: 'TX_COUNTER', value: next, if_version: current.version }],
              force: false,
              now: at,
              eventTemplate: pushTemplate(id('evt'), orgId, at),
            });
            if (!result.ok) throw new Boom('someone else incremented first');
          });
          return;
        } catch (error) {
          if (!(error instanceof Boom)) throw error;
          conflicts++;
        }
      }
    };
    // A store that sequences in batches leaves pushes' events pending until a seal (as core does after each push).
    await store.activity.sealPending?.(orgId);
    const before = (await store.activity.list({ organizationId: orgId, limit: 1 }))[0]!.seq;
    await Promise.all(Array.from({ length: 10 }, (_, i) => increment(i)));
    await store.activity.sealPending?.(orgId);
    const live = await store.secrets.listLive(envId);
    expect(live.find((s) => s.key === 'TX_COUNTER')!.value).toBe('10');
    const marks = live.filter((s) => s.key.startsWith('TX_MARK_'));
    // Every marker was written once, by the attempt that also incremented (version 1 each), and
    // the values it recorded are the ten distinct counter values 0..9.
    expect(marks.map((m) => m.version)).toEqual(Array(10).fill(1));
    expect(marks.map((m) => Number(m.value)).sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    // Two events per committed unit, none for the undone attempts.
    const after = (await store.activity.list({ organizationId: orgId, limit: 1 }))[0]!.seq;
    expect(after - before).toBe(20);
    expect(conflicts).toBeLessThan(1000);
  });
}
