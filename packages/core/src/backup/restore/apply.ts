/**
 * Applying a staged restore, inside one transaction: a first pass reads the whole backup and checks
 * everything (schema, order, references, chain, SHA-256 and counts, the signed checkpoint and the
 * Merkle root it signs, the rules of `backup/restore/inspect.ts`) before anything is written; then the
 * organization's content is replaced and a second pass writes it, checking the SHA-256 again so
 * that content changed in between undoes the whole, and the root of the tree the store grew. Secret values and signing secrets are sealed with this server's keyring; ids are kept
 * unless another organization holds them. The restorer stays an owner whatever the backup says.
 * Its steps are exported for `backup/restore/steps.ts`, which runs them without one long transaction.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ChainHead } from '../../activity/chain.js';
import { LatchkeyError } from '../../errors/latchkey-error.js';
import { open } from '../../keyring/keyring.js';
import type { BackupCounts } from '../../model/backup-format.js';
import type { ActivityEvent } from '../../model/model.js';
import type { RestoredIdKind, StoreTransaction } from '../../store/types.js';
import { breathing } from '../breathing.js';
import { inspectBackup, type RestorePlan } from './inspect.js';
import { invalidBackup, readBackup } from './reader.js';
import { checkWrittenTree } from './tree.js';
import { type RestoreInput, Writer } from './writer.js';

export type { RestoreInput } from './writer.js';

/** What a restore did. */
export interface RestoreResult {
  counts: BackupCounts;
  event: ActivityEvent;
}

/** The sealing context of a staged part: it can be opened only as that part of that session. */
export const partContext = (sessionId: string, index: number) => `restore:${sessionId}:part:${index}`;

/**
 * The session's parts in order, opened when they were sealed. A turn of the event loop between the
 * read of a part and its opening: on PGlite, which reads in the process's own thread, the two took
 * up to 9 ms of a 512 kB part, and with the hashing after them ran as one task.
 */
async function* partsOf(tx: StoreTransaction, input: RestoreInput): AsyncGenerator<string> {
  let index = 0;
  for await (const part of tx.restores.parts(input.session.id)) {
    await nextTurn();
    yield input.keyring ? open(input.keyring, part, partContext(input.session.id, index)) : part;
    index++;
  }
}

/** True when the organization holds nothing a restore would overwrite. */
export async function isEmptyOrganization(tx: StoreTransaction, organizationId: string, user: string) {
  // One after another: inside a transaction they share one connection.
  const projects = await tx.projects.list(organizationId);
  const devices = await tx.devices.list(organizationId);
  const webhooks = await tx.auditWebhooks.list(organizationId);
  const members = await tx.members.list(organizationId);
  return (
    projects.length === 0 &&
    devices.length === 0 &&
    webhooks.length === 0 &&
    members.every((m) => m.user === user)
  );
}

/** Checks the whole backup, then replaces the organization's content with it. */
export async function applyRestore(tx: StoreTransaction, input: RestoreInput): Promise<RestoreResult> {
  const plan = await checkRestore(tx, input);
  const replaced = await replacedChain(tx, input);
  await tx.restores.clearOrganization(input.organizationId);
  await writeRestore(tx, input, plan);
  return finishRestore(tx, input, plan, replaced);
}

/** The first pass: every part there, then the whole backup read and checked; writes nothing. */
export async function checkRestore(tx: StoreTransaction, input: RestoreInput): Promise<RestorePlan> {
  const { session } = input;
  const stats = await tx.restores.partStats(session.id);
  if (stats.count === 0 || stats.maxIndex !== stats.count - 1) {
    throw invalidBackup(null, `parts are missing: ${stats.count} received, up to index ${stats.maxIndex}`);
  }
  const items = readBackup(partsOf(tx, input), session.manifest, true, input.maxLineBytes);
  return inspectBackup(breathing(items), {
    manifest: session.manifest,
    user: input.user,
    at: input.at,
    hasKeyring: input.keyring !== undefined,
    trustedAuditKeys: input.trustedAuditKeys,
    webhooks: input.webhooks,
    trustedIssuers: input.trustedIssuers,
  });
}

/** The chain head the restore replaces; a 409 when the organization holds data and `force` is not given. */
export async function replacedChain(tx: StoreTransaction, input: RestoreInput): Promise<ChainHead | null> {
  const { session, organizationId } = input;
  if (!session.force && !(await isEmptyOrganization(tx, organizationId, input.user))) {
    throw notEmpty();
  }
  const newest = (await tx.activity.list({ organizationId, limit: 1 }))[0];
  return newest ? { seq: newest.seq, hash: newest.hash } : null;
}

/**
 * The second pass, into the cleared organization: every record, then the check that the tree the
 * store grew has the root the first pass checked.
 */
export async function writeRestore(tx: StoreTransaction, input: RestoreInput, plan: RestorePlan) {
  const { session, organizationId } = input;
  const taken = new Map<RestoredIdKind, Set<string>>();
  for (const [kind, ids] of plan.ids) taken.set(kind, await tx.restores.takenIds(kind, ids));
  const idFor = (kind: RestoredIdKind, id: string, prefix: string) =>
    taken.get(kind)?.has(id) ? input.ids(prefix) : id;

  const writer = new Writer(tx, input, plan, idFor);
  const items = readBackup(partsOf(tx, input), session.manifest, false, input.maxLineBytes);
  for await (const item of breathing(items)) await writer.write(item);
  await writer.flush();
  // The store grew the tree as it wrote the history: its root must be the one the first pass checked.
  await checkWrittenTree(tx, organizationId, plan.tree);
}

/** The end: the restorer an owner, the `backup_restored` event, the session dropped. */
export async function finishRestore(
  tx: StoreTransaction,
  input: RestoreInput,
  plan: RestorePlan,
  replaced: ChainHead | null,
): Promise<RestoreResult> {
  const { session, organizationId } = input;
  // The restorer stays an owner (the Writer made them one where the backup names them), so the
  // organization is never left without one.
  const restorerAdded = plan.restorerRole === null;
  if (restorerAdded) {
    await tx.members.create({
      organization_id: organizationId,
      user: input.user,
      role: 'owner',
      grants: [],
      created_at: input.at,
    });
  }
  const { checkpoint, ownKey } = plan.accepted;
  const event = await tx.activity.append(
    organizationId,
    input.event('backup_restored', {
      counts: plan.counts,
      // Where the history came from and what vouched for it, so an auditor can check it.
      source: {
        organization: plan.header.organization.slug,
        created_at: plan.header.created_at,
        chain: plan.header.chain,
        checkpoint,
        key_id: checkpoint.key_id,
        key: ownKey ? 'own' : 'trusted',
      },
      replaced_chain: replaced,
      force: session.force,
      restorer_added: restorerAdded,
      restorer: { user: input.user, role_in_backup: plan.restorerRole, role: 'owner' },
    }),
  );
  await tx.restores.end(session.id);
  return { counts: plan.counts, event };
}

/** The 409 of a restore into an organization that holds data, without `force`. */
export function notEmpty(): LatchkeyError {
  return new LatchkeyError(
    'organization_not_empty',
    'The organization is not empty (it has projects, devices, audit webhooks or other members); restore with force to replace its content.',
  );
}
