/**
 * Fills a store's delivery outbox: organization acme, `webhooks` webhooks to the receiver (default
 * one), then `count / webhooks` events (project creations through `core.handle`), so about `count`
 * deliveries are owed (the webhooks' own creation events included). No delivery engine runs while
 * it fills.
 */
import { type Core, createCore, type LatchkeyStore } from '@latchkey/core';

export const TOKEN = 'lk_bench_delivery_admin_token_00000000000000';

export interface Filled {
  core: Core;
  /** The first webhook's signing secret. */
  secret: string;
  /** Deliveries owed. */
  owed: number;
}

export async function fillOutbox(
  store: LatchkeyStore,
  options: {
    keyring: string;
    receiverUrl: string;
    count: number;
    webhooks?: number;
    writers?: number;
    onProgress?: (done: number) => void;
  },
): Promise<Filled> {
  const core = createCore({ store, keyring: options.keyring, webhooks: { allowHosts: 'localhost' } });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const send = async (url: string, body: unknown) => {
    const response = await core.handle({
      method: 'POST',
      url: `/api/v2/organizations/acme${url}`,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201)
      throw new Error(`POST ${url} answered ${response.status}: ${String(response.body)}`);
    return JSON.parse(response.body as string) as Record<string, unknown>;
  };
  const webhooks = options.webhooks ?? 1;
  const hooks = [];
  // Each later webhook is also owed the creation events of those after it.
  for (let i = 0; i < webhooks; i++)
    hooks.push(await send('/audit-webhooks', { name: `bench ${i}`, url: options.receiverUrl }));
  const events = Math.ceil(options.count / webhooks);
  let next = 0;
  await Promise.all(
    Array.from({ length: options.writers ?? 8 }, async () => {
      while (next < events) {
        const n = next++;
        await send('/projects', { slug: `p${n}` });
        if ((n + 1) % 1_000 === 0) options.onProgress?.(n + 1);
      }
    }),
  );
  const owed = events * webhooks + (webhooks * (webhooks + 1)) / 2;
  return { core, secret: hooks[0]!['signing_secret'] as string, owed };
}
