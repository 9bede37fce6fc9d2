/**
 * Item: a staged restore is bounded and cheap to read. The content is read in time linear in its
 * size (a line spanning many parts is searched once), and the commit gives the event loop a turn
 * for every part; parts may not hold more bytes than the manifest declares, nor be numbered past
 * what those bytes or the server allow; an organization has one open restore at a time; a line
 * longer than the server reads is refused naming it; a failed or abandoned restore leaves no parts.
 */
import { expect, vi } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, CONFORMANCE_MAX_LINE_BYTES, type ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import type { TargetResponse } from '../harness/http-target.js';
import { manifestOf } from './restore.js';

/** The documented default of the core option `restores.maxParts`. */
const MAX_PARTS = 10_000;
/** The documented default body limit: a part carries less, so a restore holds at most this many bytes per part. */
const BODY_LIMIT = 1_048_576;
/** The manifest of content that is never sent: for limits checked before any content is read. */
const declared = (bytes: number) => ({
  sha256: '0'.repeat(64),
  bytes,
  counts: manifestOf('{"kind":"latchkey_backup"}\n{"kind":"events"}\n').counts,
});

/** `text` with its first line (the header) widened by `spaces` blanks before its closing brace. */
function widened(text: string, spaces: number): string {
  const end = text.indexOf('\n');
  return `${text.slice(0, end - 1)}${' '.repeat(spaces)}}${text.slice(end)}`;
}

/** `text` cut every `size` characters, wherever the cut falls (inside lines too). */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

/** Registers the restore limit tests. */
export function describeRestoreLimitTests(ctx: ConformanceContext): void {
  const kit = restoreLimitKit(ctx);
  describe('restore limits', () => {
    partTests(kit);
    sessionTests(kit);
  });
}

type RestoreLimitKit = ReturnType<typeof restoreLimitKit>;

/** What the limit tests share: a restore in parts, step by step, and what the store holds of it. */
function restoreLimitKit(ctx: ConformanceContext) {
  const base = (slug: string) => `/api/v2/organizations/${slug}/restores`;
  const newOrganization = async (slug: string) => {
    const created = await ctx.send('POST', '/api/v2/organizations', { slug }, ADMIN);
    expect(created.status).toBe(201);
    return (created.json as { token: string }).token;
  };
  const backupOf = async (slug: string, token: string) => {
    const response = await ctx.send('GET', `/api/v2/organizations/${slug}/backup`, undefined, token);
    expect(response.status).toBe(200);
    return response.text;
  };
  const begin = (slug: string, token: string, manifest: unknown) =>
    ctx.send('POST', base(slug), { manifest }, token);
  const begun = async (slug: string, token: string, manifest: unknown) => {
    const answer = await begin(slug, token, manifest);
    expect(answer.status).toBe(201);
    return (answer.json as { id: string }).id;
  };
  const put = (slug: string, token: string, id: string, index: number, data: string) =>
    ctx.send('PUT', `${base(slug)}/${id}/parts/${index}`, { data }, token);
  const putAll = async (slug: string, token: string, id: string, parts: string[]) => {
    for (const [index, data] of parts.entries())
      expect((await put(slug, token, id, index, data)).status).toBe(200);
  };
  const commit = (slug: string, token: string, id: string) =>
    ctx.send('POST', `${base(slug)}/${id}/commit`, undefined, token);
  /** What the store holds of a session: whether it is open, and its parts. */
  const staged = async (slug: string, id: string) => {
    const organization = (await ctx.core.store.organizations.getBySlug(slug))!;
    const session = await ctx.core.store.restores.get(organization.id, id, new Date().toISOString());
    return { open: session !== null, parts: await ctx.core.store.restores.partStats(id) };
  };
  const none = { open: false, parts: { count: 0, maxIndex: -1 } };
  return { ctx, base, newOrganization, backupOf, begin, begun, put, putAll, commit, staged, none };
}

