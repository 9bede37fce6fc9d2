/**
 * Item: the event-type catalog. `GET /event-types` lists every type of the core's `EventType` union
 * with a description and a JSON Schema (2020-12) of its data, to any valid credential. The test
 * walks the union (a record over it, so a type added to the catalog and not here does not compile),
 * makes a real event of every type the core emits through the API, and checks each against its
 * type's schema.
 */
import { type ActivityEvent, EVENT_TYPES, type EventType } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { workload } from '../audit-webhooks/audit-webhook-filters.js';
import { type Lab, openLab } from '../audit-webhooks/delivery-lab.js';
import { linesOf, restoreHelpers } from '../backup/restore-helpers.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { witnessPublicKey } from '../harness/witness-public-key.js';
import { PORTAL_ORIGIN } from '../members/role-table-portal-rows.js';

/**
 * Every event type, and where this test finds a real one: made by the API here, or recorded by a
 * part of the product this suite does not drive (named).
 */
const WALK: Record<EventType, 'made here' | `emitted by ${string}`> = {
  organization_created: 'made here',
  project_created: 'made here',
  environment_created: 'made here',
  environment_updated: 'made here',
  member_added: 'made here',
  member_updated: 'made here',
  member_removed: 'made here',
  token_created: 'made here',
  token_revoked: 'made here',
  device_enrolled: 'made here',
  device_revoked: 'made here',
  portal_session_created: 'made here',
  portal_session_revoked: 'made here',
  push_applied: 'made here',
  push_force_overwrite: 'made here',
  push_conflict: 'made here',
  push_rejected: 'made here',
  secret_versions_read: 'made here',
  change_request_created: 'emitted by the change-request suite (http/change-requests.ts)',
  change_request_approved: 'emitted by the change-request suite (http/change-requests.ts)',
  change_request_rejected: 'emitted by the change-request suite (http/change-requests.ts)',
  change_request_cancelled: 'emitted by the change-request suite (http/change-requests.ts)',
  change_request_expired: 'emitted by the change-request suite (http/change-requests.ts)',
  change_request_conflicted: 'emitted by the change-request suite (http/change-requests.ts)',
  change_request_applied: 'emitted by the change-request suite (http/change-requests.ts)',
  change_request_values_read: 'emitted by the change-request suite (http/change-requests.ts)',
  change_bypassed: 'emitted by the change-request suite (http/change-requests.ts)',
  audit_webhook_created: 'made here',
  audit_webhook_updated: 'made here',
  audit_webhook_secret_rotated: 'made here',
  audit_webhook_disabled: 'made here',
  audit_webhook_enabled: 'made here',
  audit_webhook_recovered: 'made here',
  audit_webhook_dead_lettered: 'made here',
  audit_webhook_signing_key_rotated: 'made here',
  webhook_test: 'made here',
  activity_exported: 'made here',
  backup_created: 'made here',
  backup_restored: 'made here',
  witness_added: 'made here',
  witness_removed: 'made here',
  workload_identity_created: 'emitted by the workload identity suite (workload-identity.ts)',
  workload_identity_removed: 'emitted by the workload identity suite (workload-identity.ts)',
  workload_token_issued: 'emitted by the workload identity suite (workload-identity.ts)',
};

