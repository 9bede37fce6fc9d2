/**
 * Item: receivers that demand credentials. A real HTTPS receiver with its own CA that requires a
 * client certificate and `X-Api-Key` takes the deliveries of a webhook configured with both and
 * refuses the others (recorded as failed attempts with the right `last_error.code`); the header
 * value and the private key appear in no API answer, event, export or stored record; refused
 * headers and certificates are a 400 naming the field; a PATCH merges headers and removes a
 * certificate. Credentials and signature schemes go together: a `standard-webhooks-ed25519` webhook
 * with a custom header and a client certificate is delivered, and verifies with the public key only.
 */
import { createWebhookVerifier } from '@latchkey/webhook-verifier';
import { afterAll, expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { opensslVerifies } from '../../outside/outside-verifiers.js';
import { ADMIN, type ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';
import type { TargetResponse } from '../harness/http-target.js';
import { type CredentialsReceiver, startCredentialsReceiver } from './credentials-receiver.js';

let organizations = 0;

/** A fresh organization of the suite's core; answers its API as its owner. */
async function openOrganization(ctx: ConformanceContext) {
  const slug = `creds-${++organizations}-${Math.random().toString(36).slice(2, 8)}`;
  const created = await ctx.send('POST', '/api/v2/organizations', { slug }, ADMIN);
  expect(created.status, created.text).toBe(201);
  const token = (created.json as { token: string }).token;
  const organizationId = (await ctx.core.store.organizations.getBySlug(slug))!.id;
  const send = (method: string, path: string, body?: unknown) =>
    ctx.send(method, `/api/v2/organizations/${slug}${path}`, body, token);
  return { slug, organizationId, send };
}

/** The `details` paths of a 400 `invalid_request`. */
function refusedAt(response: TargetResponse): string[] {
  const body = expectError(response, 400, 'invalid_request') as { error: { details?: { path: string }[] } };
  return (body.error.details ?? []).map((d) => d.path);
}

/** The lines of a PEM's base64 body: any of them found somewhere means the key leaked. */
const pemLines = (pem: string) =>
  pem.split('\n').filter((line) => line.length > 20 && !line.startsWith('-----'));

/** Registers the credentials tests. */
export function describeReceiverCredentialTests(ctx: ConformanceContext): void {
  describe('receivers that demand credentials', () => {
    let receiver: CredentialsReceiver | null = null;
    const opened = async () => {
      receiver ??= await startCredentialsReceiver(ctx);
      return receiver;
    };
    afterAll(async () => {
      await receiver?.close();
    });

    refusedCredentialTests(ctx, opened);
    demandingReceiverTests(ctx, opened);
    ed25519CredentialTests(ctx, opened);
  });
}

/** Refused headers and client certificates are a 400 naming the field, and change nothing. */
function refusedCredentialTests(ctx: ConformanceContext, opened: () => Promise<CredentialsReceiver>): void {
  it('credentials: refused headers and client certificates are a 400 naming the field, and change nothing', async () => {
    const { certificates } = await opened();
    const org = await openOrganization(ctx);
    const hook = { name: 'intake', url: `https://${PUBLIC_HOST}/intake` };
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, 'v']));
    expect(refusedAt(await org.send('POST', '/audit-webhooks', { ...hook, headers: eleven }))).toContain(
      'body.headers',
    );
    for (const name of [
      'Connection',
      'proxy-authorization',
      'Content-Type',
      'X-Service-Signature',
      'webhook-id',
    ]) {
      expect(
        refusedAt(await org.send('POST', '/audit-webhooks', { ...hook, headers: { [name]: 'v' } })),
      ).toEqual([`body.headers.${name}`]);
    }
    const crlf = { 'X-Api-Key': 'k\r\nX-Injected: 1' };
    expect(refusedAt(await org.send('POST', '/audit-webhooks', { ...hook, headers: crlf }))).toEqual([
      'body.headers.X-Api-Key',
    ]);
    const twice = { 'X-Api-Key': 'a', 'x-api-key': 'b' };
    expect(refusedAt(await org.send('POST', '/audit-webhooks', { ...hook, headers: twice }))).toEqual([
      'body.headers.x-api-key',
    ]);
    const mismatched = { certificate: certificates.client.cert, private_key: certificates.stranger.key };
    expect(
      refusedAt(await org.send('POST', '/audit-webhooks', { ...hook, client_certificate: mismatched })),
    ).toEqual(['body.client_certificate.private_key']);
    const garbage = { certificate: 'not a certificate', private_key: certificates.client.key };
    expect(
      refusedAt(await org.send('POST', '/audit-webhooks', { ...hook, client_certificate: garbage })),
    ).toEqual(['body.client_certificate.certificate']);
    expect((await org.send('GET', '/audit-webhooks')).json).toEqual({ audit_webhooks: [] });

    // A PATCH that would leave more than ten headers is refused too, and changes nothing.
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`X-H${i}`, 'v']));
    const created = await org.send('POST', '/audit-webhooks', { ...hook, headers: ten });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: string }).id;
    expect(
      refusedAt(await org.send('PATCH', `/audit-webhooks/${id}`, { headers: { 'X-Eleventh': 'v' } })),
    ).toEqual(['body.headers']);
    expect(
      refusedAt(await org.send('PATCH', `/audit-webhooks/${id}`, { client_certificate: mismatched })),
    ).toEqual(['body.client_certificate.private_key']);
    expect(
      Object.keys(((await org.send('GET', `/audit-webhooks/${id}`)).json as { headers: object }).headers),
    ).toHaveLength(10);
  });
}

