/**
 * The audit webhook delivery engine as a process of its own: run one or several beside the API
 * servers (started with `LATCHKEY_DELIVERIES=off`) on the same PostgreSQL, and they share the
 * outbox: each due delivery is claimed by one of them under a lease, a killed worker's claims are
 * taken over when the lease ends, and LISTEN/NOTIFY wakes them the moment an event is committed.
 *
 * Environment: `LATCHKEY_STORE` (a `postgres://` URL; a PGlite directory works for a single process),
 * `LATCHKEY_KEYRING` (required: the keyring the API servers seal signing secrets with; the worker
 * refuses to start when it cannot open every key id the data was sealed with), the audit
 * webhook settings of @latchkey/example-shared/webhooks, `LATCHKEY_DELIVERY_CONCURRENCY` (attempts in flight,
 * default 16) and `LATCHKEY_DELIVERY_LEASE_SECONDS` (how long a claim is kept from the other workers,
 * default the attempt timeout + 30 s; it must exceed the timeout). SIGTERM or SIGINT: stop claiming,
 * finish the attempts in flight, record them, exit 0.
 */
import { checkKeyring, parseKeyring } from '@latchkey/core';
import { createDeliveryEngine } from '@latchkey/core/webhooks';
import { HOW_TO_MAKE_A_KEYRING } from '@latchkey/example-shared/keyring';
import { openExampleStore } from '@latchkey/example-shared/store';
import { startTelemetry } from '@latchkey/example-shared/telemetry';
import { readWebhookEnvironment } from '@latchkey/example-shared/webhooks';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** A positive number from the environment, or `fallback` when unset. */
function positive(name: string, fallback: number): number {
  const text = process.env[name];
  if (!text) return fallback;
  const value = Number(text);
  if (!(value > 0)) fail(`${name} must be a positive number, got "${text}".`);
  return value;
}

const keyringText = process.env['LATCHKEY_KEYRING'];
if (!keyringText) {
  fail(
    `LATCHKEY_KEYRING is required: the keyring the API servers seal signing secrets with (to start afresh, ${HOW_TO_MAKE_A_KEYRING}).`,
  );
}
const keyring = (() => {
  try {
    return parseKeyring(keyringText);
  } catch (error) {
    return fail(`LATCHKEY_KEYRING: ${(error as Error).message} (entries are id:base64key, comma-separated).`);
  }
})();
const webhooks = (() => {
  try {
    return readWebhookEnvironment();
  } catch (error) {
    return fail((error as Error).message);
  }
})();
const timeoutMs = webhooks.timeoutMs ?? 15_000;
const concurrency = Math.floor(positive('LATCHKEY_DELIVERY_CONCURRENCY', 16));
const leaseMs = positive('LATCHKEY_DELIVERY_LEASE_SECONDS', (timeoutMs + 30_000) / 1000) * 1000;
if (leaseMs <= timeoutMs) {
  fail('LATCHKEY_DELIVERY_LEASE_SECONDS must exceed the attempt timeout, or a slow attempt is taken over.');
}

// Attempt spans go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set; flushed on SIGINT/SIGTERM.
const stopTelemetry = await startTelemetry();

const spec = process.env['LATCHKEY_STORE'] || '';
if (spec === '' || spec === 'memory') {
  fail("LATCHKEY_STORE must name the API servers' database: a postgres:// URL (or a PGlite directory).");
}
const opened = await openExampleStore(spec).catch((error: Error) =>
  fail(`Cannot open the store: ${error.message}`),
);

// Claim nothing unless the keyring opens every key id the data was sealed with.
const check = await checkKeyring(opened.store, keyring, { record: false }).catch((error: Error) =>
  fail(`Cannot check the keyring against the store: ${error.message}`),
);
if (check.status === 'fail') fail(check.message!);

const engine = createDeliveryEngine({
  store: opened.store,
  keyring,
  webhooks,
  concurrency,
  batchSize: concurrency * 2,
  leaseMs,
});
engine.start();
console.log(
  `delivery worker ${process.pid} started on ${opened.label} (concurrency ${concurrency}, lease ${leaseMs / 1000} s)`,
);

const summary = () => {
  const c = engine.counts;
  return `delivered ${c.delivered}, retrying ${c.retry}, dead-lettered ${c.dead_letter}, lost lease ${c.lost}, unrecorded ${c.failed}`;
};
let reported = '';
setInterval(() => {
  const line = summary();
  if (line !== reported) console.log(line);
  reported = line;
}, 5_000).unref();

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing the attempts in flight`);
    void engine
      .stop()
      .then(() => opened.store.close?.())
      .then(() => stopTelemetry?.())
      .then(() => {
        console.log(`stopped: ${summary()}`);
        process.exit(0);
      });
  });
}
