/**
 * Where a push spends its time inside the server, without HTTP: `core.handle` against the bare
 * handler on the same signed bodies, then each step core takes on the way, measured alone. The
 * differences point at what to make cheaper.
 *
 *   tsx bench/push/core-handle.ts [--count 20000] [--repeat 5]
 *
 * Every figure is CPU time (not wall time, so that waiting for a core other processes hold does not
 * count), the best of `--repeat` passes, in microseconds per push.
 */
import { verify } from 'node:crypto';
import { parseArgs } from 'node:util';
import { generateDeviceKeyPair, hashToken, randomId, schemas } from '@latchkey/core';
import { pushSigningPayload, verifyClientSignature } from '@latchkey/core/client';
import { type ActivityDraft, type PushEventTemplate, sealEvent } from '@latchkey/core/store';
import { createBarePush, ed25519PublicKey } from './bare.js';
import { ADAPTER_PATH, ADDRESS, createBenchCore, DEVICE_ID, REQUEST_HEADERS, TOKEN } from './fixture.js';
import { signBodies } from './sign.js';

const { values: args } = parseArgs({
  options: { count: { type: 'string', default: '20000' }, repeat: { type: 'string', default: '5' } },
});
const count = Number(args.count);
const repeat = Number(args.repeat);

const keys = generateDeviceKeyPair();
const publicKey = ed25519PublicKey(keys.publicKey);

/** Best time of `repeat` passes of `pass`, each over fresh inputs from `prepare`, in µs per item. */
async function best<T>(
  prepare: (pass: number) => T[] | Promise<T[]>,
  pass: (items: T[], index: number) => unknown,
): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let r = 0; r < repeat; r++) {
    const items = await prepare(r);
    const started = process.cpuUsage();
    await pass(items, r);
    const used = process.cpuUsage(started);
    min = Math.min(min, (used.user + used.system) / items.length);
  }
  return min;
}

const rows: [string, number][] = [];

/** Measures `pass` as {@link best} does and prints it as a row. */
async function measure<T>(
  name: string,
  prepare: (pass: number) => T[] | Promise<T[]>,
  pass: (items: T[], index: number) => unknown,
): Promise<void> {
  const us = await best(prepare, pass);
  rows.push([name, us]);
  console.log(`${us.toFixed(1).padStart(8)} µs  ${name}`);
}

// Fresh signed bodies per pass: core refuses a nonce twice, and if_version 0 only matches new keys.
const batches = Array.from({ length: repeat }, (_, r) => signBodies(count, keys.privateKey, 1000 + r));
const texts = batches.map((batch) => batch.map((b) => b.toString()));
const parsed = texts.map((batch) => batch.map((t) => JSON.parse(t) as Record<string, unknown>));

const core = await createBenchCore(keys.publicKey);
await measure(
  'core.handle (whole push, no HTTP)',
  (r) => batches[r]!,
  async (bodies) => {
    for (const body of bodies) {
      const response = await core.handle({
        method: 'POST',
        url: ADAPTER_PATH,
        headers: REQUEST_HEADERS,
        body,
      });
      if (response.status !== 200)
        throw new Error(`core answered ${response.status}: ${String(response.body)}`);
    }
  },
);
await measure(
  'bare handler: JSON.parse + verify + map (no HTTP)',
  (r) => batches[r]!,
  (bodies) => {
    const push = createBarePush(keys.publicKey);
    for (const body of bodies) {
      if (push(JSON.parse(body.toString())).status !== 200) throw new Error('bare handler refused a push');
    }
  },
);