/** A receiver demanding an API key and a client certificate takes only the deliveries that carry both. */
function demandingReceiverTests(ctx: ConformanceContext, opened: () => Promise<CredentialsReceiver>): void {
  it('credentials: a receiver demanding X-Api-Key and a client certificate takes only the deliveries of the webhook that has both', async () => {
    const lab = await opened();
    const org = await openOrganization(ctx);
    const { client, stranger } = lab.certificates;
    const mtls = { certificate: client.cert, private_key: client.key };
    const hook = async (path: string, extra: Record<string, unknown>) => {
      const created = await org.send('POST', '/audit-webhooks', {
        name: path,
        url: `${lab.origin}${path}`,
        ...extra,
      });
      expect(created.status, created.text).toBe(201);
      return created;
    };
    const both = await hook('/both', { headers: { 'X-Api-Key': lab.apiKey }, client_certificate: mtls });
    const none = await hook('/none', {});
    const keyOnly = await hook('/key-only', { headers: { 'X-Api-Key': lab.apiKey } });
    const certOnly = await hook('/cert-only', { client_certificate: mtls });
    const foreign = await hook('/stranger', {
      headers: { 'X-Api-Key': lab.apiKey },
      client_certificate: { certificate: stranger.cert, private_key: stranger.key },
    });
    expect(both.json).toMatchObject({
      headers: { 'X-Api-Key': '••••' },
      client_certificate: { subject: 'CN=latchkey-sender', issuer: 'CN=receiver-ca' },
    });
    expect(
      (both.json as { client_certificate: { fingerprint_sha256: string } }).client_certificate
        .fingerprint_sha256,
    ).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(none.json).toMatchObject({ headers: {}, client_certificate: null });

    expect((await org.send('POST', '/projects', { slug: 'app' })).status).toBe(201);
    await lab.drain();
    const id = (response: TargetResponse) => (response.json as { id: string }).id;
    const state = async (response: TargetResponse) =>
      (await org.send('GET', `/audit-webhooks/${id(response)}`)).json as {
        last_delivery: { succeeded: boolean } | null;
        last_error: { code: string; status_code?: number } | null;
      };
    expect(await state(both)).toMatchObject({ last_delivery: { succeeded: true }, last_error: null });
    const attempts = await org.send('GET', `/audit-webhooks/${id(both)}/deliveries`);
    expect((attempts.json as { attempts: { succeeded: boolean }[] }).attempts.every((a) => a.succeeded)).toBe(
      true,
    );
    expect(lab.arrivals.filter((a) => a.path === '/both' && a.status === 204).length).toBeGreaterThanOrEqual(
      2,
    );
    expect(lab.arrivals.find((a) => a.path === '/both')).toMatchObject({ client: 'latchkey-sender' });
    // With the certificate but not the key, the receiver answers 401; without an accepted
    // certificate the TLS handshake fails before any request. Under TLS 1.3 the receiver's alert
    // comes after the client has finished its side of the handshake: read in time it is a
    // `tls_error`; when the socket closes first (a busy machine) the attempt is a
    // `connection_error`. Either way it failed and nothing arrived.
    expect((await state(certOnly)).last_error).toMatchObject({ code: 'http_status', status_code: 401 });
    for (const refused of [none, keyOnly, foreign]) {
      expect(['tls_error', 'connection_error']).toContain((await state(refused)).last_error?.code);
    }
    expect(lab.arrivals.filter((a) => ['/none', '/key-only', '/stranger'].includes(a.path))).toEqual([]);

    // PATCH: a merge of headers (values masked), and null removes the certificate.
    const patched = await org.send('PATCH', `/audit-webhooks/${id(both)}`, {
      headers: { 'X-Tenant': 'blue', 'X-Api-Key': null },
      client_certificate: null,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ headers: { 'X-Tenant': '••••' }, client_certificate: null });
    const restored = await org.send('PATCH', `/audit-webhooks/${id(both)}`, {
      headers: { 'X-Api-Key': lab.apiKey, 'X-Tenant': null },
      client_certificate: mtls,
    });
    expect(restored.json).toMatchObject({ headers: { 'X-Api-Key': '••••' } });

    // Nowhere in clear: answers, events (history and export) and the stored records.
    const listed = await org.send('GET', '/audit-webhooks');
    const history = await org.send('GET', '/history?limit=100');
    const exported = await org.send('GET', '/activity/export');
    expect(exported.status).toBe(200);
    const stored = JSON.stringify(await ctx.core.store.auditWebhooks.list(org.organizationId));
    const everything = [both, none, keyOnly, certOnly, foreign, patched, restored, listed, history, exported]
      .map((r) => r.text)
      .concat(stored)
      .join('\n');
    expect(everything).not.toContain(lab.apiKey);
    for (const line of pemLines(client.key).concat(pemLines(stranger.key)))
      expect(everything).not.toContain(line);
    const events = (history.json as { events: { type: string; data: Record<string, unknown> }[] }).events;
    expect(
      events.find((e) => e.type === 'audit_webhook_created' && e.data['name'] === '/both')?.data,
    ).toMatchObject({
      headers: ['X-Api-Key'],
      client_certificate: { fingerprint_sha256: expect.any(String) },
    });
    const updates = events.filter((e) => e.type === 'audit_webhook_updated');
    expect(updates.map((e) => e.data['changed'])).toEqual(
      expect.arrayContaining([['headers', 'client_certificate']]),
    );
  });
}

