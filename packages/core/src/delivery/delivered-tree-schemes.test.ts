import { createChainWitness, createWebhookVerifier } from '@latchkey/webhook-verifier';
import { describe, expect, it } from 'vitest';
import { createCore } from '../core.js';
import { generateKeyringKey } from '../keyring/keyring.js';
import { createDeliveryEngine } from './engine/engine.js';
import type { Transport } from './sending/sender.js';

const TOKEN = 'lk_delivered_tree_schemes_token_000000000000';
const HOOKS = '/api/v2/organizations/acme/audit-webhooks';
const SCHEMES = ['latchkey', 'standard-webhooks', 'standard-webhooks-ed25519'] as const;

describe('the tree field under every signature scheme', () => {
  it('is in the one body every scheme signs, and each receiver verifies and links it', async () => {
    const keyring = { current: 'k1', keys: { k1: generateKeyringKey() } };
    const webhooks = { resolve: async () => [{ address: '93.184.215.14', family: 4 }] };
    const core = createCore({ keyring, webhooks });
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const send = async (method: string, url: string, body?: unknown) => {
      const response = await core.handle({
        method,
        url,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return JSON.parse(response.body as string) as Record<string, unknown>;
    };
    const verifiers = new Map<string, ReturnType<typeof createWebhookVerifier>>();
    for (const scheme of SCHEMES) {
      const created = await send('POST', HOOKS, {
        name: scheme,
        url: `https://hooks.example.com/${scheme}`,
        signature_scheme: scheme,
      });
      const keys = created['public_keys'] as string[] | undefined;
      verifiers.set(
        scheme,
        createWebhookVerifier(keys ? { publicKey: keys } : { secret: created['signing_secret'] as string }),
      );
    }
    for (const slug of ['web', 'api', 'docs'])
      await send('POST', '/api/v2/organizations/acme/projects', { slug });

    const sent: { url: string; body: string; headers: Record<string, string> }[] = [];
    const transport: Transport = {
      async send({ url, body, headers }) {
        sent.push({ url, body, headers });
        return { ok: true, statusCode: 204, latencyMs: 1, error: null, retryAfterSeconds: null };
      },
      async close() {},
    };
    const engine = createDeliveryEngine({ store: core.store, keyring, webhooks, transport });
    while ((await engine.runOnce()) > 0) {}

    const bodies = new Map<string, Set<string>>();
    for (const scheme of SCHEMES) {
      const witness = createChainWitness();
      const mine = sent
        .filter((s) => s.url.endsWith(`/${scheme}`))
        .sort((a, b) => JSON.parse(a.body).seq - JSON.parse(b.body).seq);
      expect(mine.length).toBeGreaterThanOrEqual(4);
      for (const { body, headers } of mine) {
        const event = (await verifiers.get(scheme)!.verify(body, headers)).json() as Record<
          string,
          unknown
        > & {
          organization: string;
          seq: number;
          prev_hash: string;
          hash: string;
        };
        expect(event['tree']).toMatchObject({ tree_size: event.seq });
        expect(await witness.addDelivered(event)).toBeNull();
        const id = event['id'] as string;
        bodies.set(id, (bodies.get(id) ?? new Set()).add(body));
      }
    }
    // An event delivered to several webhooks is the same bytes under each scheme.
    const events = [...bodies.values()];
    expect(events.length).toBeGreaterThanOrEqual(4);
    expect(events.every((set) => set.size === 1)).toBe(true);
  });
});
