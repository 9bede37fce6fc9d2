/**
 * The re-encrypt routine's part of the store conformance suite: a keyset walk over every stored
 * secret value that sees each live key exactly once whatever the page size (deleted keys skipped),
 * and compare-and-set replacements of values and signing secrets that lose to a write in between.
 */
import type { LatchkeyStore, StoredValue } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import { createEnvironment, createProject } from './org-environment.js';
import { pushTemplate } from './push-template.js';

export interface SealedValueFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const T0 = '2026-11-23T00:00:00.000Z';

/** Registers the tests; `fixture` is read when each test runs. */
export function describeSealedValueTests(fixture: () => SealedValueFixture): void {
  async function setUp() {
    const { store, id } = fixture();
    const orgId = id('org');
    await store.organizations.create({ id: orgId, slug: `sv-${orgId.slice(-8)}`, name: 'S', created_at: T0 });
    const projectId = await createProject(store, id, orgId, T0);
    const envIds: string[] = [];
    for (const slug of ['dev', 'prod'])
      envIds.push(await createEnvironment(store, id, orgId, projectId, T0, slug));
    const push = async (envId: string, changes: { key: string; value: string | null }[]) => {
      const result = await store.secrets.applyPush({
        organizationId: orgId,
        environmentId: envId,
        changes,
        force: false,
        now: T0,
        eventTemplate: pushTemplate(id('evt'), 'sv', T0, { actor: { type: 'user', id: 'admin' } }),
      });
      expect(result.ok).toBe(true);
    };
    return { store, id, orgId, envIds, push };
  }

  /** Every row of the walk in pages of `size`, only those of `envIds`. */
  async function walk(store: LatchkeyStore, envIds: string[], size: number): Promise<StoredValue[]> {
    const rows: StoredValue[] = [];
    let after: { environmentId: string; key: string } | null = null;
    for (;;) {
      const page = await store.secrets.scanValues(after, size);
      expect(page.length).toBeLessThanOrEqual(size);
      rows.push(...page.filter((row) => envIds.includes(row.environmentId)));
      if (page.length < size) return rows;
      const last = page[page.length - 1]!;
      after = { environmentId: last.environmentId, key: last.key };
    }
  }

  it('walks every stored secret value once, in pages of any size, without deleted keys', async () => {
    const { store, envIds, push } = await setUp();
    const keys = ['A', 'B_2', 'a', 'Z.z', 'm-1', '_x'];
    await push(
      envIds[0]!,
      keys.map((key) => ({ key, value: `dev:${key}` })),
    );
    await push(
      envIds[1]!,
      keys.map((key) => ({ key, value: `prod:${key}` })),
    );
    await push(envIds[1]!, [{ key: 'a', value: null }]);
    const expected = [
      ...keys.map((key) => `${envIds[0]}/${key}=dev:${key}`),
      ...keys.filter((key) => key !== 'a').map((key) => `${envIds[1]}/${key}=prod:${key}`),
    ].sort();
    for (const size of [1, 2, 5, 1000]) {
      const rows = await walk(store, envIds, size);
      expect(rows.map((r) => `${r.environmentId}/${r.key}=${r.value}`).sort(), `pages of ${size}`).toEqual(
        expected,
      );
    }
  });

  it('replaces a value only where it is still the one read, and leaves versions alone', async () => {
    const { store, envIds, push } = await setUp();
    const envId = envIds[0]!;
    await push(envId, [
      { key: 'KEEP', value: 'old' },
      { key: 'MOVE', value: 'old' },
    ]);
    const replaced = await store.secrets.replaceValues([
      { environmentId: envId, key: 'MOVE', from: 'old', to: 'new' },
      { environmentId: envId, key: 'KEEP', from: 'stale', to: 'lost' },
      { environmentId: envId, key: 'ABSENT', from: 'old', to: 'lost' },
    ]);
    expect(replaced).toBe(1);
    expect(await store.secrets.replaceValues([])).toBe(0);
    const live = await store.secrets.listLive(envId);
    expect(live.map((s) => [s.key, s.value, s.version])).toEqual([
      ['KEEP', 'old', 1],
      ['MOVE', 'new', 1],
    ]);
  });

  it('replaces a signing secret only where it is still the one read, within its organization', async () => {
    const { store, id, orgId } = await setUp();
    const webhookId = id('awh');
    await store.auditWebhooks.create({
      id: webhookId,
      organization_id: orgId,
      name: 'h',
      url: 'https://hooks.example/h',
      status: 'active',
      event_types: [],
      secret_sealed: 'lk1.k1.a.b',
      consecutive_failures: 0,
      last_delivery: null,
      last_error: null,
      created_at: T0,
      created_by: 'admin',
    });
    expect(await store.auditWebhooks.replaceSecret(orgId, webhookId, 'lk1.k0.x.y', 'lk1.k2.c.d')).toBe(false);
    expect(
      await store.auditWebhooks.replaceSecret('org_someone_else', webhookId, 'lk1.k1.a.b', 'lk1.k2.c.d'),
    ).toBe(false);
    expect(await store.auditWebhooks.replaceSecret(orgId, webhookId, 'lk1.k1.a.b', 'lk1.k2.c.d')).toBe(true);
    expect((await store.auditWebhooks.get(orgId, webhookId))!.secret_sealed).toBe('lk1.k2.c.d');
  });
}