console.log('\nsteps, alone:');
await measure(
  'TextDecoder + JSON.parse of the body',
  (r) => batches[r]!,
  (b) => b.map((x) => JSON.parse(new TextDecoder().decode(x))),
);
await measure(
  'zod PushBody.safeParse',
  (r) => parsed[r]!,
  (b) => b.map((x) => schemas.PushBody.safeParse(x)),
);
await measure(
  'pushSigningPayload (canonicalize)',
  (r) => parsed[r]!,
  (b) => b.map((x) => pushSigningPayload(x, ADDRESS)),
);
await measure(
  'Ed25519 verify alone (cached KeyObject)',
  (r) =>
    parsed[r]!.map(
      (x) =>
        [
          Buffer.from(pushSigningPayload(x, ADDRESS)),
          Buffer.from(x['client_sig'] as string, 'base64url'),
        ] as const,
    ),
  (b) => b.map(([payload, sig]) => verify(null, payload, publicKey, sig)),
);
await measure(
  "core's verifyClientSignature (payload + verify)",
  (r) => parsed[r]!,
  (b) => b.map((x) => verifyClientSignature(keys.publicKey, x, ADDRESS, x['client_sig'] as string)),
);
await measure(
  'hashToken (SHA-256 of the bearer token)',
  () => Array.from({ length: count }, () => TOKEN),
  (b) => b.map(hashToken),
);
await measure(
  'randomId',
  () => Array.from({ length: count }, () => 'evt'),
  (b) => b.map(randomId),
);

/** What every push's event says besides its type and data: who, where, when, from which device. */
const eventBase = () => ({
  id: randomId('evt'),
  occurred_at: new Date().toISOString(),
  organization: ADDRESS.organization,
  project: ADDRESS.project,
  environment: ADDRESS.environment,
  actor: { type: 'user' as const, id: 'admin' },
  device_id: DEVICE_ID,
});
const draft = (i: number): ActivityDraft => ({
  ...eventBase(),
  type: 'push_applied',
  data: { conflict_mode: 'lenient', versions: [{ key: `K_${i}`, version: 1, deleted: false }] },
});
/** What the push service hands `applyPush` besides the changes: its event but for the plan. */
const template = (): PushEventTemplate => ({ ...eventBase(), mode: { strict: false, force: false } });
await measure(
  'sealEvent (canonicalize + SHA-256 of the event)',
  () => Array.from({ length: count }, (_, i) => draft(i)),
  (b) => {
    let head = null as { seq: number; hash: string } | null;
    for (const d of b) {
      const event = sealEvent(d, head);
      head = { seq: event.seq, hash: event.hash };
    }
  },
);
const sealed = sealEvent(draft(0), null);
await measure(
  'structuredClone of an event',
  () => Array.from({ length: count }, () => sealed),
  (b) => b.map((e) => structuredClone(e)),
);
await measure(
  'new Date().toISOString()',
  () => Array.from({ length: count }, () => 0),
  (b) => b.map(() => new Date().toISOString()),
);

// The store calls one push makes, on a core of its own (so its chain and maps start alike).
const storeCore = await createBenchCore(keys.publicKey);
const { store } = storeCore;
const org = (await store.organizations.getBySlug(ADDRESS.organization))!;
const project = (await store.projects.get(org.id, ADDRESS.project))!;
const environment = (await store.environments.get(project.id, ADDRESS.environment))!;
await measure(
  'store lookups of a push (token, member, org, project, env, device, nonce: 7 awaits)',
  (r) => parsed[r]!,
  async (b) => {
    for (const x of b) {
      await store.tokens.findByHash(hashToken(TOKEN));
      await store.members.get(org.id, 'admin');
      await store.organizations.getBySlug(ADDRESS.organization);
      await store.projects.get(org.id, ADDRESS.project);
      await store.environments.get(project.id, ADDRESS.environment);
      await store.devices.get(org.id, DEVICE_ID);
      await store.nonces.consume(
        `${org.id}/${DEVICE_ID}`,
        x['nonce'] as string,
        Date.now() + 600_000,
        Date.now(),
      );
    }
  },
);
await measure(
  'store.secrets.applyPush (plan, write, seal event, clone it)',
  (r) => parsed[r]!,
  async (b) => {
    for (const x of b) {
      const key = (x['changes'] as { key: string }[])[0]!.key;
      const result = await store.secrets.applyPush({
        organizationId: org.id,
        environmentId: environment.id,
        changes: [{ key, value: 'v', if_version: 0 }],
        force: false,
        now: new Date().toISOString(),
        eventTemplate: template(),
      });
      if (!result.ok) throw new Error('applyPush refused');
    }
  },
);

const [handle, bare] = [rows[0]![1], rows[1]![1]];
console.log(
  `\ncore.handle costs ${(handle - bare).toFixed(1)} µs more than the bare handler per push (${(handle / bare).toFixed(2)}x).`,
);
