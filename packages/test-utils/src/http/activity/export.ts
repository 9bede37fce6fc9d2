/** Item: the activity export, NDJSON and CSV, streamed oldest first and recorded once it has ended. */
import { type ActivityEvent, verifyActivityExport, verifyChain, verifyCheckpoint } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { type ConformanceContext, OTHER_ORG_ADMIN } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

const EXPORT = '/api/v2/organizations/acme/activity/export';
/** Where Python's `str.splitlines` ends a line. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what it splits at
const SPLITLINES = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** Registers the export tests. */
export function describeExportTests(ctx: ConformanceContext): void {
  describe('activity export', () => {
    ndjsonTests(ctx);
    csvAndHeadTests(ctx);
  });
}

/** The NDJSON export: every event, filtered, one line per event. */
function ndjsonTests(ctx: ConformanceContext): void {
  it('streams every event as NDJSON, oldest first, as a download, then records activity_exported', async () => {
    const before = (await ctx.events()).reverse();
    const response = await ctx.send('GET', EXPORT);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="acme-activity-[0-9TZ-]+\.ndjson"$/,
    );
    const all = response.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The last line signs the chain head the export stopped at.
    const { checkpoint } = all.pop() as { checkpoint: { seq: number; hash: string; organization: string } };
    const lines = all as ActivityEvent[];
    expect(lines).toEqual(JSON.parse(JSON.stringify(before)));
    expect(verifyChain(lines)).toBe(-1);
    expect(checkpoint).toMatchObject({
      organization: 'acme',
      seq: before.at(-1)!.seq,
      hash: before.at(-1)!.hash,
    });
    expect(
      await verifyActivityExport(response.text, { organization: 'acme', publicKey: ctx.auditPublicKey }),
    ).toMatchObject({
      ok: true,
      events: before.length,
    });
    const [recorded] = await ctx.events('activity_exported');
    expect(recorded!.seq).toBe(before.length + 1);
    expect(recorded!.data).toMatchObject({
      format: 'ndjson',
      events: before.length,
      last_seq: before.length,
    });
  });

  it('filters by type, since and until', async () => {
    const all = (await ctx.events()).reverse();
    const types = ['project_created', 'member_added'];
    const response = await ctx.send('GET', `${EXPORT}?type=${types.join(',')}`);
    const lines = response.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as ActivityEvent)
      .filter((line) => !('checkpoint' in line) && !('inclusion' in line));
    expect(lines.map((e) => e.id)).toEqual(all.filter((e) => types.includes(e.type)).map((e) => e.id));
    // Each event is followed by its inclusion proof, so the filtered export verifies on its own.
    const options = { organization: 'acme', publicKey: ctx.auditPublicKey };
    expect(await verifyActivityExport(response.text, options)).toMatchObject({
      ok: true,
      events: lines.length,
    });
    const forged = response.text.replace('"project_created"', '"member_added"');
    expect(await verifyActivityExport(forged, options)).toMatchObject({ ok: false });
    // The export just made is in the log now too.
    const now = (await ctx.events()).reverse();
    const pivot = now[Math.floor(now.length / 2)]!.occurred_at;
    const since = await ctx.send('GET', `${EXPORT}?since=${encodeURIComponent(pivot)}`);
    const sinceIds = since.text
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as ActivityEvent).id)
      .filter((id) => id !== undefined);
    expect(sinceIds).toEqual(now.filter((e) => e.occurred_at >= pivot).map((e) => e.id));
  });

  it('escapes U+2028, U+2029 and U+0085 so a line splitter sees one line per event', async () => {
    const org = (await ctx.core.store.organizations.getBySlug('acme'))!;
    const note = 'one\u2028two\u2029three\u0085four';
    const planted = await ctx.core.store.activity.append(org.id, {
      id: 'evt_separators0000000000',
      type: 'webhook_test',
      occurred_at: new Date().toISOString(),
      organization: 'acme',
      actor: { type: 'user', id: 'admin' },
      data: { note, [note]: [note] },
    });
    const events = await ctx.events();
    const response = await ctx.send('GET', EXPORT);
    expect(response.status).toBe(200);
    const lines = response.text.split(SPLITLINES);
    expect(lines.pop()).toBe('');
    // Every event once, then the checkpoint: one line each.
    expect(lines).toHaveLength(events.length + 1);
    expect(response.text).toContain('"note":"one\\u2028two\\u2029three\\u0085four"');
    const exported = lines.map((line) => JSON.parse(line) as ActivityEvent);
    expect(exported.find((e) => e.id === planted.id)).toEqual(JSON.parse(JSON.stringify(planted)));
    expect(
      await verifyActivityExport(response.text, { organization: 'acme', publicKey: ctx.auditPublicKey }),
    ).toMatchObject({ ok: true, events: events.length });
    // History answers JSON, where they are plain characters: the same event, character for character.
    const history = await ctx.send('GET', '/api/v2/organizations/acme/history?type=webhook_test&limit=500');
    const shown = (history.json as { events: ActivityEvent[] }).events.find((e) => e.id === planted.id);
    expect(shown).toEqual(JSON.parse(JSON.stringify(planted)));
    expect(shown!.data['note']).toBe(note);
  });
}

