import { describe, expect, it } from 'vitest';
import { serviceUnavailable } from '../errors/latchkey-error.js';
import { createMemoryStore } from '../memory/index.js';
import { applySignedPush, type PushServices, type SignedPush } from './push-service.js';

const AT = '2026-12-01T00:00:00.000Z';

/** The store, the core's parts and the lines logged; the organization `acme` with web/prod in it. */
async function setUp() {
  const store = createMemoryStore();
  const organization = { id: 'org_1', slug: 'acme', name: 'Acme', created_at: AT };
  const project = { id: 'prj_1', organization_id: 'org_1', slug: 'web', name: 'web', created_at: AT };
  const environment = {
    id: 'env_1',
    organization_id: 'org_1',
    project_id: 'prj_1',
    slug: 'prod',
    require_strict_conflict_mode: false,
    created_at: AT,
  };
  await store.organizations.create(organization);
  await store.projects.create(project);
  await store.environments.create(environment);
  const logged: string[] = [];
  let n = 0;
  const services: PushServices = {
    store,
    now: () => Date.parse(AT),
    signatureToleranceSeconds: 300,
    keyring: undefined,
    ids: (prefix) => `${prefix}_${++n}`,
    logger: { error: (message) => logged.push(message) },
  };
  // Signed by a device that is not enrolled: refused before the signature is looked at.
  const push: SignedPush = {
    body: {
      device_id: 'dev_000000000000000000000001',
      signed_at: Date.parse(AT) / 1000,
      nonce: 'A'.repeat(22),
      client_sig: 'A'.repeat(86),
      changes: [{ key: 'K', value: 'v' }],
    } as SignedPush['body'],
    signed: {},
    principal: { organizationId: 'org_1', user: 'ann', role: 'owner', grants: [] },
    organization,
    project,
    environment,
    at: AT,
  };
  return { store, services, push, logged };
}

describe('applySignedPush', () => {
  it('records its refusal as push_rejected, with the id, time, actor, scope and device of the push', async () => {
    const { store, services, push, logged } = await setUp();
    await expect(applySignedPush(services, push)).rejects.toMatchObject({ code: 'device_unknown' });
    const events = await store.activity.list({ organizationId: 'org_1', limit: 10 });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      id: 'evt_1',
      type: 'push_rejected',
      occurred_at: AT,
      organization: 'acme',
      project: 'web',
      environment: 'prod',
      actor: { type: 'user', id: 'ann' },
      device_id: 'dev_000000000000000000000001',
      data: { reason: 'device_unknown', status: 403 },
    });
    expect(logged).toEqual([]);
  });

  it('answers the refusal all the same when it cannot be recorded, and says so in the log', async () => {
    const { store, services, push, logged } = await setUp();
    store.activity.append = () => Promise.reject(new Error('the log is full'));
    await expect(applySignedPush(services, push)).rejects.toMatchObject({ code: 'device_unknown' });
    expect(logged).toEqual(['could not record a rejected request']);
  });

  it('records nothing when the store cannot serve: that is not a refusal', async () => {
    const { store, services, push } = await setUp();
    store.devices.get = () => Promise.reject(serviceUnavailable(new Error('down')));
    await expect(applySignedPush(services, push)).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(await store.activity.list({ organizationId: 'org_1', limit: 10 })).toEqual([]);
  });
});
