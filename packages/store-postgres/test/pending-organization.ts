/**
 * The organization the sequencing tests push into: a project `p`, an environment `prod` and an
 * audit webhook (`${orgId}_w`, no filter), so every sealed event queues a delivery by the outbox rule.
 */
import { randomUUID } from 'node:crypto';
import type { LatchkeyStore } from '@latchkey/core/store';

const T0 = '2026-11-27T00:00:00.000Z';

export async function pendingOrganization(store: LatchkeyStore): Promise<{ orgId: string; envId: string }> {
  const orgId = `org_${randomUUID()}`;
  await store.organizations.create({ id: orgId, slug: `pe-${orgId.slice(-8)}`, name: 'P', created_at: T0 });
  await store.projects.create({
    id: `${orgId}_p`,
    organization_id: orgId,
    slug: 'p',
    name: 'p',
    created_at: T0,
  });
  await store.environments.create({
    id: `${orgId}_e`,
    organization_id: orgId,
    project_id: `${orgId}_p`,
    slug: 'prod',
    require_strict_conflict_mode: false,
    created_at: T0,
  });
  await store.auditWebhooks.create({
    id: `${orgId}_w`,
    organization_id: orgId,
    name: 'w',
    url: 'https://receiver.test/hook',
    status: 'active',
    event_types: [],
    secret_sealed: 'sealed',
    consecutive_failures: 0,
    last_delivery: null,
    last_error: null,
    created_at: T0,
    created_by: 'alice',
  });
  return { orgId, envId: `${orgId}_e` };
}
