/**
 * The second pass of a restore: writes each record of the backup, in order, inside the restore's
 * transaction (or, for a restore in steps, each write a step of its own); secrets, versions and
 * events in batches. Secret values (heads and kept versions) and
 * signing secrets are sealed with this server's keyring, bound to the ids they get here.
 */

import type { EventData } from '../../activity/event-types/index.js';
import type { TrustedAuditKeys } from '../../activity/trusted-audit-keys.js';
import type { WebhookSettings } from '../../delivery/config.js';
import { parseEd25519PublicKey } from '../../encoding/ed25519-public-key.js';
import { secretContext } from '../../keyring/contexts.js';
import { type Keyring, seal } from '../../keyring/keyring.js';
import type { ActivityDraft, ActivityEvent, Environment, Project } from '../../model/model.js';
import { sealSecretValue } from '../../secrets/values.js';
import type {
  RestoredIdKind,
  RestoredSecret,
  RestoredSecretVersion,
  RestoreSession,
  StoreTransaction,
} from '../../store/types.js';
import type { TrustedIssuers } from '../../workload/trusted-issuers.js';
import { restoredChangeRequest, restoredWorkloadIdentity } from '../request-records.js';
import { restoreSigningKeys } from '../signing-key-records.js';
import { restoredCredentials } from '../webhook-credentials.js';
import type { RestorePlan } from './inspect.js';
import type { BackupItem } from './reader.js';
import { type ByKind, handleRecord, type RecordOf } from './record-kinds.js';

/** Records per bulk insert: one statement each, inside the restore's transaction. */
const BATCH = 1_000;
/**
 * Records per bulk insert of a restore in steps (`backup/restore/steps.ts`): each insert is a step of its
 * own, and on PGlite it runs in the process's own thread, so it is kept to a few milliseconds.
 */
export const STEP_BATCH = 250;

/** The bound a restore's creates are given: a backup's records were within its server's limits. */
const NO_LIMIT = 2_147_483_647;

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
  /** The trusted issuers, whose hosts the issuer check reaches at any address, as identity create does. */
  trustedIssuers: TrustedIssuers;
  ids: (prefix: string) => string;
  at: string;
  /** The longest line the reader takes (core option `restores.maxLineBytes`). */
  maxLineBytes: number;
  /** Records per bulk insert (default 1,000; {@link STEP_BATCH} for a restore in steps). */
  batch?: number;
  event(type: 'backup_restored', data: EventData<'backup_restored'>): ActivityDraft;
}

/** The second pass: writes each record, secrets and events in batches. */
export class Writer {
  private readonly projects = new Map<string, Project>();
  private readonly environments = new Map<string, Environment>();
  private secrets: RestoredSecret[] = [];
  private versions: RestoredSecretVersion[] = [];
  private backfillVersions = false;
  private events: ActivityEvent[] = [];
  /** The ids restore gave devices and identities whose backup ids another organization holds. */
  private readonly renamed = new Map<string, string>();
  private readonly organizationId: string;
  private readonly batch: number;

  constructor(
    private readonly tx: StoreTransaction,
    private readonly input: RestoreInput,
    private readonly plan: RestorePlan,
    private readonly idFor: (kind: RestoredIdKind, id: string, prefix: string) => string,
  ) {
    this.organizationId = input.organizationId;
    this.batch = input.batch ?? BATCH;
  }

  async write(item: BackupItem): Promise<void> {
    if (item.kind === 'header') {
      // A backup made before backups carried history (format 2): each head becomes its key's one
      // version, as the store's migration did for heads written before history was kept.
      this.backfillVersions = item.header.format_version < 3;
      // The backup's keys replace the organization's (none when it lists none).
      const keys = item.header.webhook_signing_keys ?? [];
      await restoreSigningKeys(this.tx, this.input.keyring, this.input.ids, this.organizationId, keys);
      return;
    }
    if (item.kind === 'event') {
      this.events.push(item.event);
      if (this.events.length >= this.batch) await this.flushEvents();
      return;
    }
    return handleRecord(this.writes, item.record);
  }

