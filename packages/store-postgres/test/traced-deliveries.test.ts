/**
 * On SQL (PGlite), each delivery keeps the `traceparent` of the request whose event it delivers,
 * written by the same statement as the event: for an event appended on its own (a project) and for
 * a push's (whose statement also writes the heads and their versions).
 */

import { createCore, generateDeviceKeyPair, generateKeyringKey, signPush } from '@latchkey/core';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../src/index.js';
import { freshPglite } from './fresh-pglite.js';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

const TOKEN = 'lk_traced_deliveries_token_0000000000000000';
const ORG = '/api/v2/organizations/acme';

describe('deliveries keep the traceparent of the request that caused their event (PGlite)', () => {
  it('for an appended event and for a push', async () => {
    const store = await createPostgresStore({ driver: await freshPglite() });
    const keyring = { current: 'k1', keys: { k1: generateKeyringKey() } };
    const core = createCore({
      store,
      keyring,
      webhooks: { resolve: async () => [{ address: '93.184.215.14', family: 4 }] },
    });
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const send = async (method: string, url: string, body?: unknown) => {
      exporter.reset();
      const answer = await core.handle({
        method,
        url,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const request = exporter
        .getFinishedSpans()
        .find((s) => s.kind === 1)!
        .spanContext();
      return {
        answer,
        json: JSON.parse(answer.body as string),
        traceparent: `00-${request.traceId}-${request.spanId}-01`,
      };
    };
    await send('POST', `${ORG}/audit-webhooks`, { name: 'siem', url: 'https://siem.example/hook' });
    const project = await send('POST', `${ORG}/projects`, { slug: 'web' });
    expect(project.answer.status).toBe(201);
    await send('POST', `${ORG}/projects/web/environments`, { slug: 'prod' });
    const keys = generateDeviceKeyPair();
    const device = await send('POST', `${ORG}/devices`, { name: 'laptop', public_key: keys.publicKey });
    const push = await send(
      'POST',
      `${ORG}/projects/web/environments/prod/push`,
      signPush(
        { device_id: device.json.id, changes: [{ key: 'A', value: '1' }] },
        { organization: 'acme', project: 'web', environment: 'prod' },
        keys.privateKey,
      ),
    );
    expect(push.answer.status).toBe(200);
    const claimed = await store.deliveries.claim({
      now: new Date(Date.now() + 60_000).toISOString(),
      limit: 100,
      leaseUntil: new Date(Date.now() + 120_000).toISOString(),
    });
    const byEvent = new Map(claimed.map((c) => [c.delivery.event_id, c.delivery.traceparent]));
    const events = await store.activity.list({
      organizationId: (await store.organizations.getBySlug('acme'))!.id,
      limit: 100,
    });
    const projectEvent = events.find((e) => e.type === 'project_created')!;
    const pushEvent = events.find((e) => e.type === 'push_applied')!;
    expect(byEvent.get(projectEvent.id)).toBe(project.traceparent);
    expect(byEvent.get(pushEvent.id)).toBe(push.traceparent);
    // The pushed value went where it belongs (the statement's parameters did not shift).
    const pulled = await send('GET', `${ORG}/projects/web/environments/prod/secrets`);
    expect(pulled.json.secrets.map((s: { key: string; value: string }) => [s.key, s.value])).toEqual([
      ['A', '1'],
    ]);
    await store.close();
  });
});
