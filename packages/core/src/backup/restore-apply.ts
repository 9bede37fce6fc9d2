/**
 * Applying a staged restore, inside one transaction: a first pass reads the whole backup and checks
 * everything (schema, order, references, chain, SHA-256 and counts, the signed checkpoint, the rules
 * of `restore-inspect.ts`) before anything is written; then the organization's content is replaced
 * and a second pass writes it, checking the SHA-256 again so that content changed in between undoes
 * the whole. Secret values and signing secrets are sealed with this server's keyring; ids are kept
 * unless another organization holds them. The restorer stays an owner whatever the backup says.
 */

import type { ChainHead } from '../activity/chain.js';
import type { EventData } from '../activity/event-types/index.js';
import type { TrustedAuditKeys } from '../activity/trusted-audit-keys.js';
import type { WebhookSettings } from '../delivery/config.js';
import { LatchkeyError } from '../http/errors.js';
import { secretContext } from '../keyring/contexts.js';
import { type Keyring, open, seal } from '../keyring/keyring.js';
import type { ActivityDraft, ActivityEvent, Environment, Project } from '../model.js';
import { parseEd25519PublicKey } from '../secrets/signatures.js';
import { sealSecretValue } from '../secrets/values.js';
import type { RestoredIdKind, RestoredSecret, RestoreSession, StoreTransaction } from '../store/types.js';
import type { BackupCounts } from './format.js';
import { inspectBackup, type RestorePlan } from './restore-inspect.js';
import { type BackupItem, invalidBackup, readBackup } from './restore-reader.js';

const BATCH = 1_000;

/** A backup record of the given kind, as the reader yields it. */
type RecordOf<K extends string> = Extract<Extract<BackupItem, { kind: 'record' }>['record'], { kind: K }>;

/** What a restore needs besides the transaction. */
export interface RestoreInput {
  session: RestoreSession;
  organizationId: string;
  /** The member applying it: an owner afterwards whatever the backup says (added when it does not name them). */
  user: string;
  keyring: Keyring | undefined;
  /** The keys whose checkpoints this server accepts. */
  trustedAuditKeys: TrustedAuditKeys;
  /** The SSRF check's resolver and allowlist, as webhook create uses them. */
  webhooks: Pick<WebhookSettings, 'resolve' | 'allowHosts'>;
  ids: (prefix: string) => string;
  at: string;
  /** The longest line the reader takes (core option `restores.maxLineBytes`). */
  maxLineBytes: number;
  event(type: 'backup_restored', data: EventData<'backup_restored'>): ActivityDraft;
}

/** What a restore did. */
export interface RestoreResult {
  counts: BackupCounts;
  event: ActivityEvent;
}

/** The sealing context of a staged part: it can be opened only as that part of that session. */
export const partContext = (sessionId: string, index: number) => `restore:${sessionId}:part:${index}`;