/** Credentials on a standard-webhooks-ed25519 webhook. */
function ed25519CredentialTests(ctx: ConformanceContext, opened: () => Promise<CredentialsReceiver>): void {
  it('credentials: a standard-webhooks-ed25519 webhook with a custom header and a client certificate is delivered and verifies with the public key', async () => {
    const lab = await opened();
    const org = await openOrganization(ctx);
    const { client } = lab.certificates;
    const created = await org.send('POST', '/audit-webhooks', {
      name: 'ed25519 intake',
      url: `${lab.origin}/ed25519`,
      signature_scheme: 'standard-webhooks-ed25519',
      headers: { 'X-Api-Key': lab.apiKey },
      client_certificate: { certificate: client.cert, private_key: client.key },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      signature_scheme: 'standard-webhooks-ed25519',
      headers: { 'X-Api-Key': '••••' },
      client_certificate: { subject: 'CN=latchkey-sender' },
      public_keys: [expect.stringMatching(/^whpk_/)],
    });
    expect((created.json as { signing_secret?: string }).signing_secret).toBeUndefined();
    const keys = await org.send('GET', '/audit-webhooks/signing-keys');
    const publicKey = (keys.json as { signing_keys: { public_key: string }[] }).signing_keys.map(
      (k) => k.public_key,
    );
    expect(publicKey).toEqual((created.json as { public_keys: string[] }).public_keys);

    expect((await org.send('POST', '/projects', { slug: 'app' })).status).toBe(201);
    await lab.drain();
    const got = lab.arrivals.filter((a) => a.path === '/ed25519');
    expect(got.length).toBeGreaterThanOrEqual(2);
    for (const arrival of got) {
      expect(arrival).toMatchObject({ status: 204, client: 'latchkey-sender', apiKey: lab.apiKey });
      expect(arrival.headers['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]+=*$/);
      expect(arrival.headers['x-service-signature']).toBeUndefined();
      const now = () => 1000 * Number(arrival.headers['webhook-timestamp']);
      const verdict = await createWebhookVerifier({ publicKey, now }).safeVerify(
        arrival.raw,
        arrival.headers,
      );
      expect(verdict.ok, JSON.stringify(verdict)).toBe(true);
      const altered = arrival.raw.replace('"type":"', '"type":"x');
      const refused = await createWebhookVerifier({ publicKey, now }).safeVerify(altered, arrival.headers);
      expect(refused.ok).toBe(false);
      expect(opensslVerifies(publicKey[0]!, arrival.raw, arrival.headers)).toBe(true);
    }
    const state = await org.send('GET', `/audit-webhooks/${(created.json as { id: string }).id}`);
    expect(state.json).toMatchObject({ last_delivery: { succeeded: true }, last_error: null });
  });
}