/** A restore in parts: a line across parts read once, parts past what is declared or allowed refused. */
function partTests(kit: RestoreLimitKit): void {
  const { ctx, base, newOrganization, backupOf, begin, begun, put, putAll, commit, staged } = kit;
  it('reads a line spanning many parts once, and gives the event loop a turn for each part while it commits', async () => {
    const token = await newOrganization('limits-line');
    // One line of a million bytes (JSON allows the blanks), cut into 100 parts.
    const content = widened(await backupOf('limits-line', token), 1_000_000);
    const parts = pieces(content, 10_000);
    const target = await newOrganization('limits-line-to');
    const id = await begun('limits-line-to', target, manifestOf(content));
    await putAll('limits-line-to', target, id, parts);

    // The reader's work: every search for a newline, by how many characters it looked at.
    const indexOf = String.prototype.indexOf;
    let scanned = 0;
    const spy = vi.spyOn(String.prototype, 'indexOf').mockImplementation(function (
      this: string,
      search: string,
      position?: number,
    ) {
      const at = indexOf.call(this, search, position);
      if (search === '\n') {
        const from = Math.min(Math.max(position ?? 0, 0), this.length);
        scanned += (at === -1 ? this.length : at + 1) - from;
      }
      return at;
    });
    let turns = 0;
    let committing = true;
    const turn = () => {
      turns++;
      if (committing) setImmediate(turn);
    };
    setImmediate(turn);
    let answer: TargetResponse;
    try {
      answer = await commit('limits-line-to', target, id);
    } finally {
      committing = false;
      spy.mockRestore();
    }
    expect(answer.status).toBe(200);
    // Two passes over the content, each searching every character once (re-searching the
    // held-over text at each part would look at about 50 times as many).
    expect(scanned).toBeLessThanOrEqual(3 * content.length);
    expect(turns).toBeGreaterThanOrEqual(parts.length);
  });

  it('refuses a part past the bytes the manifest declares, or numbered past what they or the server allow', async () => {
    const token = await newOrganization('limits-bytes');
    const content = await backupOf('limits-bytes', token);
    const manifest = manifestOf(content);
    const lines = content.split(/(?<=\n)/);
    const first = lines.slice(0, 2).join('');
    const rest = lines.slice(2).join('');
    const target = await newOrganization('limits-bytes-to');
    const id = await begun('limits-bytes-to', target, manifest);
    expect((await put('limits-bytes-to', target, id, 0, content)).status).toBe(200);
    for (const [index, data] of [
      [1, '\n'],
      [0, `${content} `],
    ] as const) {
      const body = expectError(await put('limits-bytes-to', target, id, index, data), 422, 'backup_invalid');
      expect((body['error'] as { message: string }).message).toContain(`${manifest.bytes} bytes`);
    }
    expect(await staged('limits-bytes-to', id)).toEqual({ open: true, parts: { count: 1, maxIndex: 0 } });
    // A part sent again replaces the bytes it held.
    expect((await put('limits-bytes-to', target, id, 0, first)).status).toBe(200);
    expect((await put('limits-bytes-to', target, id, 1, rest)).status).toBe(200);
    // Each part holds a byte at least, so a manifest of n bytes has parts 0 to n-1 at most.
    expectError(await put('limits-bytes-to', target, id, manifest.bytes, '\n'), 422, 'backup_invalid');
    expectError(await put('limits-bytes-to', target, id, 999_999, '\n'), 422, 'backup_invalid');
    expect(await staged('limits-bytes-to', id)).toEqual({ open: true, parts: { count: 2, maxIndex: 1 } });
    expect((await commit('limits-bytes-to', target, id)).status).toBe(200);

    // The server's maximum: parts 0 to maxParts-1, and no more bytes than so many parts can carry.
    const large = await newOrganization('limits-parts');
    const declaredId = await begun('limits-parts', large, declared(1_000_000_000));
    expect((await put('limits-parts', large, declaredId, MAX_PARTS - 1, '\n')).status).toBe(200);
    expectError(await put('limits-parts', large, declaredId, MAX_PARTS, '\n'), 413, 'payload_too_large');
    expect(await staged('limits-parts', declaredId)).toEqual({
      open: true,
      parts: { count: 1, maxIndex: MAX_PARTS - 1 },
    });
    expect((await ctx.send('DELETE', `${base('limits-parts')}/${declaredId}`, undefined, large)).status).toBe(
      200,
    );
    expectError(
      await begin('limits-parts', large, declared(MAX_PARTS * BODY_LIMIT + 1)),
      413,
      'payload_too_large',
    );
  });
}

