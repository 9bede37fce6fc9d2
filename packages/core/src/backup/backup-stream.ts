/**
 * The content of an organization's backup, streamed as NDJSON: one line per record, each with a
 * `kind` (`latchkey_backup` first, then `project`, `environment` each followed by its `secret`,
 * `deleted_secret` and `secret_version` lines, `member`, `device`, `audit_webhook`,
 * `workload_identity`, `change_request` (the open ones)), then an `events` line after which every line is an activity event exactly as
 * the export writes it (chain fields included), oldest first, up to the chain head the backup
 * started at. Secret values and signing secrets are in clear here: the client encrypts the whole
 * (an age file) before it touches a disk. API tokens are not included (only their hashes are
 * kept; a restored organization issues new ones).
 */

import type { ChainHead } from '../activity/chain.js';
import type { Checkpoint } from '../activity/checkpoint/checkpoint.js';
import { exportJsonPages } from '../activity/export/stream.js';
import { secretContext } from '../keyring/contexts.js';
import type { Keyring } from '../keyring/keyring.js';
import { open } from '../keyring/keyring.js';
import { BACKUP_FORMAT_VERSION, type BackupCounts } from '../model/backup-format.js';
import type {
  AuditWebhook,
  Device,
  Environment,
  Member,
  Organization,
  Project,
  SecretVersion,
} from '../model/model.js';
import { openSecretValue } from '../secrets/values.js';
import type { StoredSecretVersion, StoreTransaction } from '../store/types.js';
import { changeRequestLine, workloadIdentityLine } from './request-records.js';
import { signingKeyRecords } from './signing-key-records.js';
import { chunked } from './text-chunks.js';
import { backupCredentials } from './webhook-credentials.js';

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/**
 * The records' JSON as the API shows them (the HTTP layer's view mappers): a backup line is a
 * record's view plus what the view leaves out, so a backup and the API never spell a record apart.
 */
export interface RecordViews {
  toOrganizationView(organization: Organization): object;
  toProjectView(project: Project): object;
  toEnvironmentView(environment: Environment, project: string): object;
  toMemberView(member: Member): object;
  toDeviceView(device: Device): object;
  toAuditWebhookView(webhook: AuditWebhook): { headers: unknown; client_certificate: unknown };
}

/**
 * Yields the backup of `organization` as text chunks and fills `counts` as it goes. `head` is the
 * chain position the backup covers (taken before the first line), `checkpoint` its signed
 * statement (what `GET …/activity/checkpoint` answers for it), which restore needs to accept the
 * history.
 */
export async function* backupLines(
  store: StoreTransaction,
  keyring: Keyring | undefined,
  organization: Organization,
  head: ChainHead,
  checkpoint: Checkpoint,
  createdAt: string,
  counts: BackupCounts,
  views: RecordViews,
): AsyncGenerator<string | Uint8Array> {
  const {
    toAuditWebhookView,
    toDeviceView,
    toEnvironmentView,
    toMemberView,
    toOrganizationView,
    toProjectView,
  } = views;
  yield line({
    kind: 'latchkey_backup',
    format_version: BACKUP_FORMAT_VERSION,
    organization: toOrganizationView(organization),
    created_at: createdAt,
    chain: head,
    checkpoint,
    ...(await signingKeysOf(store, keyring, organization.id)),
  });
  const projects = await store.projects.list(organization.id);
  for (const project of projects) {
    counts.project++;
    yield line({ kind: 'project', ...toProjectView(project) });
  }
  const environments: Environment[] = [];
  for (const project of projects) {
    for (const environment of await store.environments.list(project.id)) {
      counts.environment++;
      environments.push(environment);
      yield line({ kind: 'environment', ...toEnvironmentView(environment, project.slug) });
      // In chunks of about 64 kB: an environment of 10,000 keys was one chunk of several megabytes.
      yield* chunked(environmentLines(store, keyring, project.slug, environment, counts));
    }
  }
  for (const member of await store.members.list(organization.id)) {
    counts.member++;
    yield line({ kind: 'member', ...toMemberView(member) });
  }
  for (const device of await store.devices.list(organization.id)) {
    // A workload's ephemeral device lives minutes and belongs to no member: not part of a backup.
    if (device.expires_at) continue;
    counts.device++;
    yield line({ kind: 'device', ...toDeviceView(device) });
  }
  for (const webhook of await store.auditWebhooks.list(organization.id)) {
    counts.audit_webhook++;
    yield line(webhookLine(keyring, webhook, toAuditWebhookView));
  }
  for (const identity of await store.workloads.list(organization.id)) {
    counts.workload_identity++;
    yield line(workloadIdentityLine(identity));
  }
  // The open requests of each environment (at most its limit of open ones), in environment order.
  for (const environment of environments) {
    for (const request of await store.changeRequests.listOpen(environment.id)) {
      counts.change_request++;
      yield line(changeRequestLine(request, keyring));
    }
  }
  yield line({ kind: 'events', through_seq: head.seq });
  const filter = { organizationId: organization.id };
  const chunks =
    store.activity.streamJson?.({ ...filter, throughSeq: head.seq }) ??
    pagedEvents(store, organization.id, head.seq);
  for await (const chunk of chunks) yield chunk;
  counts.event = head.seq;
}

