/**
 * What the restore tests share: a backup of an organization, a new empty organization to restore
 * into, the staged restore itself (begin, parts, commit), the manifest a client computes, and the
 * means to craft a backup (edit lines, chain the events again, sign a checkpoint with a key the
 * test holds) the way someone holding a backup could.
 */
import { createHash } from 'node:crypto';
import { type ActivityEvent, emptyBackupCounts, signCheckpoint, toAuditKey } from '@latchkey/core';
import { type ActivityDraft, GENESIS_HASH, sealEvent } from '@latchkey/core/store';
import { expect } from 'vitest';
import { ADMIN, type ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import type { TargetResponse } from '../harness/http-target.js';

/** One line of backup content. */
export interface Line {
  kind?: string;
  [field: string]: unknown;
}

/** The kinds a manifest counts besides events (the core's own list). */
const COUNT_KINDS = Object.keys(emptyBackupCounts()).filter((kind) => kind !== 'event');

/** The manifest a client computes over backup content. */
export function manifestOf(content: string) {
  const lines = content.trimEnd().split('\n');
  const marker = lines.findIndex((l) => (JSON.parse(l) as Line).kind === 'events');
  const counts: Record<string, number> = { event: lines.length - marker - 1 };
  for (const kind of COUNT_KINDS) counts[kind] = 0;
  for (const l of lines.slice(1, marker)) counts[(JSON.parse(l) as Line).kind!]!++;
  return {
    sha256: createHash('sha256').update(content).digest('hex'),
    bytes: Buffer.byteLength(content),
    counts,
  };
}

/** The content in three parts of whole lines. */
export function split(content: string): string[] {
  const lines = content.split(/(?<=\n)/);
  const third = Math.ceil(lines.length / 3);
  return [0, 1, 2].map((i) => lines.slice(i * third, (i + 1) * third).join('')).filter(Boolean);
}

/** Backup content as lines, and back. */
export const linesOf = (content: string): Line[] =>
  content
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
export const contentOf = (lines: readonly Line[]): string =>
  lines.map((l) => `${JSON.stringify(l)}\n`).join('');

/**
 * Chains the events of `lines` again from genesis (after they were edited), points the header at
 * the new head, and signs a checkpoint of it with `privateKeyPem` (or drops the checkpoint when
 * null). `organization` is what the checkpoint names (default: the header's organization).
 */
export function rechain(lines: Line[], privateKeyPem: string | null, organization?: string): Line[] {
  const marker = lines.findIndex((l) => l.kind === 'events');
  let head: { seq: number; hash: string } | null = null;
  const events = lines.slice(marker + 1).map((line) => {
    const { seq: _seq, prev_hash: _prev, hash: _hash, ...draft } = line as unknown as ActivityEvent;
    const event = sealEvent(draft as ActivityDraft, head);
    head = { seq: event.seq, hash: event.hash };
    return event as unknown as Line;
  });
  const header = { ...lines[0]! } as Line & { organization: { slug: string } };
  const chain = head ?? { seq: 0, hash: GENESIS_HASH };
  header['chain'] = chain;
  if (privateKeyPem === null) delete header['checkpoint'];
  else {
    header['checkpoint'] = signCheckpoint(
      { organization: organization ?? header.organization.slug, ...chain },
      toAuditKey(privateKeyPem),
      new Date().toISOString(),
    );
  }
  return [header, ...lines.slice(1, marker + 1), ...events];
}

/** The restore helpers of one suite. */
export function restoreHelpers(ctx: ConformanceContext) {
  const backupOf = async (slug: string, token: string) => {
    const response = await ctx.send('GET', `/api/v2/organizations/${slug}/backup`, undefined, token);
    expect(response.status).toBe(200);
    return response.text;
  };
  const newOrganization = async (slug: string) => {
    const created = await ctx.send('POST', '/api/v2/organizations', { slug }, ADMIN);
    expect(created.status).toBe(201);
    return (created.json as { token: string }).token;
  };
  /** Begins, sends `parts` and commits; answers the first refusal, or the commit's answer. */
  const restore = async (
    slug: string,
    token: string,
    manifest: unknown,
    parts: string[],
    force?: boolean,
  ): Promise<TargetResponse> => {
    const base = `/api/v2/organizations/${slug}/restores`;
    const begun = await ctx.send(
      'POST',
      base,
      force === undefined ? { manifest } : { manifest, force },
      token,
    );
    if (begun.status !== 201) return begun;
    const { id } = begun.json as { id: string };
    for (const [i, data] of parts.entries()) {
      const sent = await ctx.send('PUT', `${base}/${id}/parts/${i}`, { data }, token);
      if (sent.status !== 200) return sent;
    }
    return ctx.send('POST', `${base}/${id}/commit`, undefined, token);
  };
  /** Restores `lines` as they are (manifest computed over them). */
  const restoreLines = (slug: string, token: string, lines: readonly Line[], force?: boolean) => {
    const content = contentOf(lines);
    return restore(slug, token, manifestOf(content), split(content), force);
  };
  /** Expects a 422 `backup_invalid` whose message matches `message`; answers the message. */
  const refused = (answer: TargetResponse, message: RegExp, what = ''): string => {
    const body = expectError(answer, 422, 'backup_invalid') as { error: { message: string } };
    expect({ what, message: body.error.message }).toEqual({ what, message: expect.stringMatching(message) });
    return body.error.message;
  };
  return { backupOf, newOrganization, restore, restoreLines, refused };
}
