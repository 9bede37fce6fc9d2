/**
 * What every example server shares: reading its environment, building the core, and stopping
 * cleanly. Each `<framework>/src/server.ts` keeps only what is particular to its framework.
 *
 * Environment: `PORT` (default 3000, `0` picks a free port), `LATCHKEY_BOOTSTRAP_ADMIN_TOKEN` (when
 * set, organization `acme` exists with an owner `admin` whose API token is that value) and
 * `LATCHKEY_STORE` (`memory`, a `postgres://` URL or a PGlite data directory; see example-store.ts)
 * and `LATCHKEY_AUDIT_KEY_FILE` (see example-audit-key.ts), `LATCHKEY_TRUSTED_AUDIT_KEYS` (audit
 * public keys of other servers, or earlier keys of this one, comma-separated: restores accept
 * backups they signed), `LATCHKEY_CHECKPOINT_ORIGIN` (core option `checkpointOrigin`, e.g. this
 * server's public host), `LATCHKEY_PORTAL_ORIGINS` and `LATCHKEY_PUBLIC_URL` (see example-portal.ts),
 * `LATCHKEY_KEYRING` (see
 * example-keyring.ts), the audit webhook settings of example-webhooks.ts, and `LATCHKEY_DELIVERIES`
 * (`in-process`, the default, or `off` when delivery worker processes send them); HTTPS with
 * `LATCHKEY_TLS_CERT` and `LATCHKEY_TLS_KEY` (see @latchkey/example-shared/tls); `LATCHKEY_MEMORY_LOG`
 * (see example-memory-log.ts).
 */
import type { Server } from 'node:http';
import { type Core, createCore, KeyringMismatchError } from '@latchkey/core';
import { loadExampleAuditKey } from './example-audit-key.js';
import { loadExampleKeyring, requireExampleKeyring } from './example-keyring.js';
import { logMemory, startMemoryLog } from './example-memory-log.js';
import { readPortalEnvironment } from './example-portal.js';
import { openExampleStore } from './example-store.js';
import { startTelemetry } from './example-telemetry.js';

import { type ExampleTls, readExampleTls } from './example-tls.js';
import { readWebhookEnvironment } from './example-webhooks.js';

/** Flushes and stops the traces `createExampleCore` started, if any. */
let stopTelemetry: (() => Promise<void>) | null = null;

