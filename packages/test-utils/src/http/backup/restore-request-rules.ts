/**
 * Item: a restore holds a backup's change requests to the rules their routes enforce. A line with
 * a field too many or too few, a state a backup never carries (or one its approvals contradict), a
 * device the backup does not hold, or a value no signed push could carry (none for a set, one for a
 * delete, one that is not text, NUL, a lone surrogate) is a 422 `backup_invalid` naming the line, and nothing
 * is written, on every store. Only a workload's request names a device no backup holds (its
 * ephemeral one), and restores.
 */
import { generateDeviceKeyPair, signChangeRequest } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { goodClaims, identityBody, nowSeconds } from '../workload/workload-helpers.js';
import { type Line, linesOf, restoreHelpers } from './restore-helpers.js';
import { guardedOrganization } from './restore-requests.js';

type Edit = (request: Line) => Line;

const UNKNOWN_DEVICE = 'dev_notinthebackup0';
const at = '2026-12-01T10:00:00.000Z';
/** A change of the request's first (a set) replaced by `change`. */
const firstChange =
  (change: Record<string, unknown>): Edit =>
  (r) => ({
    ...r,
    changes: [{ ...(r['changes'] as Line[])[0], ...change }],
  });
const approvedBy =
  (approvals: Record<string, unknown>[]): Edit =>
  (r) => ({
    ...r,
    status: 'approved',
    approvals,
  });

/** What each malformed line is, its edit, and what the refusal's message names. */
const CASES: [string, Edit, RegExp][] = [
  ['a field too many', (r) => ({ ...r, values_sealed: true }), /not a valid backup record/],
  ['no changes field', ({ changes: _c, ...r }) => r, /\(changes\)/],
  ['no device_id', ({ device_id: _d, ...r }) => r, /\(device_id\)/],
  ['an if_version that is text', firstChange({ if_version: '0' }), /\(changes\.0\.if_version\)/],
  ['a state a backup never holds: applied', (r) => ({ ...r, status: 'applied' }), /\(status\)/],
  ['a state a backup never holds: conflicted', (r) => ({ ...r, status: 'conflicted' }), /\(status\)/],
  ['approved without its approvals', approvedBy([]), /approved exactly when/],
  [
    'open with all its approvals',
    (r) => ({ ...r, approvals: [{ user: 'someone', approved_at: at }] }),
    /approved exactly when/,
  ],
  [
    'one user approving twice',
    approvedBy([
      { user: 'someone', approved_at: at },
      { user: 'someone', approved_at: at },
    ]),
    /approves twice/,
  ],
  ['a device the backup does not hold', (r) => ({ ...r, device_id: UNKNOWN_DEVICE }), /not in the backup/],
  [
    'an approval signed by a device the backup does not hold',
    approvedBy([{ user: 'someone', approved_at: at, device_id: UNKNOWN_DEVICE }]),
    /not in the backup/,
  ],
  [
    'an environment the backup does not hold',
    (r) => ({ ...r, environment: 'staging' }),
    /unknown environment/,
  ],
  ['a set without a value', firstChange({ value: undefined }), /a set carries a value/],
  ['a delete with a value', firstChange({ action: 'delete' }), /a set carries a value/],
  ['a value that is not text', firstChange({ value: 42 }), /\(changes\.0\.value\)/],
  ['a value with NUL', firstChange({ value: 'one\u0000two' }), /NUL/],
  ['a value with a lone surrogate', firstChange({ value: 'one\ud800' }), /lone surrogate/],
  [
    'a key changing twice',
    (r) => ({ ...r, changes: [...(r['changes'] as Line[]), ...(r['changes'] as Line[])] }),
    /changes twice/,
  ],
];

