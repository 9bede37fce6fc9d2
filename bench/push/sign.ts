/**
 * Pre-signs the request bodies of one round, outside every timed phase: signing is the client's cost,
 * not the server's. Each body pushes a key never pushed before with `if_version: 0` and a fresh nonce,
 * so every push succeeds on the bare routes and on core alike.
 */
import type { KeyObject } from 'node:crypto';
import { signPush } from '@latchkey/core';
import { ADDRESS, DEVICE_ID } from './fixture.js';

/** Signs `count` push bodies now (their `signed_at` is now: use them within 300 s). */
export function signBodies(count: number, privateKey: KeyObject, round: number): Buffer[] {
  const bodies: Buffer[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const body = signPush(
      {
        device_id: DEVICE_ID,
        conflict_mode: 'lenient',
        changes: [{ key: `BENCH_R${round}_${i}`, value: 'bench-value-0123456789abcdef', if_version: 0 }],
      },
      ADDRESS,
      privateKey,
    );
    bodies[i] = Buffer.from(JSON.stringify(body));
  }
  return bodies;
}