/** One open restore per organization; the parts of a failed, abandoned or overlong one are dropped. */
function sessionTests(kit: RestoreLimitKit): void {
  const { ctx, base, newOrganization, backupOf, begin, begun, putAll, commit, staged, none } = kit;
  it('keeps one open restore per organization', async () => {
    const token = await newOrganization('limits-one');
    const manifest = declared(100);
    const id = await begun('limits-one', token, manifest);
    const body = expectError(await begin('limits-one', token, manifest), 409, 'restore_in_progress');
    expect((body['error'] as { message: string }).message).toContain(id);
    // Another organization is not held up.
    const other = await newOrganization('limits-one-other');
    const otherId = await begun('limits-one-other', other, manifest);
    expect((await ctx.send('DELETE', `${base('limits-one')}/${id}`, undefined, token)).status).toBe(200);
    // Two at once: one begins, the other is refused.
    const racing = await Promise.all([
      begin('limits-one', token, manifest),
      begin('limits-one', token, manifest),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(
      (await ctx.send('DELETE', `${base('limits-one-other')}/${otherId}`, undefined, other)).status,
    ).toBe(200);
    // An expired session does not hold the organization.
    ctx.clock.pinnedMs = Date.now() + 3 * 60 * 60 * 1000;
    const later = await begun('limits-one', token, manifest);
    expect((await ctx.send('DELETE', `${base('limits-one')}/${later}`, undefined, token)).status).toBe(200);
  });

  it('drops the parts of a failed commit and of an abandoned restore', async () => {
    const token = await newOrganization('limits-drop');
    const content = await backupOf('limits-drop', token);
    const target = await newOrganization('limits-drop-to');
    const tampered = content.replace('"kind":"member"', '"kind":"membeR"');
    const failed = await begun('limits-drop-to', target, manifestOf(content));
    await putAll('limits-drop-to', target, failed, tampered.split(/(?<=\n)/));
    expectError(await commit('limits-drop-to', target, failed), 422, 'backup_invalid');
    expect(await staged('limits-drop-to', failed)).toEqual(none);
    expectError(await commit('limits-drop-to', target, failed), 404, 'not_found');

    const abandoned = await begun('limits-drop-to', target, manifestOf(content));
    await putAll('limits-drop-to', target, abandoned, content.split(/(?<=\n)/));
    expect((await staged('limits-drop-to', abandoned)).parts.count).toBeGreaterThan(1);
    expect(
      (await ctx.send('DELETE', `${base('limits-drop-to')}/${abandoned}`, undefined, target)).status,
    ).toBe(200);
    expect(await staged('limits-drop-to', abandoned)).toEqual(none);

    // Refused at commit for another reason: the organization gained a project in between.
    const refused = await begun('limits-drop-to', target, manifestOf(content));
    await putAll('limits-drop-to', target, refused, content.split(/(?<=\n)/));
    const project = await ctx.send(
      'POST',
      '/api/v2/organizations/limits-drop-to/projects',
      { slug: 'late' },
      target,
    );
    expect(project.status).toBe(201);
    expectError(await commit('limits-drop-to', target, refused), 409, 'organization_not_empty');
    expect(await staged('limits-drop-to', refused)).toEqual(none);
  });

  it('refuses a line longer than the server reads, naming it, and drops the parts', async () => {
    const token = await newOrganization('limits-long');
    const content = widened(await backupOf('limits-long', token), CONFORMANCE_MAX_LINE_BYTES);
    const target = await newOrganization('limits-long-to');
    const id = await begun('limits-long-to', target, manifestOf(content));
    await putAll('limits-long-to', target, id, pieces(content, 500_000));
    const body = expectError(await commit('limits-long-to', target, id), 422, 'backup_invalid');
    expect((body['error'] as { message: string }).message).toMatch(/^The backup is not valid: line 1: /);
    expect(await staged('limits-long-to', id)).toEqual(none);
  });
}
