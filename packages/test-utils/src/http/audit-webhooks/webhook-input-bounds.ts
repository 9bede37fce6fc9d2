/**
 * What the README promises of a webhook's input, held at create and in PATCH: a header list past
 * its bounds is refused by its count or size alone (one detail, the entries never looked at, so
 * forty thousand names cost no more than eleven); the reserved names, prefixes included, and
 * `__proto__` are refused rather than taken or silently dropped; `recover` with `until` before
 * `since` is refused. Each refusal is the documented 400 and changes nothing.
 */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';
import type { TargetResponse } from '../harness/http-target.js';

let organizations = 0;

/** A fresh organization of the suite's core, with one webhook; answers its API as its owner. */
async function openOrganization(ctx: ConformanceContext) {
  const slug = `bounds-${++organizations}-${Math.random().toString(36).slice(2, 8)}`;
  const created = await ctx.send('POST', '/api/v2/organizations', { slug }, ADMIN);
  expect(created.status, created.text).toBe(201);
  const token = (created.json as { token: string }).token;
  const send = (method: string, path: string, body?: unknown) =>
    ctx.send(method, `/api/v2/organizations/${slug}${path}`, body, token);
  const hook = await send('POST', '/audit-webhooks', {
    name: 'intake',
    url: `https://${PUBLIC_HOST}/intake`,
    headers: { 'X-Api-Key': 'k' },
  });
  expect(hook.status, hook.text).toBe(201);
  const id = (hook.json as { id: string }).id;
  /** The webhook's custom header names, as its JSON shows them. */
  const headerNames = async () =>
    Object.keys(((await send('GET', `/audit-webhooks/${id}`)).json as { headers: object }).headers);
  return { send, id, headerNames };
}

/** The `details` of a 400 `invalid_request`. */
function details(response: TargetResponse): { path: string; message: string }[] {
  const body = expectError(response, 400, 'invalid_request') as {
    error: { details?: { path: string; message: string }[] };
  };
  return body.error.details ?? [];
}

/** Registers the tests. */
export function describeWebhookInputBoundTests(ctx: ConformanceContext): void {
  describe('what a webhook takes', () => {
    it('webhook input: a header list past its bound is refused by its count or size alone, at create and in PATCH', async () => {
      const org = await openOrganization(ctx);
      const hook = { name: 'second', url: `https://${PUBLIC_HOST}/second` };
      // Every entry is bad in two ways; none of it is looked at once the count is over.
      const many = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`X ${i}`, ' v ']));
      const tooMany = [{ path: 'body.headers', message: 'at most 10 custom headers' }];
      expect(details(await org.send('POST', '/audit-webhooks', { ...hook, headers: many }))).toEqual(tooMany);
      expect(details(await org.send('PATCH', `/audit-webhooks/${org.id}`, { headers: many }))).toEqual(
        tooMany,
      );
      // One value far past any bound: refused by the list's size, before its characters are read.
      const huge = { 'X-Api-Key': `k${'\u0000'.repeat(60_000)}` };
      const tooBig = [
        { path: 'body.headers', message: 'custom headers hold at most 41960 characters of names and values' },
      ];
      expect(details(await org.send('POST', '/audit-webhooks', { ...hook, headers: huge }))).toEqual(tooBig);
      expect(details(await org.send('PATCH', `/audit-webhooks/${org.id}`, { headers: huge }))).toEqual(
        tooBig,
      );
      expect(await org.headerNames()).toEqual(['X-Api-Key']);
    });

    it('webhook input: x-service-*, webhook-*, Content-Encoding and __proto__ are refused as header names, at create and in PATCH', async () => {
      const org = await openOrganization(ctx);
      const hook = { name: 'second', url: `https://${PUBLIC_HOST}/second` };
      for (const name of [
        'X-Service-Trace',
        'x-service-',
        'Webhook-Key-Id',
        'webhook-anything',
        'Content-Encoding',
      ]) {
        const headers = { [name]: 'v' };
        const refused = [`body.headers.${name}`];
        const created = await org.send('POST', '/audit-webhooks', { ...hook, headers });
        expect({ name, at: details(created).map((d) => d.path) }).toEqual({ name, at: refused });
        const patched = await org.send('PATCH', `/audit-webhooks/${org.id}`, { headers });
        expect({ name, at: details(patched).map((d) => d.path) }).toEqual({ name, at: refused });
      }
      // A raw body: JSON gives `__proto__` as a member, which an object built from it would drop.
      for (const [method, path, body] of [
        ['POST', '/audit-webhooks', `{"name":"second","url":"https://${PUBLIC_HOST}/second",`],
        ['PATCH', `/audit-webhooks/${org.id}`, '{'],
      ] as const) {
        const answer = await org.send(method, path, `${body}"headers":{"__proto__":"v","X-Other":"w"}}`);
        expect(details(answer)).toEqual([
          { path: 'body.headers.__proto__', message: '__proto__ cannot be a header name' },
        ]);
      }
      expect(await org.headerNames()).toEqual(['X-Api-Key']);
      expect(
        ((await org.send('GET', '/audit-webhooks')).json as { audit_webhooks: unknown[] }).audit_webhooks,
      ).toHaveLength(1);
    });

    it('webhook input: recover with until before since is a 400 naming until, and queues nothing', async () => {
      const org = await openOrganization(ctx);
      const since = '2026-06-01T12:00:00Z';
      const refused = await org.send('POST', `/audit-webhooks/${org.id}/recover`, {
        since,
        until: '2026-06-01T11:59:59.999Z',
      });
      expect(details(refused).map((d) => d.path)).toEqual(['body.until']);
      // An offset is a time like any other: 13:00+02:00 is 11:00Z, before since.
      const offset = await org.send('POST', `/audit-webhooks/${org.id}/recover`, {
        since,
        until: '2026-06-01T13:00:00+02:00',
      });
      expect(details(offset).map((d) => d.path)).toEqual(['body.until']);
      const events = await org.send('GET', '/history?type=audit_webhook_recovered');
      expect(events.status, events.text).toBe(200);
      expect((events.json as { events: unknown[] }).events).toEqual([]);
      const fine = await org.send('POST', `/audit-webhooks/${org.id}/recover`, {
        since,
        until: '2026-06-01T12:00:00.001Z',
      });
      expect(fine.status, fine.text).toBe(202);
    });
  });
}
