/**
 * Two app instances (Node processes) on one real PostgreSQL race on one key for 20 rounds: two
 * applies of approved change requests written against the same version, or an apply against a
 * bypass push. Each round exactly one wins and the other is a 409 `version_conflict` with
 * `conflicts[]`; the chain holds every event once, in one unbroken order.
 */
import { createPrivateKey } from 'node:crypto';
import { type ActivityEvent, signChangeRequest, verifyChain } from '@latchkey/core';
import { expectedRaceEvents, raceEventCounts } from '@latchkey/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { setUpAcme, TOKEN } from './acme.js';
import { DATABASE_URL, freshSchema, postgresStore, postgresUnavailable } from './databases.js';
import { runScript } from './processes/spawn.js';

const ROUNDS = 20;
const GAP_MS = 400;
const ENV_PATH = '/api/v2/organizations/acme/projects/web/environments/prod';

type Line = {
  round: number;
  kind: string;
  status: number;
  code?: string;
  conflicts?: unknown;
  event_id?: string;
};

describe.skipIf(postgresUnavailable !== null)(
  'two processes racing applies and bypass pushes (real PostgreSQL)',
  () => {
    const stores: { close(): Promise<void> }[] = [];
    afterAll(async () => {
      for (const store of stores) await store.close();
    });

    it('lets exactly one win each round; the other is a 409 with conflicts[]; every event once', async () => {
      const schema = freshSchema();
      const store = await postgresStore({ schema, url: DATABASE_URL });
      stores.push(store);
      const acme = await setUpAcme(store);
      const call = async (token: string, method: string, url: string, body?: unknown) => {
        const response = await acme.core.handle({
          method,
          url,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, json: JSON.parse(response.body as string) };
      };
      const policy = { required_approvals: 1, bypass_roles: ['owner'] };
      expect((await call(TOKEN, 'PATCH', ENV_PATH, { approval_policy: policy })).status).toBe(200);
      await call(TOKEN, 'POST', '/api/v2/organizations/acme/members', { user: 'approver', role: 'admin' });
      const approver = await call(TOKEN, 'POST', '/api/v2/organizations/acme/tokens', {
        user: 'approver',
        name: 'a',
      });
      const approverToken = approver.json.token as string;
      const privateKey = createPrivateKey(acme.deviceEnv.PRIVATE_KEY);
      const approved = async (round: number, side: string) => {
        const body = signChangeRequest(
          {
            device_id: acme.deviceEnv.DEVICE_ID,
            title: `round ${round} ${side}`,
            changes: [{ key: 'RACE', value: `${side}-${round}`, if_version: round }],
          },
          { organization: 'acme', project: 'web', environment: 'prod' },
          privateKey,
        );
        const made = await call(TOKEN, 'POST', `${ENV_PATH}/change-requests`, body);
        expect(made.status).toBe(201);
        const id = made.json.change_request.id as string;
        expect(
          (await call(approverToken, 'POST', `${ENV_PATH}/change-requests/${id}/approve`, {})).status,
        ).toBe(200);
        return id;
      };
      // Round r races at if_version r: exactly one winner a round moves the key to r + 1.
      const sides: { round: number; apply?: string; push?: number }[][] = [[], []];
      for (let round = 0; round < ROUNDS; round++) {
        sides[0]!.push({ round, apply: await approved(round, 'a') });
        sides[1]!.push(
          round % 2 === 0 ? { round, apply: await approved(round, 'b') } : { round, push: round },
        );
      }
      const startAt = String(Date.now() + 2_500);
      const outputs = await Promise.all(
        sides.map((rounds) =>
          runScript('applier', {
            ...acme.deviceEnv,
            DATABASE_URL,
            SCHEMA: schema,
            ROUNDS: JSON.stringify(rounds),
            START_AT: startAt,
            GAP_MS: String(GAP_MS),
          }),
        ),
      );
      const lines = outputs.flatMap((o) =>
        o
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Line),
      );
      expect(lines).toHaveLength(2 * ROUNDS);
      for (let round = 0; round < ROUNDS; round++) {
        const both = lines.filter((l) => l.round === round);
        expect(both.map((l) => l.status).sort(), `round ${round}`).toEqual([200, 409]);
        expect(both.find((l) => l.status === 409)).toMatchObject({
          code: 'version_conflict',
          conflicts: [{ key: 'RACE', server_version: round + 1, client_if_version: round }],
        });
      }
      const live = await store.secrets.listLive(acme.environmentId);
      expect(live.map((s) => [s.key, s.version])).toEqual([['RACE', ROUNDS]]);

      const events: ActivityEvent[] = (
        await store.activity.list({ organizationId: acme.organizationId, limit: 1_000_000 })
      ).reverse();
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      expect(verifyChain(events)).toBe(-1);
      const won = lines.filter((l) => l.status === 200);
      const appliedIds = events.filter((e) => e.type === 'push_applied').map((e) => e.id);
      for (const w of won) expect(appliedIds.filter((id) => id === w.event_id)).toHaveLength(1);
      const appliesWon = won.filter((l) => l.kind === 'apply').length;
      const appliesLost = lines.filter((l) => l.kind === 'apply' && l.status === 409).length;
      expect(raceEventCounts(events)).toEqual(
        expectedRaceEvents({ rounds: ROUNDS, appliesWon, appliesLost, bypassesWon: ROUNDS - appliesWon }),
      );
      console.log(
        `${ROUNDS} rounds, 2 processes: ${appliesWon} applies and ${ROUNDS - appliesWon} bypass pushes won, ` +
          `${ROUNDS} conflicts (409 with conflicts[]), ${events.length} events in one verified chain`,
      );
    }, 240_000);
  },
);
