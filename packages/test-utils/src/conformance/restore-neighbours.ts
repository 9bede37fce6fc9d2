/**
 * Item: nothing one organization restores slows another. A restore of a large backup (tens of
 * thousands of versions, seconds of work on any store) runs while another organization's requests
 * (who am I, a read of its secrets, a push) start every few milliseconds, whether or not the ones
 * before have answered; their p99 stays under 100 ms, and the restore still comes back whole.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { TargetResponse } from '../http-target.js';
import { describe, it } from '../keyed.js';
import { ADMIN, type ConformanceContext, ENV_PATH } from './context.js';
import { contentOf, type Line, linesOf, manifestOf, restoreHelpers } from './restore-helpers.js';

/** Versions in the large backup: about 15 MB, seconds of work on every store. */
const VERSIONS = 60_000;
/** Keys they are spread over; each keeps the values of its newest versions, as a server does. */
const KEYS = 60;
const KEPT = 10;
/** Raw bytes per part: well within the body limit once sent as a JSON string. */
const PART_BYTES = 512 * 1024;
/** A probe of the other organization starts this often. */
const EVERY_MS = 5;

/** The `q` quantile of `values` (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/** `lines` (a fresh organization's backup) with a project, an environment and a long history. */
function withLargeHistory(lines: Line[]): Line[] {
  const at = '2026-11-01T00:00:00.000Z';
  const records: Line[] = [
    { kind: 'project', id: 'prj_noisy000000000000000001', slug: 'big', name: 'big', created_at: at },
    {
      kind: 'environment',
      id: 'env_noisy000000000000000001',
      project: 'big',
      slug: 'prod',
      require_strict_conflict_mode: false,
      created_at: at,
    },
  ];
  const perKey = VERSIONS / KEYS;
  const where = { project: 'big', environment: 'prod' };
  for (let k = 0; k < KEYS; k++) {
    const key = `KEY_${k}`;
    records.push({
      kind: 'secret',
      ...where,
      key,
      value: `${key} v${perKey}`,
      version: perKey,
      updated_at: at,
    });
    for (let version = 1; version <= perKey; version++) {
      records.push({
        kind: 'secret_version',
        ...where,
        key,
        version,
        deleted: false,
        ...(version > perKey - KEPT ? { value: `${key} v${version}` } : {}),
        occurred_at: at,
        actor: { type: 'user', id: 'admin' },
        device_id: null,
        event_id: `evt_history_${k}_${version}`,
      });
    }
  }
  // Records go between the header and the members (the reader's order), the chain is untouched.
  const members = lines.findIndex((l) => l.kind === 'member' || l.kind === 'events');
  return [...lines.slice(0, members), ...records, ...lines.slice(members)];
}

/** Content in parts of whole lines, each about `PART_BYTES`. */
function parts(content: string): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < content.length) {
    const cut = content.indexOf('\n', Math.min(content.length - 1, start + PART_BYTES));
    const end = cut === -1 ? content.length : cut + 1;
    out.push(content.slice(start, end));
    start = end;
  }
  return out;
}

/** Registers the test. */
export function describeRestoreNeighbourTests(ctx: ConformanceContext): void {
  const { backupOf, newOrganization } = restoreHelpers(ctx);

  /** Starts `probes` in turn every `EVERY_MS` until `work` settles; the latency of each, in ms. */
  async function sampleWhile(work: Promise<unknown>, probes: (() => Promise<TargetResponse>)[]) {
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const answered: Promise<void>[] = [];
    let done = false;
    void work.finally(() => {
      done = true;
    });
    for (let i = 0; !done; i++) {
      const started = performance.now();
      answered.push(
        probes[i % probes.length]!().then((answer) => {
          latencies.push(performance.now() - started);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        }),
      );
      await sleep(EVERY_MS);
    }
    await Promise.all(answered);
    return { latencies, statuses };
  }

  describe('restore: other organizations', () => {
    it('a large restore holds no other organization: its requests keep a p99 under 100 ms, and the restore is whole', async () => {
      const token = await newOrganization('noisy-big');
      const lines = withLargeHistory(linesOf(await backupOf('noisy-big', token)));
      const content = contentOf(lines);
      const manifest = manifestOf(content);
      const base = '/api/v2/organizations/noisy-big/restores';
      const begun = await ctx.send('POST', `${base}`, { manifest, force: true }, token);
      expect(begun.status).toBe(201);
      const { id } = begun.json as { id: string };
      for (const [i, data] of parts(content).entries()) {
        expect((await ctx.send('PUT', `${base}/${id}/parts/${i}`, { data }, token)).status).toBe(200);
      }

      const probes = [
        () => ctx.send('GET', '/api/v2/me', undefined, ADMIN),
        () => ctx.send('GET', `${ENV_PATH}/secrets`, undefined, ADMIN),
        () => ctx.push(ctx.admin, { changes: [{ key: 'NOISY_NEIGHBOUR', value: String(Date.now()) }] }),
      ];
      const started = performance.now();
      const commit = ctx.send('POST', `${base}/${id}/commit`, undefined, token);
      const { latencies, statuses } = await sampleWhile(commit, probes);
      const took = performance.now() - started;
      const answer = await commit;

      const p99 = quantile(latencies, 0.99);
      console.info(
        `restore of ${VERSIONS} versions took ${Math.round(took)} ms; ${latencies.length} requests of another organization meanwhile: p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
      );
      expect(answer.status).toBe(200);
      expect((answer.json as { restored: { secret_version: number } }).restored.secret_version).toBe(
        VERSIONS,
      );
      // Enough requests to make a p99, every one answered as it would be with no restore running.
      expect(latencies.length).toBeGreaterThanOrEqual(100);
      expect([...statuses.keys()]).toEqual([200]);
      expect(p99).toBeLessThan(100);

      // The restored organization holds the backup's keys and every version of their history.
      const restored = await ctx.send(
        'GET',
        '/api/v2/organizations/noisy-big/projects/big/environments/prod/secrets',
        undefined,
        token,
      );
      expect(restored.status).toBe(200);
      const secrets = (restored.json as { secrets: { key: string; value: string; version: number }[] })
        .secrets;
      const perKey = VERSIONS / KEYS;
      expect(secrets).toHaveLength(KEYS);
      expect(secrets.find((s) => s.key === 'KEY_7')).toMatchObject({
        value: `KEY_7 v${perKey}`,
        version: perKey,
      });
      const again = await backupOf('noisy-big', token);
      expect(again.match(/"kind":"secret_version"/g)).toHaveLength(VERSIONS);
    }, 120_000);
  });
}
