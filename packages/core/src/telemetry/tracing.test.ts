/**
 * Traces, collected with the OpenTelemetry SDK's in-memory exporter: a push makes one server span
 * (route template, status, organization) with a store-transaction child; a caller's `traceparent`
 * becomes its parent; a delivery attempt makes a client span with the webhook, attempt and status;
 * and no span holds a secret value, token or signature.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { generateDeviceKeyPair, signPush } from '../client/push.js';
import { createCore } from '../core.js';
import { createDeliveryEngine } from '../delivery/engine/engine.js';
import type { Transport } from '../delivery/sending/sender.js';
import { generateKeyringKey } from '../keyring/keyring.js';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});
beforeEach(() => exporter.reset());

const TOKEN = 'lk_tracing_test_token_000000000000000000000000';
const SECRET_VALUE = 'sup3r-s3cret-value-never-in-a-span';
const ORG = '/api/v2/organizations/acme';
const ENV = `${ORG}/projects/web/environments/prod`;
const PUSH_ROUTE = '/api/v2/organizations/{organization}/projects/{project}/environments/{environment}/push';
const address = { organization: 'acme', project: 'web', environment: 'prod' };

async function setUp() {
  const keyring = { current: 'k1', keys: { k1: generateKeyringKey() } };
  const webhooks = { resolve: async () => [{ address: '93.184.215.14', family: 4 as const }] };
  const core = createCore({ keyring, webhooks });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const send = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    core.handle({
      method,
      url,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  await send('POST', `${ORG}/projects`, { slug: 'web' });
  await send('POST', `${ORG}/projects/web/environments`, { slug: 'prod' });
  const hook = await send('POST', `${ORG}/audit-webhooks`, {
    name: 'siem',
    url: 'https://siem.example/hook',
  });
  const { id: webhookId, signing_secret: signingSecret } = JSON.parse(hook.body as string);
  const keys = generateDeviceKeyPair();
  const device = JSON.parse(
    (await send('POST', `${ORG}/devices`, { name: 'laptop', public_key: keys.publicKey })).body as string,
  );
  const push = (headers: Record<string, string> = {}) =>
    send(
      'POST',
      `${ENV}/push`,
      signPush(
        { device_id: device.id, changes: [{ key: 'DB_PASSWORD', value: SECRET_VALUE }] },
        address,
        keys.privateKey,
      ),
      headers,
    );
  return { core, keyring, push, webhookId, signingSecret: signingSecret as string };
}

const spans = () => exporter.getFinishedSpans();

describe('traces', () => {
  it('make one server span per request, named by its route template, with a store transaction child', async () => {
    const { push } = await setUp();
    exporter.reset();
    expect((await push()).status).toBe(200);
    const server = spans().filter((s) => s.kind === 1);
    expect(server).toHaveLength(1);
    const request = server[0]!;
    expect(request.name).toBe(`POST ${PUSH_ROUTE}`);
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': PUSH_ROUTE,
      'http.response.status_code': 200,
      'latchkey.operation': 'push',
      'latchkey.organization': 'acme',
    });
    const children = spans().filter((s) => s.parentSpanContext?.spanId === request.spanContext().spanId);
    expect(children.map((s) => s.name)).toContain('latchkey.store.transaction');
    for (const child of children) expect(child.spanContext().traceId).toBe(request.spanContext().traceId);
  });

  it("continue the caller's trace from its W3C traceparent", async () => {
    const { push } = await setUp();
    exporter.reset();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    expect((await push({ traceparent: `00-${traceId}-${parentId}-01` })).status).toBe(200);
    const request = spans().find((s) => s.kind === 1)!;
    expect(request.spanContext().traceId).toBe(traceId);
    expect(request.parentSpanContext?.spanId).toBe(parentId);
  });

  it('make a client span per delivery attempt, with its webhook, attempt number and status', async () => {
    const { core, keyring, push, webhookId } = await setUp();
    expect((await push()).status).toBe(200);
    exporter.reset();
    const transport: Transport = {
      send: async () => ({
        ok: false,
        statusCode: 503,
        latencyMs: 7,
        error: { code: 'http_status', status_code: 503, message: 'the receiver answered 503' },
        retryAfterSeconds: null,
      }),
      close: async () => {},
    };
    const engine = createDeliveryEngine({
      store: core.store,
      keyring,
      transport,
      retry: { schedule: [0, 60], jitter: 0 },
    } as never);
    expect(await engine.runOnce()).toBeGreaterThan(0);
    const attempts = spans().filter((s) => s.name === 'latchkey.delivery.attempt');
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts[0]!.kind).toBe(2);
    expect(attempts[0]!.attributes).toMatchObject({
      'latchkey.webhook.id': webhookId,
      'latchkey.delivery.attempt': 1,
      'http.response.status_code': 503,
      'latchkey.delivery.outcome': 'retry',
      'latchkey.delivery.duration_ms': 7,
    });
  });

  it('link each attempt to the request that caused its event, and send that traceparent on', async () => {
    const { core, keyring, push } = await setUp();
    exporter.reset();
    expect((await push()).status).toBe(200);
    const request = spans()
      .find((s) => s.kind === 1)!
      .spanContext();
    const sent: Record<string, string>[] = [];
    const transport: Transport = {
      send: async ({ headers }) => {
        sent.push(headers);
        return { ok: true, statusCode: 204, latencyMs: 3, error: null, retryAfterSeconds: null };
      },
      close: async () => {},
    };
    await createDeliveryEngine({ store: core.store, keyring, transport } as never).runOnce();
    const traceparent = `00-${request.traceId}-${request.spanId}-01`;
    // The push's event carries the push's request; the events made before the reset, their own.
    expect(sent.map((h) => h['traceparent'])).toContain(traceparent);
    const attempt = spans().find(
      (s) =>
        s.name === 'latchkey.delivery.attempt' && s.links.some((l) => l.context.spanId === request.spanId),
    );
    expect(attempt).toBeDefined();
    expect(attempt!.links[0]!.context.traceId).toBe(request.traceId);
    // The attempt runs in the engine's own trace, not inside the request's.
    expect(attempt!.spanContext().traceId).not.toBe(request.traceId);
  });

  it('never hold a secret value, token, signing secret or signature', async () => {
    const { core, keyring, push, signingSecret } = await setUp();
    expect((await push()).status).toBe(200);
    const sent: string[] = [];
    const transport: Transport = {
      send: async ({ headers, body }) => {
        sent.push(JSON.stringify(headers), body);
        return { ok: true, statusCode: 204, latencyMs: 3, error: null, retryAfterSeconds: null };
      },
      close: async () => {},
    };
    await createDeliveryEngine({ store: core.store, keyring, transport } as never).runOnce();
    const signature = /sha256=([0-9a-f]{64})/.exec(sent.join('\n'))?.[1];
    expect(signature).toBeDefined();
    const exported = JSON.stringify(
      spans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })),
    );
    for (const secret of [SECRET_VALUE, TOKEN, signingSecret, signature!, 'client_sig']) {
      expect(exported).not.toContain(secret);
    }
  });
});
