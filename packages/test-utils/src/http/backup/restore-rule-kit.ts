/** What the restore rule tests share (see `restore-rules.ts`). */
import { generateDeviceKeyPair } from '@latchkey/core';
import { expect } from 'vitest';
import type { ConformanceContext } from '../harness/context.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';
import { type Line, linesOf, restoreHelpers } from './restore-helpers.js';

/** What {@link restoreRuleKit} returns. */
export type RestoreRuleKit = ReturnType<typeof restoreRuleKit>;

/** What the rule tests share: the restore helpers, a sender per token and one source backup, made once. */
export function restoreRuleKit(ctx: ConformanceContext) {
  const { backupOf, newOrganization, restoreLines, refused } = restoreHelpers(ctx);
  /** Sends with `token` to a path under `/api/v2/organizations/`. */
  const as = (token: string) => (method: string, path: string, body?: unknown) =>
    ctx.send(method, `/api/v2/organizations/${path}`, body, token);

  /** The backup of an organization with a record of every kind. */
  let fixture: Promise<{ source: Line[] }> | undefined;
  const setUp = () => {
    fixture ??= (async () => {
      const sourceToken = await newOrganization('rules-src');
      const owner = as(sourceToken);
      expect((await owner('POST', 'rules-src/projects', { slug: 'web', name: 'Web' })).status).toBe(201);
      expect((await owner('POST', 'rules-src/projects/web/environments', { slug: 'prod' })).status).toBe(201);
      const device = { name: 'laptop', public_key: generateDeviceKeyPair().publicKey };
      expect((await owner('POST', 'rules-src/devices', device)).status).toBe(201);
      const hook = { name: 'siem', url: `https://${PUBLIC_HOST}/rules` };
      expect((await owner('POST', 'rules-src/audit-webhooks', hook)).status).toBe(201);
      expect((await owner('POST', 'rules-src/members', { user: 'auditor', role: 'viewer' })).status).toBe(
        201,
      );
      const source = linesOf(await backupOf('rules-src', sourceToken));
      return { source };
    })();
    return fixture;
  };
  /** The source's lines with line `kind` (the first of it) changed by `edit`; its index too. */
  const edited = (source: readonly Line[], kind: string, edit: (line: Line) => Line) => {
    const lines = source.map((l) => ({ ...l }));
    const index = lines.findIndex((l) => l.kind === kind);
    lines[index] = edit(lines[index]!);
    return { lines, line: index + 1 };
  };
  const firstEvent = (lines: readonly Line[]) => lines.findIndex((l) => l.kind === 'events') + 1;
  return { ctx, backupOf, newOrganization, restoreLines, refused, as, setUp, edited, firstEvent };
}
