/**
 * The audit-webhook service on the memory store, called as the routes call it: each refusal
 * writes nothing and records nothing, each change is recorded once with the caller as its actor.
 */
import { describe, expect, it } from 'vitest';
import { generateKeyringKey } from '../../keyring/keyring.js';
import { createMemoryStore } from '../../memory/index.js';
import { toKeyring, webhookSettings } from '../config.js';
import { type WebhookCaller, webhookEvent } from './caller.js';
import { createWebhook } from './create-webhook.js';
import type { WebhookDeps } from './deps.js';
import { disableWebhook } from './disable-webhook.js';
import { recoverWebhook } from './recover-webhook.js';
import { rotateWebhookSecret } from './rotate-secret.js';
import { updateWebhook } from './update-webhook.js';
import { findWebhook } from './webhook-lookup.js';

const AT = '2026-03-01T12:00:00.000Z';
const caller: WebhookCaller = { organization: { id: 'org_1', slug: 'acme' }, user: 'usr_admin', at: AT };

/** A store with one organization, and the parts of the core the service uses, ids counted. */
async function world(limit = 5) {
  const store = createMemoryStore();
  await store.organizations.create({ id: 'org_1', slug: 'acme', name: 'Acme', created_at: AT });
  let next = 0;
  const deps: WebhookDeps = {
    store,
    now: () => Date.parse(AT),
    ids: (prefix) => `${prefix}_${String(++next).padStart(8, '0')}`,
    keyring: toKeyring({ current: 'k1', keys: { k1: generateKeyringKey() } }),
    webhooks: webhookSettings({ resolve: async () => [{ address: '93.184.215.14', family: 4 }] }),
    limits: { auditWebhooksPerOrganization: limit },
  };
  const log = () => store.activity.list({ organizationId: 'org_1', oldestFirst: true, limit: 100 });
  const events = async () => (await log()).map((e) => e.type);
  return { store, deps, log, events };
}

const input = { name: 'siem', url: 'https://hooks.example.com/in' };

describe('webhookEvent', () => {
  it('is acted by the caller on its organization, at its time, in no project', () => {
    const draft = webhookEvent(() => 'evt_1', caller, 'webhook_test', {
      webhook_id: 'awh_1',
      name: 'siem',
      host: 'hooks.example.com',
    });
    expect(draft).toEqual({
      id: 'evt_1',
      occurred_at: AT,
      organization: 'acme',
      actor: { type: 'user', id: 'usr_admin' },
      type: 'webhook_test',
      data: { webhook_id: 'awh_1', name: 'siem', host: 'hooks.example.com' },
    });
    expect('project' in draft).toBe(false);
  });
});

describe('createWebhook', () => {
  it('past the bound writes nothing and records nothing', async () => {
    const { store, deps, events } = await world(1);
    await createWebhook(deps, caller, input);
    await expect(createWebhook(deps, caller, { ...input, name: 'second' })).rejects.toMatchObject({
      code: 'limit_exceeded',
    });
    expect((await store.auditWebhooks.list('org_1')).map((w) => w.name)).toEqual(['siem']);
    expect(await events()).toEqual(['audit_webhook_created']);
  });

  it('answers the secret for an HMAC scheme, and for ed25519 the public key it made', async () => {
    const { store, deps } = await world();
    const hmac = await createWebhook(deps, caller, input);
    expect('signingSecret' in hmac && hmac.signingSecret.length).toBeGreaterThan(20);
    const ed = await createWebhook(deps, caller, { ...input, signature_scheme: 'standard-webhooks-ed25519' });
    const [key] = await store.webhookSigningKeys.list('org_1');
    expect(ed).toEqual({ webhook: ed.webhook, publicKeys: [key!.public_key] });
  });

  it('without a keyring is a 503 before anything is vetted or stored', async () => {
    const { store, deps } = await world();
    await expect(createWebhook({ ...deps, keyring: undefined }, caller, input)).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    expect(await store.auditWebhooks.list('org_1')).toEqual([]);
  });
});

describe('rotateWebhookSecret', () => {
  it('keeps the old standard-webhooks secret signing for the grace period; latchkey drops it', async () => {
    const { deps } = await world();
    const standard = await createWebhook(deps, caller, { ...input, signature_scheme: 'standard-webhooks' });
    const rotated = await rotateWebhookSecret(deps, caller, standard.webhook.id);
    expect(rotated.webhook.previous_secret).toEqual({
      sealed: standard.webhook.secret_sealed,
      until: '2026-03-02T12:00:00.000Z',
    });
    const latchkey = await createWebhook(deps, caller, input);
    expect((await rotateWebhookSecret(deps, caller, latchkey.webhook.id)).webhook.previous_secret).toBeNull();
  });

  it('refuses an ed25519 webhook, which has no secret of its own, and records nothing', async () => {
    const { deps, events } = await world();
    const ed = await createWebhook(deps, caller, { ...input, signature_scheme: 'standard-webhooks-ed25519' });
    await expect(rotateWebhookSecret(deps, caller, ed.webhook.id)).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(await events()).toEqual(['audit_webhook_created']);
  });

  it("is a 404 for another organization's webhook", async () => {
    const { deps } = await world();
    const created = await createWebhook(deps, caller, input);
    const other = { ...caller, organization: { id: 'org_2', slug: 'other' } };
    await expect(rotateWebhookSecret(deps, other, created.webhook.id)).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('updateWebhook', () => {
  it('issues a secret when the scheme moves into an HMAC one, and none when it stays', async () => {
    const { store, deps } = await world();
    const { webhook } = await createWebhook(deps, caller, input);
    const same = await updateWebhook(deps, caller, webhook.id, { signature_scheme: 'latchkey' });
    expect(same.signingSecret).toBeUndefined();
    const moved = await updateWebhook(deps, caller, webhook.id, { signature_scheme: 'standard-webhooks' });
    expect(moved.signingSecret).toMatch(/^whsec_/);
    const stored = await findWebhook(store, 'org_1', webhook.id);
    expect(stored.secret_sealed).not.toBe(webhook.secret_sealed);
  });

  it('records what changed, and a refused URL changes nothing', async () => {
    const { store, deps, log } = await world();
    const { webhook } = await createWebhook(deps, caller, input);
    await expect(
      updateWebhook(deps, caller, webhook.id, { name: 'renamed', url: 'http://hooks.example.com/in' }),
    ).rejects.toMatchObject({ code: 'invalid_request', details: [{ path: 'body.url' }] });
    expect((await findWebhook(store, 'org_1', webhook.id)).name).toBe('siem');
    await updateWebhook(deps, caller, webhook.id, { name: 'renamed' });
    const [, updated] = await log();
    expect(updated).toMatchObject({ type: 'audit_webhook_updated', data: { changed: ['name'] } });
  });
});

describe('recoverWebhook', () => {
  it('refuses a disabled webhook with webhook_disabled, recording nothing', async () => {
    const { deps, events } = await world();
    const { webhook } = await createWebhook(deps, caller, input);
    await disableWebhook(deps, caller, webhook.id);
    await expect(recoverWebhook(deps, caller, webhook.id, { since: AT })).rejects.toMatchObject({
      code: 'webhook_disabled',
    });
    expect(await events()).toEqual(['audit_webhook_created', 'audit_webhook_disabled']);
  });
});
