/**
 * The credentials part of the store conformance suite: a webhook's custom headers (sealed values)
 * and client certificate (sealed key) are stored as given, changed by `update` (headers replaced as
 * a whole, a certificate removed by null, untouched when not given), handed to a worker with its
 * claimed deliveries, replaced by the re-encrypt routine only where unchanged, and undone with a
 * transaction that fails.
 */
import type { AuditWebhook, WebhookClientCertificate } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import type { WebhookFixture } from './webhooks.js';

const T0 = '2026-11-24T10:00:00.000Z';
const later = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

const CERTIFICATE: WebhookClientCertificate = {
  certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  private_key_sealed: 'lk1.k1.sealed-key',
  subject: 'CN=latchkey-sender',
  issuer: 'CN=receiver CA',
  fingerprint_sha256: 'AB:CD',
  not_before: T0,
  not_after: later(86_400),
};

/** Registers the credentials tests; `fixture` is read when each test runs. */
export function describeWebhookCredentialStoreTests(fixture: () => WebhookFixture): void {
  async function setUp() {
    const { store, id } = fixture();
    const orgId = id('org');
    await store.organizations.create({ id: orgId, slug: `wc-${orgId.slice(-8)}`, name: 'C', created_at: T0 });
    const webhook: AuditWebhook = {
      id: id('awh'),
      organization_id: orgId,
      name: 'siem',
      url: 'https://intake.example/hook',
      status: 'active',
      event_types: [],
      secret_sealed: 'lk1.k1.sealed-secret',
      headers: [
        { name: 'X-Api-Key', value_sealed: 'lk1.k1.sealed-api-key' },
        { name: 'X-Tenant', value_sealed: 'lk1.k1.sealed-tenant' },
      ],
      client_certificate: CERTIFICATE,
      consecutive_failures: 0,
      last_delivery: null,
      last_error: null,
      created_at: T0,
      created_by: 'admin',
    };
    await store.auditWebhooks.create(webhook);
    return { store, id, orgId, webhook };
  }

  it('webhook credentials: stored as given, changed by update only when given, removed by null', async () => {
    const { store, orgId, webhook } = await setUp();
    const stored = await store.auditWebhooks.get(orgId, webhook.id);
    expect(stored).toMatchObject({ headers: webhook.headers, client_certificate: CERTIFICATE });
    expect((await store.auditWebhooks.list(orgId))[0]).toMatchObject({ headers: webhook.headers });

    const renamed = await store.auditWebhooks.update(orgId, webhook.id, { name: 'renamed' });
    expect(renamed).toMatchObject({
      name: 'renamed',
      headers: webhook.headers,
      client_certificate: CERTIFICATE,
    });

    const headers = [{ name: 'Authorization', value_sealed: 'lk1.k1.sealed-bearer' }];
    const patched = await store.auditWebhooks.update(orgId, webhook.id, {
      headers,
      client_certificate: null,
    });
    expect(patched).toMatchObject({ headers, client_certificate: null });
    expect(await store.auditWebhooks.get(orgId, webhook.id)).toMatchObject({
      headers,
      client_certificate: null,
    });

    const cleared = await store.auditWebhooks.update(orgId, webhook.id, { headers: [] });
    expect(cleared?.headers ?? []).toEqual([]);
    expect(await store.auditWebhooks.update(orgId, 'awh_missing000000', { headers })).toBeNull();
  });

  it('webhook credentials: a claimed delivery carries its webhook headers and certificate', async () => {
    const { store, id, orgId, webhook } = await setUp();
    await store.activity.append(orgId, {
      id: id('evt'),
      type: 'push_applied',
      occurred_at: T0,
      organization: 'c',
      actor: { type: 'user', id: 'admin' },
      data: {},
    });
    const claimed = await store.deliveries.claim({
      now: later(10_000),
      limit: 1_000,
      leaseUntil: later(20_000),
    });
    const ours = claimed.filter((c) => c.webhook.id === webhook.id);
    await store.deliveries.release(claimed.map((c) => ({ id: c.delivery.id, lease: later(20_000) })));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.webhook).toMatchObject({ headers: webhook.headers, client_certificate: CERTIFICATE });
  });

  it('webhook credentials: replaced only where unchanged since read, and undone with a failed transaction', async () => {
    const { store, orgId, webhook } = await setUp();
    const from = { headers: webhook.headers!, client_certificate: CERTIFICATE };
    const to = {
      headers: webhook.headers!.map((h) => ({ ...h, value_sealed: `${h.value_sealed}-k2` })),
      client_certificate: { ...CERTIFICATE, private_key_sealed: 'lk1.k2.sealed-key' },
    };
    expect(await store.auditWebhooks.replaceCredentials(orgId, webhook.id, from, to)).toBe(true);
    // Read before that write: a stale `from` changes nothing.
    expect(await store.auditWebhooks.replaceCredentials(orgId, webhook.id, from, from)).toBe(false);
    expect(await store.auditWebhooks.get(orgId, webhook.id)).toMatchObject(to);

    await expect(
      store.transaction(async (tx) => {
        await tx.auditWebhooks.update(orgId, webhook.id, { headers: [], client_certificate: null });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.auditWebhooks.get(orgId, webhook.id)).toMatchObject(to);
  });
}
