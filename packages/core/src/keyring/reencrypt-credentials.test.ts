/**
 * The re-encrypt routine moves a webhook's custom header values and client key to the current key
 * with the rest, so the old key can leave the ring and the webhook still opens what it presents.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../core.js';
import { openCredentials } from '../delivery/open-credentials.js';
import { createMemoryStore } from '../memory/index.js';
import { generateKeyringKey, parseKeyring, sealedKeyId } from './keyring.js';

const TOKEN = 'lk_reencrypt_credentials_token_0000000000000';
const ORG = '/api/v2/organizations/acme';
const K1 = `k1:${generateKeyringKey()}`;
const K2 = `k2:${generateKeyringKey()}`;
const dir = mkdtempSync(join(tmpdir(), 'latchkey-reencrypt-cert-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('re-encrypting webhook credentials', () => {
  it('moves header values and the client key to the current key, once', async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
      ].concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', '/CN=sender']),
      { stdio: 'ignore' },
    );
    const certificate = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const privateKey = readFileSync(join(dir, 'key.pem'), 'utf8');
    const store = createMemoryStore();
    const withK1 = createCore({ store, keyring: K1, logger: { error: () => {} } });
    await withK1.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const created = await withK1.handle({
      method: 'POST',
      url: `${ORG}/audit-webhooks`,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'siem',
        url: 'https://93.184.215.14/hook',
        headers: { 'X-Api-Key': 'moved-key-value', 'X-Tenant': 'blue' },
        client_certificate: { certificate, private_key: privateKey },
      }),
    });
    expect(created.status).toBe(201);
    const organizationId = (await store.organizations.getBySlug('acme'))!.id;
    const webhook = async () => (await store.auditWebhooks.list(organizationId))[0]!;
    const sealedWith = async () => {
      const w = await webhook();
      return [...w.headers!.map((h) => h.value_sealed), w.client_certificate!.private_key_sealed].map(
        sealedKeyId,
      );
    };
    expect(await sealedWith()).toEqual(['k1', 'k1', 'k1']);

    const rotated = createCore({ store, keyring: `${K2},${K1}`, logger: { error: () => {} } });
    expect((await rotated.reencrypt()).webhookCredentials).toEqual({ examined: 1, resealed: 1 });
    expect(await sealedWith()).toEqual(['k2', 'k2', 'k2']);
    expect((await rotated.reencrypt()).webhookCredentials).toEqual({ examined: 1, resealed: 0 });

    // Only k2 now: what an attempt presents still opens.
    const opened = openCredentials(parseKeyring(K2), await webhook());
    expect(opened.headers).toEqual({ 'X-Api-Key': 'moved-key-value', 'X-Tenant': 'blue' });
    expect(opened.clientCertificate?.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(opened.clientCertificate?.certificate).toContain('BEGIN CERTIFICATE');
  });
});
