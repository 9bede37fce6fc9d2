/**
 * A staged restore from its beginning to its end, short of the commit (`backup/restore/commit.ts`): begun
 * with the manifest only when a commit could apply it, sent in parts sealed while staged, seen and
 * abandoned by its creator alone. An organization has one open at a time.
 */

import type { TrustedAuditKeys } from '../../activity/trusted-audit-keys.js';
import type { Principal } from '../../auth/permissions.js';
import type { WebhookSettings } from '../../delivery/config.js';
import { LatchkeyError } from '../../errors/latchkey-error.js';
import type { Keyring } from '../../keyring/keyring.js';
import { seal } from '../../keyring/keyring.js';
import type { BackupManifest } from '../../model/backup-format.js';
import type { Organization } from '../../model/model.js';
import type { IdGenerator } from '../../runtime/ids.js';
import type { LatchkeyStore, RestoreSession } from '../../store/types.js';
import type { TrustedIssuers } from '../../workload/trusted-issuers.js';
import { isEmptyOrganization, notEmpty, partContext } from './apply.js';
import { noTrustedKeys } from './history.js';
import { checkDeclaredBytes, checkPartNumber, type RestoreLimits, tooManyBytes } from './limits.js';

/** How long a staged restore is kept: time enough to send a large backup over a slow link. */
const SESSION_MS = 2 * 60 * 60 * 1000;

/** The parts of the core's dependencies a restore uses. */
export interface RestoreDeps {
  store: LatchkeyStore;
  ids: IdGenerator;
  /** Encryption at rest, when the host supplies a keyring. */
  keyring: Keyring | undefined;
  /** Limits of a staged restore (core option `restores`). */
  restores: RestoreLimits;
  /** The audit keys whose checkpoints a restore accepts. */
  trustedAuditKeys: TrustedAuditKeys;
  /** Audit webhook settings (the restored webhooks are checked against them). */
  webhooks: WebhookSettings;
  /** The trusted issuers (a restored workload identity's issuer is checked as at create). */
  workload: { trusted: TrustedIssuers };
}

/** Who acts on a staged restore, and when: the caller in their organization, at the request's time. */
export interface RestoreCaller {
  deps: RestoreDeps;
  organization: Organization;
  principal: Principal;
  at: string;
}

/** The 409 of a second restore while one is open. */
function inProgress(open: RestoreSession): LatchkeyError {
  return new LatchkeyError(
    'restore_in_progress',
    `A restore is already open in this organization (${open.id}, begun by ${open.user}, until ${open.expires_at}); commit or abandon it first.`,
  );
}

/** The 404 of a restore that is not there (never was, or was applied, dropped or expired). */
export function restoreGone(): LatchkeyError {
  return new LatchkeyError('not_found', 'The restore was not found (or it has expired).');
}

/**
 * Begins a restore of the backup `manifest` describes, for the caller. Refused before any part is
 * sent when no commit could apply it: this server trusts no audit key (503), the manifest declares
 * more than a restore may hold (413), the organization is not empty and `force` is not given, or it
 * has another restore open (409).
 */
export async function beginRestore(
  caller: RestoreCaller,
  manifest: BackupManifest,
  force: boolean,
): Promise<RestoreSession> {
  const { store, restores, trustedAuditKeys, ids } = caller.deps;
  // Said before the parts are sent: without a key to check the checkpoint, no commit could apply.
  if (trustedAuditKeys.size === 0) throw noTrustedKeys();
  checkDeclaredBytes(manifest.bytes, restores);
  if (!force && !(await isEmptyOrganization(store, caller.organization.id, caller.principal.user))) {
    throw notEmpty();
  }
  const session: RestoreSession = {
    id: ids('rst'),
    organization_id: caller.organization.id,
    user: caller.principal.user,
    manifest,
    force,
    created_at: caller.at,
    expires_at: new Date(Date.parse(caller.at) + SESSION_MS).toISOString(),
  };
  const open = await store.restores.begin(session, caller.at);
  if (open) throw inProgress(open);
  return session;
}

/** The caller's own staged restore `id`; anyone else's answers 404 like a missing one. */
export async function ownRestore(caller: RestoreCaller, id: string): Promise<RestoreSession> {
  const session = await caller.deps.store.restores.get(caller.organization.id, id, caller.at);
  if (!session || session.user !== caller.principal.user) throw restoreGone();
  return session;
}

/**
 * Stores part `index` of the caller's restore `id`, sealed with the keyring when there is one (it
 * holds secret values in clear), and answers its length in bytes. Refused when the number is past
 * what the manifest or the server allows, or when the parts would hold more than the manifest declares.
 */
export async function putRestorePart(
  caller: RestoreCaller,
  id: string,
  index: number,
  data: string,
): Promise<number> {
  const session = await ownRestore(caller, id);
  const { keyring, store, restores } = caller.deps;
  checkPartNumber(session, index, restores);
  const bytes = Buffer.byteLength(data);
  const stored = keyring ? seal(keyring, data, partContext(session.id, index)) : data;
  const total = await store.restores.putPart(session.id, index, stored, bytes, session.manifest.bytes);
  if (total === null) throw restoreGone();
  if (total > session.manifest.bytes) throw tooManyBytes(index, total, session.manifest.bytes);
  return bytes;
}

/** Drops the caller's restore `id` and its parts, writing nothing; answers the session dropped. */
export async function abandonRestore(caller: RestoreCaller, id: string): Promise<RestoreSession> {
  const session = await ownRestore(caller, id);
  await caller.deps.store.restores.end(session.id);
  return session;
}