/** A webhook's line: its view, its signing secret and credentials opened. */
function webhookLine(
  keyring: Keyring | undefined,
  webhook: AuditWebhook,
  toAuditWebhookView: RecordViews['toAuditWebhookView'],
) {
  if (!keyring) throw new Error('A keyring is needed to back up audit webhooks.');
  // The masked views of headers and certificate are left out: the line carries them in clear.
  const { headers: _masked, client_certificate: _shown, ...view } = toAuditWebhookView(webhook);
  return {
    kind: 'audit_webhook',
    ...view,
    signing_secret: open(keyring, webhook.secret_sealed, secretContext(webhook.id)),
    ...backupCredentials(keyring, webhook),
    ...(webhook.previous_secret
      ? {
          previous_secret: {
            secret: open(keyring, webhook.previous_secret.sealed, secretContext(webhook.id)),
            until: webhook.previous_secret.until,
          },
        }
      : {}),
  };
}

async function* pagedEvents(store: StoreTransaction, organizationId: string, lastSeq: number) {
  for await (const page of exportJsonPages(store, { organizationId }, lastSeq)) {
    if (page.length > 0) yield `${page.map((e) => e.json).join('\n')}\n`;
  }
}

/**
 * The lines of an environment's keys: each live one with its value, each deleted one with its
 * tombstone version, then every version of each key, kept values opened as the heads' are.
 */
async function* environmentLines(
  store: StoreTransaction,
  keyring: Keyring | undefined,
  project: string,
  environment: Environment,
  counts: BackupCounts,
): AsyncGenerator<string> {
  const live = (last: SecretVersion | undefined) =>
    store.secrets.listLive(environment.id, { afterKey: last?.key, limit: BACKUP_PAGE });
  for await (const secret of paged(live)) {
    if (secret.value === null) continue;
    counts.secret++;
    yield line({
      kind: 'secret',
      project,
      environment: environment.slug,
      key: secret.key,
      value: openSecretValue(keyring, environment.id, secret.key, secret.value),
      version: secret.version,
      updated_at: secret.updated_at,
    });
  }
  // A deleted key keeps its version, so pushes after a restore go on from it.
  const tombstones = (last: { key: string } | undefined) =>
    store.secrets.listTombstones(environment.id, { afterKey: last?.key, limit: BACKUP_PAGE });
  for await (const tombstone of paged(tombstones)) {
    counts.deleted_secret++;
    yield line({
      kind: 'deleted_secret',
      project,
      environment: environment.slug,
      ...tombstone,
    });
  }
  // Each key's history, its kept values opened as the heads' are.
  const versions = (last: StoredSecretVersion | undefined) =>
    store.secrets.listAllVersions(environment.id, { after: last, limit: BACKUP_PAGE });
  for await (const version of paged(versions)) {
    counts.secret_version++;
    const { value, ...metadata } = version;
    yield line({
      kind: 'secret_version',
      project,
      environment: environment.slug,
      ...metadata,
      ...(value === null || version.deleted
        ? {}
        : { value: openSecretValue(keyring, environment.id, version.key, value) }),
    });
  }
}

/**
 * Keys and versions are read this many at a time: read whole, an environment of 10,000 keys was
 * 10,000 rows in the store's answer and as many records in Node's heap at once.
 */
const BACKUP_PAGE = 1_000;

/** Every record of a keyset walk, `read` asked for the page after the last record of the one before. */
async function* paged<T>(read: (last: T | undefined) => Promise<T[]>): AsyncGenerator<T> {
  let last: T | undefined;
  for (;;) {
    const page = await read(last);
    yield* page;
    if (page.length < BACKUP_PAGE) return;
    last = page[page.length - 1];
  }
}

/** The header's `webhook_signing_keys`, when the organization has any (else nothing, as before). */
async function signingKeysOf(store: StoreTransaction, keyring: Keyring | undefined, organizationId: string) {
  const keys = await signingKeyRecords(store, keyring, organizationId);
  return keys.length === 0 ? {} : { webhook_signing_keys: keys };
}