/** The CSV export, the signed chain head, and who may export. */
function csvAndHeadTests(ctx: ConformanceContext): void {
  it('writes RFC 4180 CSV with the documented columns, and defuses formulas', async () => {
    // A member whose name a spreadsheet would run, acting once (enrolling a device).
    const hostile = '=HYPERLINK("http://evil.example","x")';
    await ctx.enroll(await ctx.addMember(hostile, 'developer'));
    const all = (await ctx.events()).reverse();
    const response = await ctx.send('GET', `${EXPORT}?format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/\.csv"$/);
    const rows = response.text.split('\r\n');
    expect(rows[0]).toBe(
      'seq,id,type,occurred_at,organization,project,environment,actor_type,actor_id,device_id,data,prev_hash,hash',
    );
    expect(rows.at(-1)).toBe('');
    expect(rows).toHaveLength(all.length + 2);
    const created = all.find((e) => e.type === 'project_created' && e.data['project'] === 'web')!;
    const row = rows.find((r) => r.includes(created.id))!;
    // JSON in a cell: quoted, inner quotes doubled.
    expect(row).toContain('"{""project"":""web""}"');
    expect(row.startsWith(`${created.seq},${created.id},project_created,`)).toBe(true);
    const enrolled = rows.find((r) => r.includes(',device_enrolled,') && r.includes('HYPERLINK'))!;
    expect(enrolled).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
  });

  it('answers the signed chain head at …/activity/checkpoint', async () => {
    const head = (await ctx.events())[0]!;
    const response = await ctx.send('GET', '/api/v2/organizations/acme/activity/checkpoint');
    expect(response.status).toBe(200);
    const checkpoint = response.json as Parameters<typeof verifyCheckpoint>[0];
    expect(checkpoint).toMatchObject({
      organization: 'acme',
      seq: head.seq,
      hash: head.hash,
      public_key: ctx.auditPublicKey,
    });
    expect(verifyCheckpoint(checkpoint, ctx.auditPublicKey)).toBe(true);
    expect(verifyCheckpoint({ ...checkpoint, seq: head.seq - 1 }, ctx.auditPublicKey)).toBe(false);
    expectError(
      await ctx.send('GET', '/api/v2/organizations/acme/activity/checkpoint', undefined, ctx.developer.token),
      403,
      'forbidden',
    );
  });

  it('is for owners and admins only, and refuses a bad format', async () => {
    expectError(await ctx.send('GET', EXPORT, undefined, ctx.developer.token), 403, 'forbidden');
    expectError(await ctx.send('GET', EXPORT, undefined, ctx.viewerToken), 403, 'forbidden');
    expectError(await ctx.send('GET', EXPORT, undefined, OTHER_ORG_ADMIN), 404, 'not_found');
    expectError(await ctx.send('GET', `${EXPORT}?format=xml`), 400, 'invalid_request');
    expectError(await ctx.send('GET', `${EXPORT}?since=nope`), 400, 'invalid_request');
  });
}