/** The session's parts in order, opened when they were sealed. */
async function* partsOf(tx: StoreTransaction, input: RestoreInput): AsyncGenerator<string> {
  let index = 0;
  for await (const part of tx.restores.parts(input.session.id)) {
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
  const { session, organizationId } = input;
  const stats = await tx.restores.partStats(session.id);
  if (stats.count === 0 || stats.maxIndex !== stats.count - 1) {
    throw invalidBackup(null, `parts are missing: ${stats.count} received, up to index ${stats.maxIndex}`);
  }
  const plan = await inspectBackup(
    readBackup(partsOf(tx, input), session.manifest, true, input.maxLineBytes),
    {
      manifest: session.manifest,
      user: input.user,
      hasKeyring: input.keyring !== undefined,
      trustedAuditKeys: input.trustedAuditKeys,
      webhooks: input.webhooks,
    },
  );
  if (!session.force && !(await isEmptyOrganization(tx, organizationId, input.user))) {
    throw notEmpty();
  }
  const newest = (await tx.activity.list({ organizationId, limit: 1 }))[0];
  const replaced: ChainHead | null = newest ? { seq: newest.seq, hash: newest.hash } : null;
  await tx.restores.clearOrganization(organizationId);
  const taken = new Map<RestoredIdKind, Set<string>>();
  for (const [kind, ids] of plan.ids) taken.set(kind, await tx.restores.takenIds(kind, ids));
  const idFor = (kind: RestoredIdKind, id: string, prefix: string) =>
    taken.get(kind)?.has(id) ? input.ids(prefix) : id;

  const writer = new Writer(tx, input, plan, idFor);
  for await (const item of readBackup(partsOf(tx, input), session.manifest, false, input.maxLineBytes))
    await writer.write(item);
  await writer.flush();

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

/** The second pass: writes each record, secrets and events in batches. */
class Writer {
  private readonly projects = new Map<string, Project>();
  private readonly environments = new Map<string, Environment>();
  private secrets: RestoredSecret[] = [];
  private events: ActivityEvent[] = [];
  private readonly organizationId: string;

  constructor(
    private readonly tx: StoreTransaction,
    private readonly input: RestoreInput,
    private readonly plan: RestorePlan,
    private readonly idFor: (kind: RestoredIdKind, id: string, prefix: string) => string,
  ) {
    this.organizationId = input.organizationId;
  }

  async write(item: BackupItem): Promise<void> {
    if (item.kind === 'header') return;
    if (item.kind === 'event') {
      this.events.push(item.event);
      if (this.events.length >= BATCH) await this.flushEvents();
      return;
    }
    const { record } = item;
    switch (record.kind) {
      case 'project':
        return this.project(record);
      case 'environment':
        return this.environment(record);
      case 'secret':
      case 'deleted_secret':
        return this.secret(record);
      case 'member':
        return this.member(record);
      case 'device':
        return this.device(record);
      case 'audit_webhook':
        return this.auditWebhook(record);
    }
  }

  private async project(record: RecordOf<'project'>): Promise<void> {
    const project = { ...pick(record, 'slug', 'name', 'created_at'), organization_id: this.organizationId };
    const full = { ...project, id: this.idFor('project', record.id, 'prj') };
    await this.tx.projects.create(full);
    this.projects.set(record.slug, full);
  }

  private async environment(record: RecordOf<'environment'>): Promise<void> {
    const environment: Environment = {
      id: this.idFor('environment', record.id, 'env'),
      organization_id: this.organizationId,
      project_id: this.projects.get(record.project)!.id,
      slug: record.slug,
      require_strict_conflict_mode: record.require_strict_conflict_mode,
      created_at: record.created_at,
    };
    await this.tx.environments.create(environment);
    this.environments.set(`${record.project}/${record.slug}`, environment);
  }

  /** A secret version, sealed for its environment here, or a deletion; written in batches. */
  private async secret(record: RecordOf<'secret' | 'deleted_secret'>): Promise<void> {
    const environmentId = this.environments.get(`${record.project}/${record.environment}`)!.id;
    this.secrets.push({
      environment_id: environmentId,
      key: record.key,
      version: record.version,
      value:
        record.kind === 'secret'
          ? sealSecretValue(this.input.keyring, environmentId, record.key, record.value)
          : null,
      updated_at: record.updated_at,
    });
    if (this.secrets.length >= BATCH) await this.flushSecrets();
  }

  private async member(record: RecordOf<'member'>): Promise<void> {
    const restorer = record.user === this.input.user;
    await this.tx.members.create({
      ...pick(record, 'user', 'created_at'),
      role: restorer ? 'owner' : record.role,
      grants: restorer ? [] : record.grants,
      organization_id: this.organizationId,
    });
  }

  private async device(record: RecordOf<'device'>): Promise<void> {
    const parsed = parseEd25519PublicKey(record.public_key);
    await this.tx.devices.create({
      ...pick(record, 'user', 'name', 'status', 'created_at', 'revoked_at'),
      id: this.idFor('device', record.id, 'dev'),
      organization_id: this.organizationId,
      public_key: parsed.ok ? parsed.key : record.public_key,
    });
  }

  /** Its signing secret is sealed with this server's keyring, bound to the id it gets here. */
  private async auditWebhook(record: RecordOf<'audit_webhook'>): Promise<void> {
    const id = this.idFor('audit_webhook', record.id, 'awh');
    await this.tx.auditWebhooks.create({
      ...pick(record, 'name', 'status', 'consecutive_failures', 'last_delivery', 'last_error'),
      url: this.plan.webhookUrls.get(record.id)!,
      event_types: record.event_types ?? [],
      id,
      organization_id: this.organizationId,
      secret_sealed: seal(this.input.keyring!, record.signing_secret, secretContext(id)),
      created_at: record.created_at,
      created_by: this.input.user,
    });
  }

  async flush(): Promise<void> {
    await this.flushSecrets();
    await this.flushEvents();
  }

  private async flushSecrets() {
    if (this.secrets.length === 0) return;
    await this.tx.restores.insertSecrets(this.secrets);
    this.secrets = [];
  }

  private async flushEvents() {
    if (this.events.length === 0) return;
    await this.tx.restores.insertEvents(this.input.organizationId, this.events);
    this.events = [];
  }
}

function pick<T extends object, K extends keyof T>(record: T, ...keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = record[key];
  return out;
}