/** Registers these tests of the HTTP conformance suite. */
export function describeRestoreRequestRuleTests(ctx: ConformanceContext): void {
  describe('restore: change request rules', () => {
    it('refuses malformed change_request lines with backup_invalid naming the line, writing nothing', async () => {
      const { backupOf, newOrganization, restoreLines, refused } = restoreHelpers(ctx);
      const source = await guardedOrganization(ctx, 'cr-rules', { required_approvals: 1 });
      await source.propose([{ key: 'K', value: 'one', if_version: 0 }], 'to edit');
      const lines = linesOf(await backupOf(source.slug, source.token));
      const index = lines.findIndex((l) => l.kind === 'change_request');
      expect(index).toBeGreaterThan(0);
      const slug = `${source.slug}-into`;
      const token = await newOrganization(slug);
      const base = `/api/v2/organizations/${slug}`;
      for (const [what, edit, message] of CASES) {
        const edited = lines.map((l, n) => (n === index ? edit({ ...l }) : l));
        const answer = await restoreLines(slug, token, edited);
        refused(answer, new RegExp(`^The backup is not valid: line ${index + 1}: .*${message.source}`), what);
      }
      // Nothing written: the organization has no project, so no environment and no request.
      const projects = await ctx.send('GET', `${base}/projects`, undefined, token);
      expect(projects.json).toEqual({ projects: [] });
      // The line as it was restores, and its request is there: the refusals were the edits.
      const restored = await restoreLines(slug, token, lines);
      expect(restored.status, restored.text).toBe(200);
      const env = `${base}/projects/web/environments/prod/change-requests`;
      const listed = await ctx.send('GET', env, undefined, token);
      expect((listed.json as { change_requests: { title: string }[] }).change_requests).toEqual([
        expect.objectContaining({ title: 'to edit', status: 'open' }),
      ]);
    });

    it("restores a workload's request, whose ephemeral device no backup holds", async () => {
      const { backupOf, newOrganization, restoreLines } = restoreHelpers(ctx);
      const source = await guardedOrganization(ctx, 'cr-wl', { required_approvals: 1 });
      const body = identityBody(ctx, 'ci', { actions: ['changes:propose'] });
      const created = await ctx.send('POST', `${source.base}/workload-identities`, body, source.token);
      expect(created.status, created.text).toBe(201);
      const idToken = await ctx.issuer.sign(goodClaims(ctx, { jti: `cr-wl-${Math.random()}` }), {
        nowSeconds: nowSeconds(ctx),
      });
      const keys = generateDeviceKeyPair();
      const exchanged = await ctx.send(
        'POST',
        '/api/v2/workload-tokens',
        { organization: source.slug, identity: 'ci', id_token: idToken, public_key: keys.publicKey },
        null,
      );
      expect(exchanged.status, exchanged.text).toBe(201);
      const session = exchanged.json as { token: string; device_id: string };
      const address = { organization: source.slug, project: 'web', environment: 'prod' };
      const changes = [{ key: 'CI', value: 'built', if_version: 0 }];
      const signed = signChangeRequest(
        { device_id: session.device_id, changes, title: 'from ci' },
        address,
        keys.privateKey,
      );
      expect((await ctx.send('POST', `${source.env}/change-requests`, signed, session.token)).status).toBe(
        201,
      );
      const lines = linesOf(await backupOf(source.slug, source.token));
      const request = lines.find((l) => l.kind === 'change_request');
      expect(request).toMatchObject({
        created_by: (created.json as { id: string }).id,
        device_id: session.device_id,
      });
      expect(lines.filter((l) => l.kind === 'device').map((l) => l['id'])).not.toContain(session.device_id);
      const slug = `${source.slug}-into`;
      const token = await newOrganization(slug);
      const restored = await restoreLines(slug, token, lines);
      expect(restored.status, restored.text).toBe(200);
      const env = `/api/v2/organizations/${slug}/projects/web/environments/prod/change-requests`;
      const listed = await ctx.send('GET', env, undefined, token);
      expect((listed.json as { change_requests: { title: string }[] }).change_requests).toEqual([
        expect.objectContaining({ title: 'from ci', status: 'open' }),
      ]);
    });
  });
}