/** The rarer events: webhooks' lives, a dead letter, people leaving, a refused push, the evidence trail. */
async function everyKind(ctx: ConformanceContext, lab: Lab): Promise<void> {
  const ok = async (answer: Promise<{ status: number; text: string }>, status = 200) => {
    const answered = await answer;
    expect(answered.status, answered.text).toBe(status);
  };
  await workload(lab, 1);
  await ok(lab.send('GET', '/projects/app/environments/prod/secrets/K1/versions?include_values=true'));
  const hook = await lab.hook('/kinds');
  const gone = await lab.hook('/gone', { event_types: ['project_created'] });
  await ok(lab.send('PATCH', `/audit-webhooks/${hook}`, { name: 'kinds', event_types: ['token_*'] }));
  await ok(lab.send('POST', `/audit-webhooks/${hook}/rotate-secret`));
  await ok(lab.send('POST', '/audit-webhooks/signing-keys/rotate'));
  await ok(lab.send('POST', `/audit-webhooks/${hook}/test`));
  await ok(lab.send('POST', `/audit-webhooks/${hook}/recover`, { since: new Date(0).toISOString() }), 202);
  await ok(lab.send('POST', `/audit-webhooks/${hook}/disable`));
  await ok(lab.send('POST', `/audit-webhooks/${hook}/enable`));
  await ok(lab.send('POST', '/projects', { slug: 'last' }), 201);
  await lab.drain();
  expect((await lab.send('GET', `/audit-webhooks/${gone}`)).json).toMatchObject({ status: 'dead_letter' });
  await ok(
    lab.send('PATCH', '/members/lab-m1', {
      role: 'developer',
      grants: [{ project: 'app', environments: ['*'] }],
    }),
  );
  await ok(lab.send('DELETE', '/members/lab-m1'));
  await ok(lab.send('POST', `/devices/${lab.owner.deviceId}/revoke`));
  // The device is revoked now: the push is refused and recorded.
  expect((await lab.push({ changes: [{ key: 'LATE', value: 'x' }] })).status).toBe(403);
  await ok(lab.send('GET', '/activity/export'));
  const portal = await lab.send('POST', '/portal-sessions', {
    capabilities: ['activity:read'],
    origin: PORTAL_ORIGIN,
  });
  expect(portal.status, portal.text).toBe(201);
  await ok(lab.send('DELETE', `/portal-sessions/${(portal.json as { session_id: string }).session_id}`));
  const witness = { name: 'witness.example/w1', public_key: witnessPublicKey(7) };
  await ok(lab.send('POST', '/activity/witnesses', witness), 201);
  await ok(lab.send('DELETE', `/activity/witnesses/${encodeURIComponent(witness.name)}`));
  const { backupOf, newOrganization, restoreLines } = restoreHelpers(ctx);
  const backup = await backupOf(lab.slug, lab.owner.token);
  const copy = `${lab.slug}-copy`;
  const token = await newOrganization(copy);
  const restored = await restoreLines(copy, token, linesOf(backup));
  expect(restored.status, restored.text).toBe(200);
  // A backup carries the webhooks' filters, and a restore keeps them.
  const copied = await ctx.send('GET', `/api/v2/organizations/${copy}/audit-webhooks`, undefined, token);
  expect(
    (copied.json as { audit_webhooks: { name: string; event_types: string[] }[] }).audit_webhooks,
  ).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'kinds', event_types: ['token_*'] })]));
}

/** Registers the catalog tests. */
export function describeEventTypeTests(ctx: ConformanceContext): void {
  describe('event types', () => {
    it('lists every type of the union with a description and a 2020-12 JSON Schema, to any credential', async () => {
      const answer = await ctx.send('GET', '/api/v2/event-types', undefined, ctx.viewerToken);
      expect(answer.status).toBe(200);
      const listed = (
        answer.json as {
          event_types: { type: string; description: string; data_schema: Record<string, unknown> }[];
        }
      ).event_types;
      expect(listed.map((t) => t.type).sort()).toEqual(Object.keys(WALK).sort());
      for (const entry of listed) {
        expect(entry.description, entry.type).toMatch(/^[A-Z].{10,}[^.]$/);
        expect(entry.data_schema, entry.type).toMatchObject({
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
        });
      }
      expectError(await ctx.send('GET', '/api/v2/event-types', undefined, null), 401, 'unauthenticated');
    });

    it('walks the union: a real event of every type the core emits matches its schema', async () => {
      const lab = await openLab(ctx);
      try {
        await everyKind(ctx, lab);
        const events: ActivityEvent[] = [];
        // The lab's organization and its restored copy: every event made through the API (other
        // organizations of the suite hold events planted straight into the store).
        for (const slug of [lab.slug, `${lab.slug}-copy`]) {
          const org = await ctx.core.store.organizations.getBySlug(slug);
          events.push(...(await ctx.core.store.activity.list({ organizationId: org!.id, limit: 100_000 })));
        }
        const missing = (Object.keys(WALK) as EventType[]).filter(
          (type) => WALK[type] === 'made here' && !events.some((e) => e.type === type),
        );
        expect(missing).toEqual([]);
        const mismatched = events
          .filter((e) => Object.hasOwn(EVENT_TYPES, e.type))
          .map((e) => ({ type: e.type, check: EVENT_TYPES[e.type as EventType].data.safeParse(e.data) }))
          .filter(({ check }) => !check.success)
          .map(({ type, check }) => `${type}: ${check.error?.message}`);
        expect(mismatched).toEqual([]);
      } finally {
        await lab.close();
      }
    });
  });
}
