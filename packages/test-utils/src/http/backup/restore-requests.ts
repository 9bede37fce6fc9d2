/**
 * Item: a backup carries the open change requests (values inside the backup only) and the workload
 * identities (never their tokens, exchanged `jti`s or ephemeral devices); a restore writes them
 * back, so a restored request is approved, applied or conflicts exactly as before, and a restored
 * identity exchanges ID tokens again. Closed requests stay behind, in the history.
 */
import { generateDeviceKeyPair, signChangeRequest, type UnsignedPush } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { type ChangeRequestJson, requestOf } from '../harness/change-request-helpers.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { AUDIENCE, goodClaims, identityBody, nowSeconds } from '../workload/workload-helpers.js';
import { type Line, linesOf, manifestOf, restoreHelpers, split } from './restore-helpers.js';

const suffix = () => Math.random().toString(36).slice(2, 8);

/** A new organization with web/prod under `policy`, its owner's device, and its requests. */
export async function guardedOrganization(ctx: ConformanceContext, prefix: string, policy: object) {
  const { newOrganization } = restoreHelpers(ctx);
  const slug = `${prefix}-${suffix()}`;
  const token = await newOrganization(slug);
  const base = `/api/v2/organizations/${slug}`;
  const env = `${base}/projects/web/environments/prod`;
  expect((await ctx.send('POST', `${base}/projects`, { slug: 'web' }, token)).status).toBe(201);
  expect((await ctx.send('POST', `${base}/projects/web/environments`, { slug: 'prod' }, token)).status).toBe(
    201,
  );
  expect((await ctx.send('PATCH', env, { approval_policy: policy }, token)).status).toBe(200);
  const keys = generateDeviceKeyPair();
  const device = await ctx.send('POST', `${base}/devices`, { name: 'cr', public_key: keys.publicKey }, token);
  const deviceId = (device.json as { id: string }).id;
  const address = { organization: slug, project: 'web', environment: 'prod' };
  const propose = async (changes: UnsignedPush['changes'], title: string) => {
    const request = requestOf(
      await ctx.send(
        'POST',
        `${env}/change-requests`,
        signChangeRequest({ device_id: deviceId, changes, title }, address, keys.privateKey),
        token,
      ),
    );
    // Requests are listed and backed up oldest first, then by id: two made in one millisecond fall
    // in the order of their random ids. The next one starts a millisecond later, so the tests can
    // follow the order they were made in.
    const made = Date.parse(request.created_at);
    while (Date.now() <= made) await new Promise((resolve) => setTimeout(resolve, 1));
    return request;
  };
  return { slug, token, base, env, deviceId, propose };
}

/** The requests of an environment, oldest first, values shown. */
async function requestsOf(ctx: ConformanceContext, env: string, token: string) {
  const listed = await ctx.send('GET', `${env}/change-requests?limit=100`, undefined, token);
  const ids = (listed.json as { change_requests: { id: string }[] }).change_requests.map((r) => r.id);
  const shown: ChangeRequestJson[] = [];
  for (const id of ids.reverse()) {
    shown.push(
      requestOf(await ctx.send('GET', `${env}/change-requests/${id}?include_values=true`, undefined, token)),
    );
  }
  return shown;
}

/** What a request is apart from where it lives (its id, device and times are the restore's to keep or mint). */
const shape = (r: ChangeRequestJson) => ({
  status: r.status,
  title: (r as { title?: string }).title,
  required_approvals: r.required_approvals,
  changes: r.changes,
  approvals: r.approvals.map((a) => a.user),
});

export function describeRestoreRequestTests(ctx: ConformanceContext): void {
  describe('restore: change requests and workload identities', () => {
    changeRequestTest(ctx);
    workloadIdentityTest(ctx);
  });
}

