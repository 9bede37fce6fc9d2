/**
 * `push --rebase`: after a conflict, the keys that moved on the server are shown three ways (base:
 * what this machine last saw; yours: the file; theirs: the server now), and for each the user says
 * whether to push theirs over with their version as the new base, or to take theirs into the file.
 * Only what the user confirms is pushed again; nothing is decided silently.
 */
import type { UnsignedPush } from '@latchkey/core/client';
import type { Base } from '../base-versions.js';
import type { Conflict } from '../conflict-report.js';
import type { Output } from '../output.js';
import type { Prompter } from '../prompt.js';

type Change = UnsignedPush['changes'][number];

export interface ServerSecret {
  key: string;
  value: string;
  version: number;
}

export interface RebasePlan {
  /** The changes to push again: the confirmed keys at the server's version, the others as they were. */
  changes: Change[];
  /** Keys where the user took the server's value: the file is to be updated with these. */
  taken: Record<string, string | null>;
}

const show = (value: string | null | undefined) =>
  value === undefined ? '(absent)' : value === null ? '(deleted)' : JSON.stringify(value);

export async function planRebase(
  changes: Change[],
  conflicts: Conflict[],
  server: ServerSecret[],
  base: Base | undefined,
  out: Output,
  prompter: Prompter,
): Promise<RebasePlan> {
  const now = new Map(server.map((s) => [s.key, s]));
  const conflicting = new Map(conflicts.map((c) => [c.key, c]));
  const plan: RebasePlan = { changes: [], taken: {} };
  out.warnTable(
    ['key', 'base', 'yours', 'theirs'],
    conflicts.map((c) => {
      const change = changes.find((x) => x.key === c.key);
      const theirs = now.get(c.key);
      return [
        c.key,
        base?.[c.key] ? `v${base[c.key]!.version} ${show(base[c.key]!.value)}` : '(absent)',
        change?.delete ? '(deleted)' : show(change?.value),
        theirs ? `v${theirs.version} ${show(theirs.value)}` : '(deleted)',
      ];
    }),
  );
  for (const change of changes) {
    const conflict = conflicting.get(change.key);
    if (!conflict) {
      plan.changes.push(change);
      continue;
    }
    const keep = await prompter.confirm(
      `Push yours for ${change.key} over the server's version ${conflict.server_version}?`,
    );
    if (keep) plan.changes.push({ ...change, if_version: conflict.server_version });
    else plan.taken[change.key] = now.get(change.key)?.value ?? null;
  }
  return plan;
}