/** Prints `message` to stderr and exits 1. */
export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Reads and checks the environment, then builds (and bootstraps) the core. Exits 1 on bad input. */
export async function createExampleCore(): Promise<{ core: Core; port: number; tls: ExampleTls | null }> {
  // Traces go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set; flushed on SIGINT/SIGTERM.
  stopTelemetry = await startTelemetry();
  try {
    logMemory('start');
  } catch (error) {
    fail((error as Error).message);
  }
  const port = Number(process.env['PORT'] || '3000');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    fail(`PORT must be an integer from 0 to 65535, got "${process.env['PORT']}".`);
  }
  const tls = (() => {
    try {
      return readExampleTls();
    } catch (error) {
      return fail((error as Error).message);
    }
  })();
  const token = process.env['LATCHKEY_BOOTSTRAP_ADMIN_TOKEN'];
  if (token !== undefined && !/^[A-Za-z0-9_-]{1,200}$/.test(token)) {
    fail(
      'LATCHKEY_BOOTSTRAP_ADMIN_TOKEN may only contain A-Z, a-z, 0-9, "_" and "-" (e.g. lk_ + base64url).',
    );
  }
  const spec = process.env['LATCHKEY_STORE'] || 'memory';
  try {
    requireExampleKeyring(spec);
  } catch (error) {
    fail((error as Error).message);
  }
  const opened = await openExampleStore(spec).catch((error: Error) =>
    fail(
      /^LATCHKEY_(STORE|PGLITE)/.test(error.message)
        ? error.message
        : `Cannot open the store: ${error.message}`,
    ),
  );
  console.log(`store: ${opened.label}`);
  logMemory('store open', opened.wasmHeapBytes);
  const audit = loadExampleAuditKey(opened.directory);
  console.log(`audit public key: ${audit.publicKey}${audit.file ? ` (private key in ${audit.file})` : ''}`);
  const keyring = await loadExampleKeyring(opened.store, opened.directory).catch((error: Error) =>
    fail(error.message),
  );
  console.log(`keyring: ${keyring.source}`);
  const webhooks = (() => {
    try {
      return readWebhookEnvironment();
    } catch (error) {
      return fail((error as Error).message);
    }
  })();
  const trustedAuditKeys = (process.env['LATCHKEY_TRUSTED_AUDIT_KEYS'] ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  const versionsKept = process.env['LATCHKEY_SECRET_VERSIONS_KEPT'];
  const checkpointOrigin = process.env['LATCHKEY_CHECKPOINT_ORIGIN'];
  const organizationsPerUser = process.env['LATCHKEY_ORGANIZATIONS_PER_USER'];
  const portal = readPortalEnvironment();
  const core = (() => {
    try {
      return createCore({
        store: opened.store,
        // The examples let any member create an organization of their own (POST /organizations),
        // so many a user (limits.organizationsPerUser, default 10).
        allowOrganizationCreation: true,
        ...(organizationsPerUser ? { limits: { organizationsPerUser: Number(organizationsPerUser) } } : {}),
        auditKey: audit.privateKeyPem,
        trustedAuditKeys,
        keyring: keyring.text,
        webhooks,
        ...(versionsKept ? { secretVersionsKept: Number(versionsKept) } : {}),
        ...(checkpointOrigin ? { checkpointOrigin } : {}),
        // Issuers of workload ID tokens trusted beyond the public ones (a private or loopback issuer,
        // its CA through NODE_EXTRA_CA_CERTS): issuer URLs separated by commas.
        trustedIssuers: process.env['LATCHKEY_TRUSTED_ISSUERS'] ?? '',
        ...(portal ? { portal } : {}),
      });
    } catch (error) {
      const message = (error as Error).message;
      if (message.startsWith('secretVersionsKept')) return fail(`LATCHKEY_SECRET_VERSIONS_KEPT: ${message}`);
      if (message.startsWith('checkpointOrigin')) return fail(`LATCHKEY_CHECKPOINT_ORIGIN: ${message}`);
      if (message.startsWith('trustedIssuers')) return fail(`LATCHKEY_TRUSTED_ISSUERS: ${message}`);
      if (message.startsWith('portal.allowedOrigins')) return fail(`LATCHKEY_PORTAL_ORIGINS: ${message}`);
      if (message.startsWith('portal.publicUrl')) return fail(`LATCHKEY_PUBLIC_URL: ${message}`);
      if (message.startsWith('limits.organizationsPerUser'))
        return fail(`LATCHKEY_ORGANIZATIONS_PER_USER: ${message}`);
      if (!message.startsWith('trustedAuditKeys')) throw error;
      return fail(`LATCHKEY_TRUSTED_AUDIT_KEYS: ${message}`);
    }
  })();
  // The keyring must open every key id the data was sealed with (and binds its current key to it).
  await core
    .verifyKeyring()
    .catch((error: Error) =>
      fail(error instanceof KeyringMismatchError ? error.message : `Cannot start: ${error.message}`),
    );
  if (token) await core.bootstrap({ organization: 'acme', user: 'admin', token });
  // After a key rotation (a new first entry in LATCHKEY_KEYRING), move what older keys sealed.
  const moved = await core.reencrypt().catch((error: Error) => fail(`keyring: ${error.message}`));
  const resealed =
    moved.secretValues.resealed +
    moved.versionValues.resealed +
    moved.signingSecrets.resealed +
    moved.webhookCredentials.resealed +
    moved.signingKeys.resealed;
  if (resealed > 0)
    console.log(`keyring: ${resealed} ${resealed === 1 ? 'value' : 'values'} moved to the current key`);
  // Audit webhook deliveries run in this process (several processes on one PostgreSQL share them),
  // unless LATCHKEY_DELIVERIES=off leaves them to delivery worker processes (examples/delivery-worker).
  const deliveries = process.env['LATCHKEY_DELIVERIES'] || 'in-process';
  if (deliveries !== 'in-process' && deliveries !== 'off') {
    fail(`LATCHKEY_DELIVERIES must be "in-process" or "off", got "${deliveries}".`);
  }
  if (deliveries === 'in-process') await core.startDeliveries();
  console.log(
    `audit webhook deliveries: ${deliveries === 'off' ? 'left to delivery workers' : 'in this process'}`,
  );
  logMemory('ready');
  startMemoryLog();
  return { core, port, tls };
}

/**
 * On SIGINT or SIGTERM: finish what is in flight, close keep-alive connections as soon as their last
 * response is out, and exit 0; a client that holds on is cut off after 5 s.
 */
export function stopOnSignals(server: Server, close: () => Promise<unknown>, core?: Core): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void close()
        .then(() => core?.stopDeliveries())
        .then(() => core?.store.close?.())
        .then(() => stopTelemetry?.())
        .then(() => process.exit(0));
      setInterval(() => server.closeIdleConnections(), 50).unref();
      setTimeout(() => process.exit(0), 5_000).unref();
    });
  }
}