function changeRequestTest(ctx: ConformanceContext): void {
  it('carries open change requests; restored, they are approved, applied or conflict exactly as before', async () => {
    const { backupOf, newOrganization, restore } = restoreHelpers(ctx);
    const source = await guardedOrganization(ctx, 'cr-carry', {
      required_approvals: 1,
      allow_self_approval: true,
    });
    const act = (org: { env: string; token: string }, id: string, action: string, body?: unknown) =>
      ctx.send('POST', `${org.env}/change-requests/${id}/${action}`, body, org.token);
    const first = await source.propose([{ key: 'K', value: 'one', if_version: 0 }], 'first');
    const racing = await source.propose(
      [
        { key: 'K', value: 'two', if_version: 0 },
        { key: 'L', value: 'el', if_version: 0 },
      ],
      'racing',
    );
    const waiting = await source.propose([{ key: 'M', value: 'em', if_version: 0 }], 'waiting');
    const cancelled = await source.propose([{ key: 'N', value: 'en', if_version: 0 }], 'cancelled');
    expect(requestOf(await act(source, first.id, 'approve', {})).status).toBe('approved');
    expect(requestOf(await act(source, racing.id, 'approve', { comment: 'ok' })).status).toBe('approved');
    expect(requestOf(await act(source, cancelled.id, 'cancel')).status).toBe('cancelled');
    const before = await requestsOf(ctx, source.env, source.token);

    const content = await backupOf(source.slug, source.token);
    const lines = linesOf(content);
    const requestLines = lines.filter((l) => l.kind === 'change_request');
    expect(requestLines.map((l) => [l['id'], l['status']])).toEqual([
      [first.id, 'approved'],
      [racing.id, 'approved'],
      [waiting.id, 'open'],
    ]);
    expect(requestLines[1]?.['changes']).toEqual([
      { key: 'K', action: 'set', if_version: 0, value: 'two' },
      { key: 'L', action: 'set', if_version: 0, value: 'el' },
    ]);
    expect(manifestOf(content).counts['change_request']).toBe(3);

    // Into a fresh organization: the source still holds the ids, so the requests get new ones.
    const slug = `cr-into-${suffix()}`;
    const token = await newOrganization(slug);
    const target = { token, env: `/api/v2/organizations/${slug}/projects/web/environments/prod` };
    const restored = await restore(slug, token, manifestOf(content), split(content));
    expect(restored.status, restored.text).toBe(200);
    expect((restored.json as { restored: Record<string, number> }).restored).toMatchObject({
      change_request: 3,
    });
    const after = await requestsOf(ctx, target.env, token);
    expect(after.map(shape)).toEqual(before.filter((r) => r.status !== 'cancelled').map(shape));
    expect(after.map((r) => r.id)).not.toContain(first.id);
    // The device id too was the source's: the requests name the id its device got here.
    const devices = await ctx.send('GET', `/api/v2/organizations/${slug}/devices`, undefined, token);
    const [device] = (devices.json as { devices: { id: string }[] }).devices;
    expect(device?.id).not.toBe(source.deviceId);
    expect(after.map((r) => r.device_id)).toEqual([device?.id, device?.id, device?.id]);
    const [one, two, three] = after as [ChangeRequestJson, ChangeRequestJson, ChangeRequestJson];
    const applied = await act(target, one.id, 'apply');
    expect(applied.status, applied.text).toBe(200);
    expect((applied.json as { versions: unknown }).versions).toEqual([{ key: 'K', version: 1 }]);
    // The second was made against the same version of K: it conflicts, as it would have at the source.
    const conflict = expectError(await act(target, two.id, 'apply'), 409, 'version_conflict');
    expect(conflict['conflicts']).toEqual([{ key: 'K', server_version: 1, client_if_version: 0 }]);
    expect(
      requestOf(await ctx.send('GET', `${target.env}/change-requests/${two.id}`, undefined, token)).status,
    ).toBe('conflicted');
    expect(requestOf(await act(target, three.id, 'approve', {})).status).toBe('approved');
    expect((await act(target, three.id, 'apply')).status).toBe(200);
    const pulled = await ctx.send('GET', `${target.env}/secrets`, undefined, token);
    expect(pulled.status).toBe(200);
    expect(pulled.text).toContain('"em"');

    // Into its own organization: the ids are its own again, and kept.
    const again = await restore(source.slug, source.token, manifestOf(content), split(content), true);
    expect(again.status, again.text).toBe(200);
    expect(requestOf(await act(source, waiting.id, 'approve', {})).status).toBe('approved');
    expectError(
      await ctx.send('GET', `${source.env}/change-requests/${cancelled.id}`, undefined, source.token),
      404,
      'not_found',
    );
  });
}

