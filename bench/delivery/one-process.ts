/**
 * One contender of `bench:delivery` in one process, on the in-memory store: MODE `engine` runs our
 * delivery engine (claim, sign afresh, send with undici through the SSRF guard, record the attempt
 * and its metrics rollups); MODE `bare` posts the same event bodies, signed beforehand, with a bare
 * undici loop at the same concurrency: the raw limit of the machine and the receiver. With PARTS
 * (default 1) bare processes, each posts the bodies whose index modulo PARTS is its PART: the raw
 * limit of several sending processes, to hold several workers against.
 *
 * Env: MODE, RECEIVER_URL, COUNT, KEYRING, CONCURRENCY, NODE_EXTRA_CA_CERTS, PART, PARTS. IPC: sends `{ready}`
 * once the outbox is filled; starts on `{go}`; answers `{cpu}` with its CPU seconds and preemptions since `{go}`;
 * exits on `{stop}`.
 */
import { readFileSync } from 'node:fs';
import { createMemoryStore } from '@latchkey/core';
import { signatureHeaders } from '@latchkey/webhook-verifier';
import { Agent, request } from 'undici';
import { ownCpuSeconds, ownPreemptions } from './cpu.js';
import { fillOutbox } from './fill.js';

const env = process.env;
const concurrency = Number(env['CONCURRENCY']);
const store = createMemoryStore();
const filled = await fillOutbox(store, {
  keyring: env['KEYRING']!,
  receiverUrl: env['RECEIVER_URL']!,
  count: Number(env['COUNT']),
});

async function bare(): Promise<void> {
  const organization = await store.organizations.getBySlug('acme');
  const events = await store.activity.listJson({
    organizationId: organization!.id,
    oldestFirst: true,
    limit: filled.owed + 100,
  });
  const [part, parts] = [Number(env['PART'] ?? 0), Number(env['PARTS'] ?? 1)];
  const mine = events.slice(-filled.owed).filter((_, i) => i % parts === part);
  const bodies = mine.map(({ json }) => ({
    body: json,
    headers: {
      'content-type': 'application/json',
      ...signatureHeaders({
        secret: filled.secret,
        body: json,
        eventId: (JSON.parse(json) as { id: string }).id,
      }),
    },
  }));
  // As many connections to the receiver as the engine's transport keeps (8 per origin).
  const dispatcher = new Agent({
    connections: 8,
    connect: { ca: readFileSync(env['NODE_EXTRA_CA_CERTS']!) },
    keepAliveTimeout: 60_000,
  });
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const { body, headers } = bodies[next++]!;
        const response = await request(env['RECEIVER_URL']!, { method: 'POST', headers, body, dispatcher });
        await response.body.dump();
      }
    }),
  );
}

process.send!({ ready: true });
let cpuAtGo = 0;
let preemptedAtGo = 0;
process.on('message', async (message: { go?: boolean; cpu?: boolean; stop?: boolean }) => {
  if (message.go) {
    cpuAtGo = ownCpuSeconds();
    preemptedAtGo = ownPreemptions();
  }
  if (message.cpu)
    process.send!({ cpu: ownCpuSeconds() - cpuAtGo, preempted: ownPreemptions() - preemptedAtGo });
  if (message.go && env['MODE'] === 'bare') void bare();
  if (message.go && env['MODE'] !== 'bare') void filled.core.startDeliveries({ concurrency });
  if (message.stop) {
    await filled.core.stopDeliveries();
    process.exit(0);
  }
});
