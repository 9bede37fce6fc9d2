/**
 * Bounded rotations of webhook signing keys, on every store: after any number of rotations at most
 * two keys sign (the current one and the one it replaced), a rotation past the window's count is
 * refused and writes nothing (racing rotations included), and the stored keys stay within `keep`.
 */
import type { LatchkeyStore, RotationBounds, WebhookSigningKey } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';

/** An organization of the suite and a maker of its keys. */
export interface SigningKeyOrganization {
  store: LatchkeyStore;
  orgId: string;
  key(n: string, at?: string): WebhookSigningKey;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.parse('2026-11-22T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** The bounds the API's rotation uses, at `ms`. */
const bounds = (ms: number): RotationBounds => ({
  at: iso(ms),
  windowStart: iso(ms - DAY),
  maxPerWindow: 10,
  keep: 12,
});

/** The keys that sign at `ms`: made by then and not yet retired. */
const signingAt = (keys: readonly WebhookSigningKey[], ms: number) =>
  keys.filter(
    (k) => Date.parse(k.created_at) <= ms && (k.retires_at === null || Date.parse(k.retires_at) > ms),
  );

/** Registers the tests; `organization` makes a fresh organization when each test runs. */
export function describeSigningKeyBoundTests(organization: () => Promise<SigningKeyOrganization>): void {
  it('signing keys: after 40 rotations two keys sign at most, and the newest 12 are kept', async () => {
    const { store, orgId, key } = await organization();
    await store.webhookSigningKeys.ensureCurrent(key('k0', iso(START)));
    const made: string[] = [];
    for (let n = 1; n <= 40; n++) {
      // One every 2.5 h: fewer than ten keys in any 24 h, so every rotation is taken.
      const ms = START + n * 2.5 * HOUR;
      const next = key(`k${n}`, iso(ms));
      const outcome = await store.webhookSigningKeys.rotate(next, iso(ms + DAY), bounds(ms));
      expect(outcome, `rotation ${n}`).toMatchObject({ ok: true });
      made.push(next.id);
      const keys = await store.webhookSigningKeys.list(orgId);
      expect(keys.length, `rotation ${n}`).toBeLessThanOrEqual(12);
      const signing = signingAt(keys, ms);
      expect(signing.map((k) => k.public_key)).toEqual(
        n === 1 ? ['whpk_k0', 'whpk_k1'] : [`whpk_k${n - 1}`, `whpk_k${n}`],
      );
      // Nothing signs later than the rotation's grace period: the key it replaced, until then.
      expect(signingAt(keys, ms + 1).map((k) => k.public_key)).toEqual(signing.map((k) => k.public_key));
      expect(signingAt(keys, ms + DAY).map((k) => k.public_key)).toEqual([`whpk_k${n}`]);
    }
    const kept = await store.webhookSigningKeys.list(orgId);
    expect(kept.map((k) => k.id)).toEqual(made.slice(-12));
  });

  it('signing keys: a rotation past the window count is refused and writes nothing, racing or not', async () => {
    const { store, orgId, key } = await organization();
    const first = await store.webhookSigningKeys.ensureCurrent(key('first', iso(START)));
    // Sixteen racing rotations a minute apart: the first key and nine more fill the window.
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, (_, n) => {
        const ms = START + (n + 1) * 60_000;
        return store.webhookSigningKeys.rotate(key(`r${n}`, iso(ms)), iso(ms + DAY), bounds(ms));
      }),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(9);
    for (const outcome of outcomes.filter((o) => !o.ok)) {
      expect(outcome).toEqual({ ok: false, oldestInWindow: first.created_at });
    }
    const before = await store.webhookSigningKeys.list(orgId);
    expect(before).toHaveLength(10);
    expect(before.filter((k) => k.retires_at === null)).toHaveLength(1);
    const late = START + 30 * 60_000;
    expect(
      await store.webhookSigningKeys.rotate(key('late', iso(late)), iso(late + DAY), bounds(late)),
    ).toEqual({ ok: false, oldestInWindow: first.created_at });
    expect(await store.webhookSigningKeys.list(orgId)).toEqual(before);
    // A day after the first key, its place in the window is free again.
    const next = START + DAY + 1;
    const outcome = await store.webhookSigningKeys.rotate(
      key('next', iso(next)),
      iso(next + DAY),
      bounds(next),
    );
    expect(outcome).toMatchObject({ ok: true });
    expect(signingAt(await store.webhookSigningKeys.list(orgId), next)).toHaveLength(2);
  });
}
