/**
 * The lines of a backup (see `backup-stream.ts`) as restore reads them: one schema per `kind`, and
 * the manifest the client computed over the whole file. Restore trusts nothing it has not checked
 * against these.
 */
import { z } from 'zod';
import { BACKUP_FORMAT_VERSION, type BackupCounts, type BackupManifest } from '../model/backup-format.js';
import { ActivityEventSchema } from '../schemas/activity.js';
import {
  CreateProjectBody,
  EnrollDeviceBody,
  GrantSchema,
  idSchema,
  RoleSchema,
  SecretKeySchema,
  SlugSchema,
  UserSchema,
} from '../schemas/api.js';
import { ApprovalPolicySchema } from '../schemas/approval-policy.js';
import {
  CreateAuditWebhookBody,
  DeliveryErrorSchema,
  EventTypesList,
  LastDeliverySchema,
} from '../schemas/audit-webhooks.js';
import { SignatureSchemeSchema } from '../schemas/signature-schemes.js';
import { text } from '../schemas/text.js';
import { ClientCertificateBody, HeadersBody } from '../schemas/webhook-credentials.js';
import { ChangeRequestLine, WorkloadIdentityLine } from './request-records.js';
import { SigningKeyRecords } from './signing-key-records.js';

const Time = z.iso.datetime({ offset: true });
const Count = z.int().min(0).max(1_000_000_000);
const Sha256 = text().regex(/^[0-9a-f]{64}$/, 'lower-case hex SHA-256');
/**
 * A key's version: a push writes the head's version plus one, into a 32-bit column on SQL, so a
 * restored head must leave room for it.
 */
const KeyVersion = z
  .int()
  .min(1)
  .max(2_147_483_646, 'must be below 2147483647 (2^31 - 1), so the next push has a version to write');

/**
 * The signed checkpoint of the source's chain head, as `GET …/activity/checkpoint` answers it.
 * Restore trusts it only when its signature verifies with a key this server trusts.
 */
export const BackupCheckpointSchema = z.strictObject({
  organization: SlugSchema,
  seq: z.int().min(0),
  hash: Sha256,
  tree_size: z
    .int()
    .min(0)
    .optional()
    .describe('the Merkle tree head it signs, when the server kept the tree'),
  root_hash: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, 'a standard base64 SHA-256 hash')
    .optional()
    .describe('RFC 6962 root of the first tree_size events, standard base64'),
  signed_at: Time,
  key_id: z.string().regex(/^[0-9a-f]{16}$/, '16 lower-case hex digits'),
  public_key: z.string().max(100),
  signature: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'base64url'),
});

/** Counts of each kind of record, as the manifest and `backup_restored` give them. */
export const BackupCountsSchema = z.strictObject({
  project: Count,
  environment: Count,
  secret: Count,
  deleted_secret: Count,
  secret_version: Count.default(0).describe('absent from the manifests of format 2 backups'),
  member: Count,
  device: Count,
  audit_webhook: Count,
  workload_identity: Count.default(0).describe('absent from the manifests of backups made before identities'),
  change_request: Count.default(0).describe(
    'absent from the manifests of backups made before change requests',
  ),
  event: Count,
}) satisfies z.ZodType<BackupCounts>;

/** What the client computed over the backup's content before sending it: restore checks it all. */
export const BackupManifestSchema = z.strictObject({
  sha256: Sha256.describe('SHA-256 of the whole content (every line, as sent)'),
  bytes: z.int().min(1).max(Number.MAX_SAFE_INTEGER).describe('length of the content in UTF-8 bytes'),
  counts: BackupCountsSchema,
}) satisfies z.ZodType<BackupManifest>;

/**
 * The first line. Format 1 (before backups carried a checkpoint) is read so that restore can say
 * why it refuses it; `checkpoint` is required by restore, not by this schema, for the same reason.
 */
const Header = z.strictObject({
  kind: z.literal('latchkey_backup'),
  format_version: z.int().min(1).max(BACKUP_FORMAT_VERSION),
  organization: z.strictObject({ id: z.string(), slug: SlugSchema, name: z.string(), created_at: Time }),
  created_at: Time,
  chain: z.strictObject({ seq: z.int().min(0), hash: Sha256 }),
  checkpoint: BackupCheckpointSchema.optional(),
  webhook_signing_keys: SigningKeyRecords,
});

// Ids, names and URLs are held to what the API takes at create (the create schemas themselves), so
// every restored record can be read, changed and revoked through the API afterwards.
const ProjectLine = z.strictObject({
  kind: z.literal('project'),
  id: idSchema('prj'),
  slug: SlugSchema,
  name: CreateProjectBody.shape.name.unwrap(),
  created_at: Time,
});

