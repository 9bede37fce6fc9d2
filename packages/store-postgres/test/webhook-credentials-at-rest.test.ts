/**
 * Receivers that demand credentials, on both engines, read as someone holding the database would: a
 * real HTTPS receiver with its own CA requires a client certificate and `X-Api-Key`; the webhook
 * configured with both is delivered to, the one without is refused with a `tls_error`; and neither
 * the header value nor a line of the private key appears in any answer, in the logs, or in any row
 * of any table of the store's schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '@latchkey/core';
import { createUndiciTransport, parseAllowHosts } from '@latchkey/core/webhooks';
import { makeMtlsCertificates } from '@latchkey/test-utils';
import { describe, expect, it } from 'vitest';
import { createPostgresStore, type SqlDriver } from '../src/index.js';
import { pgDriver } from '../src/pg.js';
import { acmeKeyring, TOKEN } from './acme.js';
import { DATABASE_URL, dropSchema, freshSchema, onPostgres } from './databases.js';
import { freshPglite } from './fresh-pglite.js';

const HOST = 'intake.receiver.test';
const API_KEY = 'siem-intake-key-7f3a9c1e5b2d4f60';
const WEBHOOKS = '/api/v2/organizations/acme/audit-webhooks';

/** A core answer's body as text, streamed (the export) or not. */
async function bodyText(body: unknown): Promise<string> {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString();
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<string | Uint8Array>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

async function checkCredentialsAtRest(driver: SqlDriver, schema: string) {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-mtls-'));
  const certificates = makeMtlsCertificates(dir, HOST);
  const server = createServer(
    { key: certificates.server.key, cert: certificates.server.cert, ca: certificates.ca, requestCert: true },
    (request, response) => {
      request.resume();
      response.writeHead(request.headers['x-api-key'] === API_KEY ? 204 : 401).end();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
  const transport = createUndiciTransport({
    resolve,
    allowHosts: parseAllowHosts(HOST),
    tls: { ca: certificates.ca },
  });
  const logged: unknown[] = [];
  const store = await createPostgresStore({ driver, schema });
  const core = createCore({
    store,
    keyring: acmeKeyring,
    webhooks: { allowHosts: HOST, resolve, transport },
    logger: { error: (message, meta) => logged.push({ message, meta }) },
  });
  try {
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const answers: string[] = [];
    const send = async (method: string, url: string, body?: unknown) => {
      const response = await core.handle({
        method,
        url,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await bodyText(response.body);
      answers.push(text);
      const ndjson = String(response.headers['content-type'] ?? '').includes('ndjson');
      return { status: response.status, json: ndjson || text === '' ? null : JSON.parse(text) };
    };
    const url = `https://${HOST}:${port}/intake`;
    const both = await send('POST', WEBHOOKS, {
      name: 'siem',
      url,
      headers: { 'X-Api-Key': API_KEY },
      client_certificate: { certificate: certificates.client.cert, private_key: certificates.client.key },
    });
    expect(both.status).toBe(201);
    const bare = await send('POST', WEBHOOKS, { name: 'bare', url });
    expect(bare.status).toBe(201);

    const delivered = await send('POST', `${WEBHOOKS}/${both.json.id}/test`);
    expect(delivered.json).toMatchObject({ delivered: true, status_code: 204 });
    const refused = await send('POST', `${WEBHOOKS}/${bare.json.id}/test`);
    expect(refused.json).toMatchObject({ delivered: false, error: { code: 'tls_error' } });

    await send('PATCH', `${WEBHOOKS}/${both.json.id}`, { headers: { 'X-Tenant': 'blue' } });
    await send('GET', `${WEBHOOKS}/${both.json.id}`);
    await send('GET', WEBHOOKS);
    await send('GET', '/api/v2/organizations/acme/history?limit=100');
    await send('GET', '/api/v2/organizations/acme/activity/export');

    // Every row of every table of the schema, as text.
    const tables = await driver.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
      [schema],
    );
    expect(tables.rows.length).toBeGreaterThan(5);
    const rows: string[] = [];
    for (const { table_name: table } of tables.rows) {
      const read = await driver.query<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM "${schema}"."${table}" t`,
      );
      rows.push(...read.rows.map((r) => r.row));
    }
    const keyLines = certificates.client.key
      .split('\n')
      .filter((line) => line.length > 20 && !line.startsWith('-----'));
    const places = { answers: answers.join('\n'), logs: JSON.stringify(logged), database: rows.join('\n') };
    for (const [place, text] of Object.entries(places)) {
      expect(text, place).not.toContain(API_KEY);
      for (const line of keyLines) expect(text, place).not.toContain(line);
    }
    // The database holds the webhook's credentials, sealed: the header by name, the certificate public.
    expect(places.database).toContain('X-Api-Key');
    expect(places.database).toContain('client_certificate');
  } finally {
    await transport.close();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('receiver credentials at rest on PGlite', () => {
  it('delivers with the header and certificate, and keeps neither in clear anywhere', async () => {
    await checkCredentialsAtRest(await freshPglite(), 'latchkey');
  });
});

onPostgres('receiver credentials at rest on PostgreSQL', () => {
  describe('receiver credentials at rest on PostgreSQL', () => {
    it('delivers with the header and certificate, and keeps neither in clear anywhere', async () => {
      const schema = freshSchema();
      try {
        await checkCredentialsAtRest(await pgDriver(DATABASE_URL), schema);
      } finally {
        await dropSchema(schema);
      }
    });
  });
});