  /** How each kind of record is written, in the order a backup holds them. */
  private readonly writes: ByKind<Promise<void>> = {
    project: async (record) => {
      const project = { ...pick(record, 'slug', 'name', 'created_at'), organization_id: this.organizationId };
      const full = { ...project, id: this.idFor('project', record.id, 'prj') };
      await this.tx.projects.create(full);
      this.projects.set(record.slug, full);
    },
    environment: async (record) => {
      const environment: Environment = {
        id: this.idFor('environment', record.id, 'env'),
        organization_id: this.organizationId,
        project_id: this.projects.get(record.project)!.id,
        slug: record.slug,
        require_strict_conflict_mode: record.require_strict_conflict_mode,
        approval_policy: record.approval_policy ?? null,
        created_at: record.created_at,
      };
      await this.tx.environments.create(environment);
      this.environments.set(`${record.project}/${record.slug}`, environment);
    },
    secret: (record) => this.secretHead(record),
    deleted_secret: (record) => this.secretHead(record),
    /** A version of a key's history, its kept value sealed for its environment here; in batches. */
    secret_version: async (record) => {
      const environmentId = this.environments.get(`${record.project}/${record.environment}`)!.id;
      this.versions.push({
        ...pick(record, 'key', 'version', 'deleted', 'occurred_at', 'actor', 'device_id', 'event_id'),
        environment_id: environmentId,
        value:
          record.value === undefined
            ? null
            : sealSecretValue(this.input.keyring, environmentId, record.key, record.value),
      });
      if (this.versions.length >= this.batch) await this.flushVersions();
    },
    member: async (record) => {
      const restorer = record.user === this.input.user;
      await this.tx.members.create({
        ...pick(record, 'user', 'created_at'),
        role: restorer ? 'owner' : record.role,
        grants: restorer ? [] : record.grants,
        organization_id: this.organizationId,
      });
    },
    device: async (record) => {
      const parsed = parseEd25519PublicKey(record.public_key);
      await this.tx.devices.create({
        ...pick(record, 'user', 'name', 'status', 'created_at', 'revoked_at'),
        id: this.idOf('device', record.id, 'dev'),
        organization_id: this.organizationId,
        public_key: parsed.ok ? parsed.key : record.public_key,
      });
    },
    /** Its signing secret is sealed with this server's keyring, bound to the id it gets here. */
    audit_webhook: async (record) => {
      const id = this.idFor('audit_webhook', record.id, 'awh');
      await this.tx.auditWebhooks.create({
        ...pick(record, 'name', 'status', 'consecutive_failures', 'last_delivery', 'last_error'),
        url: this.plan.webhookUrls.get(record.id)!,
        event_types: record.event_types ?? [],
        id,
        organization_id: this.organizationId,
        secret_sealed: seal(this.input.keyring!, record.signing_secret, secretContext(id)),
        ...restoredCredentials(this.input.keyring!, id, record),
        signature_scheme: record.signature_scheme ?? 'latchkey',
        previous_secret: record.previous_secret
          ? {
              sealed: seal(this.input.keyring!, record.previous_secret.secret, secretContext(id)),
              until: record.previous_secret.until,
            }
          : null,
        created_at: record.created_at,
        created_by: this.input.user,
      });
    },
    workload_identity: async (record) => {
      const id = this.idOf('workload_identity', record.id, 'wid');
      // No limit: the backup's organization held them all.
      await this.tx.workloads.create(restoredWorkloadIdentity(record, id, this.organizationId), NO_LIMIT);
    },
    /** An open request, its values sealed for the environment it lands in; approvable and applicable as before. */
    change_request: async (record) => {
      const environment = this.environments.get(`${record.project}/${record.environment}`)!;
      const renamed = (id: string) => this.renamed.get(id) ?? id;
      const request = restoredChangeRequest(record, {
        id: this.idFor('change_request', record.id, 'chr'),
        organizationId: this.organizationId,
        projectId: environment.project_id,
        environmentId: environment.id,
        keyring: this.input.keyring,
        device: renamed,
        author: renamed,
      });
      await this.tx.changeRequests.create(request, NO_LIMIT);
    },
  };

  /** The record's id here: kept, or a new one (remembered, for the records that name it). */
  private idOf(kind: 'device' | 'workload_identity', id: string, prefix: string): string {
    const given = this.idFor(kind, id, prefix);
    if (given !== id) this.renamed.set(id, given);
    return given;
  }

  /** A secret version, sealed for its environment here, or a deletion; written in batches. */
  private async secretHead(record: RecordOf<'secret' | 'deleted_secret'>): Promise<void> {
    const environmentId = this.environments.get(`${record.project}/${record.environment}`)!.id;
    const value =
      record.kind === 'secret'
        ? sealSecretValue(this.input.keyring, environmentId, record.key, record.value)
        : null;
    const { key, version, updated_at } = record;
    this.secrets.push({ environment_id: environmentId, key, version, value, updated_at });
    if (this.backfillVersions) {
      const deleted = value === null;
      const unknown = { actor: null, device_id: null, event_id: null };
      this.versions.push({
        environment_id: environmentId,
        key,
        version,
        deleted,
        value,
        occurred_at: updated_at,
        ...unknown,
      });
      if (this.versions.length >= this.batch) await this.flushVersions();
    }
    if (this.secrets.length >= this.batch) await this.flushSecrets();
  }

  async flush(): Promise<void> {
    await this.flushSecrets();
    await this.flushVersions();
    await this.flushEvents();
  }

  private async flushVersions() {
    if (this.versions.length === 0) return;
    await this.tx.restores.insertSecretVersions(this.versions);
    this.versions = [];
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
