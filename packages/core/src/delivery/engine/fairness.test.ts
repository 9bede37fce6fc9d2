/**
 * The engine's fairness on the memory store: a webhook whose receiver hangs holds at most its share
 * of the slots, so another organization's delivery starts at once; a webhook's in-flight limit
 * holds however many deliveries it has due, while another webhook's deliveries go on.
 */
import { describe, expect, it } from 'vitest';
import { createCore } from '../../core.js';
import { generateKeyringKey } from '../../keyring/keyring.js';
import type { WebhookOptions } from '../config.js';
import type { SendResult, Transport } from '../sending/sender.js';
import { createDeliveryEngine } from './engine.js';

const keyring = { current: 'k1', keys: { k1: generateKeyringKey() } };
const OK: SendResult = { ok: true, statusCode: 200, latencyMs: 1, error: null, retryAfterSeconds: null };

/** A receiver per URL path: `/hang` answers only when released, `/slow` after 20 ms, others at once. */
function receivers() {
  const open = new Map<string, number>();
  const most = new Map<string, number>();
  const sent: { path: string; body: string; at: number }[] = [];
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const transport: Transport = {
    async send({ url, body }) {
      const path = new URL(url).pathname;
      sent.push({ path, body, at: Date.now() });
      open.set(path, (open.get(path) ?? 0) + 1);
      most.set(path, Math.max(most.get(path) ?? 0, open.get(path)!));
      if (path === '/hang') await released;
      if (path === '/slow') await new Promise((r) => setTimeout(r, 20));
      open.set(path, open.get(path)! - 1);
      return OK;
    },
    async close() {},
  };
  return { transport, open, most, sent, release };
}

async function organizations(webhooks: WebhookOptions, names: string[]) {
  const core = createCore({ keyring, webhooks });
  const apis = new Map<
    string,
    (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>
  >();
  for (const name of names) {
    const token = `lk_fair_${name}_token_`.padEnd(44, '0');
    await core.bootstrap({ organization: name, user: 'admin', token });
    apis.set(name, async (method, path, body) => {
      const response = await core.handle({
        method,
        url: `/api/v2/organizations/${name}${path}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return JSON.parse(response.body as string) as Record<string, unknown>;
    });
  }
  return { core, api: (name: string) => apis.get(name)! };
}

const until = async (condition: () => boolean, ms = 5_000) => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 2));
  }
};

const webhooks = {
  resolve: async () => [{ address: '93.184.215.14', family: 4 as const }],
  retry: { schedule: [0, 5], jitter: 0 },
};

describe('fair deliveries (memory store)', () => {
  it('a hanging receiver holds at most its share of the slots; another organization is not kept waiting', async () => {
    const { core, api } = await organizations(webhooks, ['slow', 'busy']);
    await api('slow')('POST', '/audit-webhooks', { name: 'hangs', url: 'https://hooks.example.com/hang' });
    for (let i = 0; i < 40; i++) await api('slow')('POST', '/projects', { slug: `h${i}` });
    const r = receivers();
    const engine = createDeliveryEngine({ store: core.store, keyring, webhooks, transport: r.transport });
    engine.start();
    await until(() => (r.open.get('/hang') ?? 0) === 12);
    await api('busy')('POST', '/audit-webhooks', { name: 'fast', url: 'https://hooks.example.com/fast' });
    const queued = Date.now();
    await api('busy')('POST', '/projects', { slug: 'fairp' });
    const project = () => r.sent.find((s) => s.path === '/fast' && s.body.includes('"fairp"'));
    await until(() => project() !== undefined);
    const waited = project()!.at - queued;
    expect(waited).toBeLessThan(500);
    expect(r.most.get('/hang')).toBe(12);
    r.release();
    await engine.stop();
  });

  it('keeps a webhook within its in-flight limit while another webhook goes on', async () => {
    const { core, api } = await organizations(webhooks, ['lim']);
    const limited = await api('lim')('POST', '/audit-webhooks', {
      name: 'a',
      url: 'https://hooks.example.com/slow',
    });
    await api('lim')('POST', '/audit-webhooks', { name: 'b', url: 'https://hooks.example.com/other' });
    for (let i = 0; i < 20; i++) await api('lim')('POST', '/projects', { slug: `l${i}` });
    const r = receivers();
    const limits = { byWebhook: { [limited['id'] as string]: { inFlight: 2 } } };
    const engine = createDeliveryEngine({
      store: core.store,
      keyring,
      webhooks: { ...webhooks, limits },
      transport: r.transport,
      pollIntervalMs: 10,
    });
    engine.start();
    const sentTo = (path: string) => r.sent.filter((s) => s.path === path).length;
    await until(() => sentTo('/slow') >= 20 && sentTo('/other') >= 20);
    await engine.stop();
    expect(r.most.get('/slow')).toBe(2);
  });
});
