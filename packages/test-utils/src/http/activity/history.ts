/** Item: history endpoints, their filters and cursor walks, within what the caller may read. */
import type { ActivityEvent } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { type ConformanceContext, OTHER_ORG_ADMIN } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

const ORG = '/api/v2/organizations/acme';
const WEB = `${ORG}/projects/web`;

interface Page {
  events: ActivityEvent[];
  next_cursor: string | null;
}

/** Registers the history tests. */
export function describeHistoryTests(ctx: ConformanceContext): void {
  /** Every page of a history, following next_cursor. */
  async function walk(path: string, token?: string): Promise<ActivityEvent[]> {
    const out: ActivityEvent[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10_000; pages++) {
      const sep = path.includes('?') ? '&' : '?';
      const response = await ctx.send(
        'GET',
        cursor ? `${path}${sep}cursor=${cursor}` : path,
        undefined,
        token,
      );
      expect(response.status, response.text).toBe(200);
      const page = response.json as Page;
      out.push(...page.events);
      cursor = page.next_cursor;
      if (!cursor) return out;
    }
    throw new Error('the walk did not end');
  }

  describe('history', () => {
    it('pages the organization’s history newest first, each event once', async () => {
      const all = await ctx.events();
      const walked = await walk(`${ORG}/history?limit=7`);
      expect(walked.map((e) => e.seq)).toEqual(all.map((e) => e.seq));
      expect(walked).toEqual(JSON.parse(JSON.stringify(all)));
      const first = (await ctx.send('GET', `${ORG}/history`)).json as Page;
      expect(first.events).toHaveLength(Math.min(50, all.length));
    });

    it('filters by type (comma list), since (inclusive) and until (exclusive)', async () => {
      const all = await ctx.events();
      const types = ['project_created', 'environment_created'];
      const byType = await walk(`${ORG}/history?type=${types.join(',')}&limit=2`);
      expect(byType.map((e) => e.id)).toEqual(all.filter((e) => types.includes(e.type)).map((e) => e.id));
      expect(byType.length).toBeGreaterThan(0);
      const pivot = all[Math.floor(all.length / 2)]!.occurred_at;
      const since = await walk(`${ORG}/history?since=${encodeURIComponent(pivot)}&limit=500`);
      expect(since.map((e) => e.id)).toEqual(all.filter((e) => e.occurred_at >= pivot).map((e) => e.id));
      const until = await walk(`${ORG}/history?until=${encodeURIComponent(pivot)}&limit=500`);
      expect(until.map((e) => e.id)).toEqual(all.filter((e) => e.occurred_at < pivot).map((e) => e.id));
      // An offset is an RFC 3339 time too.
      const shifted = new Date(Date.parse(pivot)).toISOString().replace('Z', '+00:00');
      const same = await walk(`${ORG}/history?since=${encodeURIComponent(shifted)}&limit=500`);
      expect(same.map((e) => e.id)).toEqual(since.map((e) => e.id));
    });

    it('refuses a bad cursor, limit, type or time with 400', async () => {
      for (const query of [
        'cursor=not-a-cursor',
        `cursor=${Buffer.from('c1:0').toString('base64url')}`,
        `cursor=${Buffer.from('c2:5').toString('base64url')}`,
        'limit=0',
        'limit=501',
        'limit=abc',
        'type=Push-Applied',
        'since=yesterday',
        'until=2026-11-24',
        'unknown=1',
      ]) {
        expectError(await ctx.send('GET', `${ORG}/history?${query}`), 400, 'invalid_request');
      }
    });

    it('shows a project’s own events and those of the environments the caller may read', async () => {
      const all = await ctx.events();
      const ofWeb = all.filter((e) => e.project === 'web');
      // The owner sees the whole project.
      expect((await walk(`${WEB}/history?limit=500`)).map((e) => e.id)).toEqual(ofWeb.map((e) => e.id));
      // The developer is granted web/prod only.
      const mine = await walk(`${WEB}/history?limit=5`, ctx.developer.token);
      expect(mine.map((e) => e.id)).toEqual(
        ofWeb.filter((e) => e.environment === undefined || e.environment === 'prod').map((e) => e.id),
      );
      expect(mine.some((e) => e.environment === 'prod')).toBe(true);
      expect(mine.some((e) => e.environment === 'dev' || e.environment === 'locked')).toBe(false);
      // The viewer is granted every environment of web.
      const viewer = await walk(`${WEB}/history?limit=500`, ctx.viewerToken);
      expect(viewer.map((e) => e.id)).toEqual(ofWeb.map((e) => e.id));
      // Environment history: exactly that environment.
      const prod = await walk(`${WEB}/environments/prod/history?limit=3`, ctx.developer.token);
      expect(prod.map((e) => e.id)).toEqual(ofWeb.filter((e) => e.environment === 'prod').map((e) => e.id));
    });

    it('keeps each history to those who may read it (403 in the organization, 404 outside)', async () => {
      expectError(await ctx.send('GET', `${ORG}/history`, undefined, ctx.developer.token), 403, 'forbidden');
      expectError(await ctx.send('GET', `${ORG}/history`, undefined, ctx.viewerToken), 403, 'forbidden');
      expectError(
        await ctx.send('GET', `${WEB}/environments/dev/history`, undefined, ctx.developer.token),
        403,
        'forbidden',
      );
      expectError(
        await ctx.send('GET', `${ORG}/projects/api/history`, undefined, ctx.developer.token),
        403,
        'forbidden',
      );
      expectError(await ctx.send('GET', `${ORG}/history`, undefined, OTHER_ORG_ADMIN), 404, 'not_found');
      expectError(await ctx.send('GET', `${WEB}/history`, undefined, OTHER_ORG_ADMIN), 404, 'not_found');
      expectError(await ctx.send('GET', `${ORG}/projects/nope/history`), 404, 'not_found');
    });

    it('walks with limit=7 while others write: no event missing, none repeated', async () => {
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          const slug = `hist-${written++}`;
          expect((await ctx.send('POST', `${ORG}/projects`, { slug })).status).toBe(201);
          // In process nothing else would run between two writes: let the walk take turns.
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      // Let the writer get going, then walk while it keeps writing.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const walked = await walk(`${ORG}/history?limit=7`);
      writing = false;
      await writer;
      const seqs = walked.map((e) => e.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      // Newest first from wherever the first page began, down to seq 1 with no gap.
      expect(seqs).toEqual(Array.from({ length: seqs[0]! }, (_, i) => seqs[0]! - i));
      expect(written).toBeGreaterThan(0);
    });
  });
}