function workloadIdentityTest(ctx: ConformanceContext): void {
  it('carries workload identities, never their tokens or jtis; restored over itself, the spent jtis stay', async () => {
    const { backupOf, newOrganization, restore } = restoreHelpers(ctx);
    const slug = `wid-carry-${suffix()}`;
    const token = await newOrganization(slug);
    const base = `/api/v2/organizations/${slug}`;
    expect((await ctx.send('POST', `${base}/projects`, { slug: 'web' }, token)).status).toBe(201);
    const body = { ...identityBody(ctx, 'ci'), token_ttl_seconds: 600 };
    const created = await ctx.send('POST', `${base}/workload-identities`, body, token);
    expect(created.status, created.text).toBe(201);
    const identity = created.json as { id: string };
    const exchange = async (organization: string, idToken: string) =>
      ctx.send(
        'POST',
        '/api/v2/workload-tokens',
        { organization, identity: 'ci', id_token: idToken, public_key: generateDeviceKeyPair().publicKey },
        null,
      );
    const jti = `carried-${suffix()}`;
    const idToken = await ctx.issuer.sign(goodClaims(ctx, { jti }), { nowSeconds: nowSeconds(ctx) });
    const issued = await exchange(slug, idToken);
    expect(issued.status, issued.text).toBe(201);
    const session = issued.json as { token: string; device_id: string };

    const content = await backupOf(slug, token);
    const lines = linesOf(content);
    expect(lines.filter((l) => l.kind === 'workload_identity')).toEqual([
      { kind: 'workload_identity', ...(created.json as Line) },
    ]);
    // The token nowhere; the ephemeral device and the jti only in the history's events.
    expect(content).not.toContain(session.token);
    const records = JSON.stringify(
      lines.slice(
        0,
        lines.findIndex((l) => l.kind === 'events'),
      ),
    );
    expect(records).not.toContain(session.device_id);
    // Neither the jti nor a field of that name (a bare `jti` could appear by chance in base64).
    expect(records).not.toContain(jti);
    expect(records).not.toContain('"jti"');
    expect(lines.filter((l) => l.kind === 'device')).toEqual([]);

    const into = `wid-into-${suffix()}`;
    const intoToken = await newOrganization(into);
    const restored = await restore(into, intoToken, manifestOf(content), split(content));
    expect(restored.status, restored.text).toBe(200);
    const listed = await ctx.send(
      'GET',
      `/api/v2/organizations/${into}/workload-identities`,
      undefined,
      intoToken,
    );
    const [copy] = (listed.json as { workload_identities: Record<string, unknown>[] }).workload_identities;
    const { id: _id, ...fields } = created.json as Record<string, unknown>;
    expect(copy).toMatchObject({ ...fields, audience: AUDIENCE, token_ttl_seconds: 600 });
    expect(copy?.['id']).not.toBe(identity.id);
    // No jti came along: the organization has exchanged none yet.
    expect((await exchange(into, idToken)).status).toBe(201);

    // Restored over itself: the identity keeps its id, and its live tokens end.
    const over = await restore(slug, token, manifestOf(content), split(content), true);
    expect(over.status, over.text).toBe(200);
    const own = await ctx.send('GET', `${base}/workload-identities`, undefined, token);
    expect((own.json as { workload_identities: { id: string }[] }).workload_identities).toEqual([
      expect.objectContaining({ id: identity.id, name: 'ci' }),
    ]);
    expectError(await ctx.send('GET', `${base}/projects`, undefined, session.token), 401, 'unauthenticated');
    // Its spent jtis survive: the ID token exchanged before the restore is still spent after it.
    const replayed = await exchange(slug, idToken);
    expectError(replayed, 409, 'token_replayed');
    expect(replayed.text).not.toContain(idToken.split('.')[1]);
  });
}
