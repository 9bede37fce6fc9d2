import { describe, expect, it } from 'vitest';
import { generateAuditKey, toAuditKey } from '../../activity/checkpoint/checkpoint.js';
import { toTrustedAuditKeys } from '../../activity/trusted-audit-keys.js';
import type { CoreDeps } from '../../http/core-deps.js';
import { createMemoryStore } from '../../memory/index.js';
import { emptyBackupCounts } from '../../model/backup-format.js';
import { toTrustedIssuers } from '../../workload/trusted-issuers.js';
import { commitRestore } from './commit.js';
import { toRestoreLimits } from './limits.js';
import { abandonRestore, beginRestore, ownRestore, putRestorePart, type RestoreCaller } from './session.js';

const AT = '2025-01-01T00:00:00.000Z';
const MANIFEST = { sha256: '0'.repeat(64), bytes: 10, counts: emptyBackupCounts() };

/** A caller of organization org_1 with a memory store, trusting one audit key unless told otherwise. */
function callerOf(user = 'owner@example.com', services?: CoreDeps) {
  let n = 0;
  const own: CoreDeps =
    services ??
    ({
      store: createMemoryStore(),
      restores: toRestoreLimits({ maxParts: 4 }, 100),
      trustedAuditKeys: toTrustedAuditKeys(toAuditKey(generateAuditKey().privateKeyPem)),
      ids: (prefix: string) => `${prefix}_${++n}`,
      keyring: undefined,
      workload: { trusted: toTrustedIssuers() },
    } as unknown as CoreDeps);
  return {
    deps: own,
    organization: { id: 'org_1', slug: 'acme', name: 'Acme', created_at: AT },
    principal: { organizationId: 'org_1', user, role: 'owner', grants: [] },
    at: AT,
    event: () => {
      throw new Error('no event expected');
    },
  } satisfies RestoreCaller & { event: unknown };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (e: { code?: string }) => e.code,
  );

describe('a staged restore', () => {
  it('is begun for two hours, one at a time in an organization', async () => {
    const caller = callerOf();
    const session = await beginRestore(caller, MANIFEST, false);
    expect(session).toMatchObject({
      user: 'owner@example.com',
      force: false,
      expires_at: '2025-01-01T02:00:00.000Z',
    });
    expect(await codeOf(beginRestore(caller, MANIFEST, true))).toBe('restore_in_progress');
  });

  it('is refused before any part when no commit could apply it', async () => {
    const caller = callerOf();
    const untrusting = { ...caller, deps: { ...caller.deps, trustedAuditKeys: new Map() } };
    expect(await codeOf(beginRestore(untrusting, MANIFEST, false))).toBe('service_unavailable');
    expect(await codeOf(beginRestore(caller, { ...MANIFEST, bytes: 401 }, false))).toBe('payload_too_large');
    await caller.deps.store.projects.create({
      id: 'prj_1',
      organization_id: 'org_1',
      slug: 'web',
      name: 'web',
      created_at: AT,
    });
    expect(await codeOf(beginRestore(caller, MANIFEST, false))).toBe('organization_not_empty');
    expect(await codeOf(beginRestore(caller, MANIFEST, true))).toBe('ok');
  });

  it('is its creator’s alone', async () => {
    const caller = callerOf();
    const { id } = await beginRestore(caller, MANIFEST, false);
    const other = callerOf('admin@example.com', caller.deps);
    expect(await codeOf(ownRestore(other, id))).toBe('not_found');
    expect(await codeOf(putRestorePart(other, id, 0, 'x'))).toBe('not_found');
    expect(await codeOf(abandonRestore(other, id))).toBe('not_found');
    expect((await ownRestore(caller, id)).id).toBe(id);
  });

  it('takes parts up to the bytes its manifest declares', async () => {
    const caller = callerOf();
    const { id } = await beginRestore(caller, MANIFEST, false);
    expect(await putRestorePart(caller, id, 0, 'héllo')).toBe(6);
    expect(await codeOf(putRestorePart(caller, id, 1, 'world'))).toBe('backup_invalid');
    expect(await codeOf(putRestorePart(caller, id, 10, 'x'))).toBe('backup_invalid');
    expect(await putRestorePart(caller, id, 1, 'wor')).toBe(3);
  });

  it('is gone once abandoned, or once a commit fails', async () => {
    const caller = callerOf();
    const first = await beginRestore(caller, MANIFEST, false);
    expect((await abandonRestore(caller, first.id)).id).toBe(first.id);
    expect(await codeOf(ownRestore(caller, first.id))).toBe('not_found');
    const second = await beginRestore(caller, MANIFEST, false);
    // No parts sent: the commit fails, and drops the session.
    expect(await codeOf(commitRestore(caller, second.id))).toBe('backup_invalid');
    expect(await codeOf(ownRestore(caller, second.id))).toBe('not_found');
  });
});
