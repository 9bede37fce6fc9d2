/**
 * Item: applies that race, on every store and every adapter. Round after round two approved
 * requests written against the same version of one key are applied at once, or one is applied while
 * a bypass push on that key lands: exactly one wins, the other is a 409 `version_conflict` with
 * `conflicts[]`, and nothing of the loser is written (its other key neither). The chain holds each
 * event once. (Two processes on real PostgreSQL: store-postgres's `concurrent-applies.test.ts`.)
 */
import { type ActivityEvent, verifyChain } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { protectedEnvironment, requestOf, reviewers } from '../harness/change-request-helpers.js';
import type { ConformanceContext, Member } from '../harness/context.js';
import type { TargetResponse } from '../harness/http-target.js';
import { expectedRaceEvents, raceEventCounts } from './race-events.js';

const ROUNDS = 6;

type Guarded = Awaited<ReturnType<typeof protectedEnvironment>>;

/** One side of a round: what it sent, and the key only it writes. */
interface Side {
  kind: 'apply' | 'push';
  own: string;
  id?: string;
  send(): Promise<TargetResponse>;
}

/** Registers these tests of the HTTP conformance suite. */
export function describeChangeRequestRaceTests(ctx: ConformanceContext): void {
  describe('change requests: races', () => {
    it('two applies, or an apply and a bypass push, at once: one wins, one conflicts, each round', async () => {
      const env = await protectedEnvironment(ctx, { bypass_roles: ['owner'] });
      const { owner, admin, developer } = await reviewers(ctx);
      const outcomes: { round: number; side: Side; answer: TargetResponse }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // Even rounds race two applies, odd ones an apply and a bypass push; who starts first alternates.
        const a = await approvedSide(env, developer, admin, round, 'a');
        const b =
          round % 2 === 0
            ? await approvedSide(env, developer, admin, round, 'b')
            : pushSide(ctx, env, owner, round);
        const sides = round % 4 < 2 ? [a, b] : [b, a];
        const answers = await Promise.all(sides.map((s) => s.send()));
        expect(answers.map((r) => r.status).sort(), `round ${round}`).toEqual([200, 409]);
        const lost = answers.find((r) => r.status === 409)!;
        expect(lost.json, `round ${round}`).toMatchObject({
          error: { code: 'version_conflict', status: 409 },
          conflicts: [{ key: 'RACE', server_version: round + 1, client_if_version: round }],
        });
        outcomes.push(...sides.map((side, n) => ({ round, side, answer: answers[n]! })));
      }
      await expectWinnersOnly(ctx, env, outcomes);
      await expectEachEventOnce(ctx, env, outcomes);
    });
  });
}

/** A request on RACE at `round` and a key of its own, approved, and its apply (not sent yet). */
async function approvedSide(
  env: Guarded,
  author: Member,
  approver: Member,
  round: number,
  name: string,
): Promise<Side> {
  const own = `OWN_${name}_${round}`;
  const made = requestOf(
    await env.propose(author, [
      { key: 'RACE', value: `${name}-${round}`, if_version: round },
      { key: own, value: name, if_version: 0 },
    ]),
  );
  expect(requestOf(await env.act(approver, made.id, 'approve', {})).status).toBe('approved');
  return { kind: 'apply', own, id: made.id, send: () => env.act(author, made.id, 'apply') };
}

/** A bypass push on RACE at `round` and a key of its own (not sent yet). */
function pushSide(ctx: ConformanceContext, env: Guarded, owner: Member, round: number): Side {
  const own = `OWN_push_${round}`;
  const changes = [
    { key: 'RACE', value: `push-${round}`, if_version: round },
    { key: own, value: 'push', if_version: 0 },
  ];
  return {
    kind: 'push',
    own,
    send: () => ctx.push(owner, { bypass_reason: `race ${round}`, changes }, env.address, env.path),
  };
}

/** The environment holds RACE at its last version and the winners' own keys, no loser's. */
async function expectWinnersOnly(
  ctx: ConformanceContext,
  env: Guarded,
  outcomes: { side: Side; answer: TargetResponse }[],
) {
  const live = (await ctx.pull(env.path)).map((s) => [s.key, s.version]).sort();
  const won = outcomes.filter((o) => o.answer.status === 200).map((o) => [o.side.own, 1]);
  expect(live).toEqual([['RACE', ROUNDS], ...won].sort());
  for (const { side, answer } of outcomes) {
    if (side.kind !== 'apply') continue;
    const shown = requestOf(await env.read(side.id!));
    expect(shown.status).toBe(answer.status === 200 ? 'applied' : 'conflicted');
    if (answer.status === 200)
      expect(shown.applied?.event_id).toBe((answer.json as { event_id: string }).event_id);
  }
}

/** Every winner's push once in the chain, a conflict for every loser, one unbroken order. */
async function expectEachEventOnce(
  ctx: ConformanceContext,
  env: Guarded,
  outcomes: { side: Side; answer: TargetResponse }[],
) {
  const all: ActivityEvent[] = await ctx.events();
  expect(verifyChain([...all].reverse())).toBe(-1);
  expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
  expect(new Set(all.map((e) => e.seq)).size).toBe(all.length);
  const mine = all.filter((e) => e.environment === env.slug);
  const applied = mine.filter((e) => e.type === 'push_applied').map((e) => e.id);
  const wins = outcomes.filter((o) => o.answer.status === 200);
  for (const w of wins) {
    expect(applied.filter((id) => id === (w.answer.json as { event_id: string }).event_id)).toHaveLength(1);
  }
  const of = (kind: string, status: number) =>
    outcomes.filter((o) => o.side.kind === kind && o.answer.status === status).length;
  expect(raceEventCounts(mine)).toEqual(
    expectedRaceEvents({
      rounds: ROUNDS,
      appliesWon: of('apply', 200),
      appliesLost: of('apply', 409),
      bypassesWon: of('push', 200),
    }),
  );
}