const EnvironmentLine = z.strictObject({
  kind: z.literal('environment'),
  id: idSchema('env'),
  project: SlugSchema,
  slug: SlugSchema,
  require_strict_conflict_mode: z.boolean(),
  // Absent from backups made before approval policies.
  approval_policy: ApprovalPolicySchema.nullable().optional(),
  created_at: Time,
});

/** A key's value, held to what a push takes (`schemas/api.ts`): text without NUL, up to 1 MiB. */
const SecretValue = text().max(1_048_576);

const SecretLine = z.strictObject({
  kind: z.literal('secret'),
  project: SlugSchema,
  environment: SlugSchema,
  key: SecretKeySchema,
  // The values a push takes: well-formed text without NUL.
  value: SecretValue,
  version: KeyVersion,
  updated_at: Time,
});

/** A deleted key: a secret line without a value. */
const DeletedSecretLine = SecretLine.omit({ value: true }).extend({ kind: z.literal('deleted_secret') });

/**
 * One version of a key's history; `value` only while it is kept (never for a tombstone). Who wrote
 * it is what a push records (a member, their device, the push's event), in the formats this server
 * makes them, or nothing at all for a version back-filled from a head; `backup/restore/key-history.ts`
 * holds the versions of each key to its head.
 */
const SecretVersionLine = z
  .strictObject({
    kind: z.literal('secret_version'),
    project: SlugSchema,
    environment: SlugSchema,
    key: SecretKeySchema,
    version: KeyVersion,
    deleted: z.boolean(),
    value: SecretValue.optional(),
    occurred_at: Time,
    actor: z.strictObject({ type: z.enum(['user', 'workload']), id: UserSchema }).nullable(),
    device_id: idSchema('dev').nullable(),
    event_id: idSchema('evt').nullable(),
  })
  .refine(
    (v) => (v.actor === null) === (v.device_id === null) && (v.actor === null) === (v.event_id === null),
    'actor, device_id and event_id must all be given (a push) or all be null (a back-filled version)',
  );

const MemberLine = z.strictObject({
  kind: z.literal('member'),
  user: UserSchema,
  role: RoleSchema,
  grants: z.array(GrantSchema).max(1_000),
  created_at: Time,
});

const DeviceLine = z.strictObject({
  kind: z.literal('device'),
  id: idSchema('dev'),
  user: UserSchema,
  name: EnrollDeviceBody.shape.name,
  public_key: z.string().max(100),
  status: z.enum(['active', 'revoked']),
  created_at: Time,
  revoked_at: Time.nullable(),
});

/** The URL also goes through the create-time SSRF check (`vetTarget`) before anything is written. */
const WebhookLine = z.strictObject({
  kind: z.literal('audit_webhook'),
  id: idSchema('awh'),
  name: CreateAuditWebhookBody.shape.name,
  url: CreateAuditWebhookBody.shape.url,
  status: z.enum(['active', 'disabled', 'dead_letter']),
  event_types: EventTypesList.optional(),
  consecutive_failures: z.int().min(0),
  last_delivery: LastDeliverySchema.nullable(),
  last_error: DeliveryErrorSchema.nullable(),
  created_at: Time,
  signing_secret: z.string().min(16).max(200),
  headers: HeadersBody.optional(),
  client_certificate: ClientCertificateBody.optional(),
  /** Absent in backups made before schemes: latchkey. */
  signature_scheme: SignatureSchemeSchema.optional(),
  /** standard-webhooks, during a rotation's grace period: the secret it replaced, and until when. */
  previous_secret: z
    .strictObject({ secret: z.string().min(16).max(200), until: Time })
    .nullable()
    .optional(),
});

const EventsMarker = z.strictObject({ kind: z.literal('events'), through_seq: z.int().min(0) });

/** Every line before the activity log, told apart by `kind`. */
export const BackupRecordSchema = z.discriminatedUnion('kind', [
  Header,
  ProjectLine,
  EnvironmentLine,
  SecretLine,
  DeletedSecretLine,
  SecretVersionLine,
  MemberLine,
  DeviceLine,
  WebhookLine,
  WorkloadIdentityLine,
  ChangeRequestLine,
  EventsMarker,
]);
export type BackupRecord = z.infer<typeof BackupRecordSchema>;
export type BackupHeader = z.infer<typeof Header>;
export type SecretRecord = z.infer<typeof SecretLine>;

/** A line after the `events` marker: one stored activity event (see `backup/restore/history.ts` for the rest of its rules). */
export const BackupEventSchema = ActivityEventSchema;
