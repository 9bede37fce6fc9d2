/**
 * The lines of a backup (see `backup-stream.ts`) as restore reads them: one schema per `kind`, and
 * the manifest the client computed over the whole file. Restore trusts nothing it has not checked
 * against these.
 */
import { z } from 'zod';
import { ActivityEventSchema } from '../activity-schemas.js';
import { GrantSchema, RoleSchema, SecretKeySchema, SlugSchema, UserSchema } from '../schemas.js';
import { text } from '../text.js';
import { DeliveryErrorSchema, LastDeliverySchema } from '../webhook-schemas.js';
import { BACKUP_FORMAT_VERSION } from './backup-stream.js';

const Time = z.iso.datetime({ offset: true });
const Count = z.int().min(0).max(1_000_000_000);
const Sha256 = text().regex(/^[0-9a-f]{64}$/, 'lower-case hex SHA-256');
const Name = z.string().min(1).max(200);
/** Ids are kept when free on this server and replaced otherwise, so any tidy token will do. */
const Id = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'an id');

/** Counts of each kind of record, as the manifest and `backup_restored` give them. */
export const BackupCountsSchema = z.strictObject({
  project: Count,
  environment: Count,
  secret: Count,
  deleted_secret: Count,
  member: Count,
  device: Count,
  audit_webhook: Count,
  event: Count,
});

/** What the client computed over the backup's content before sending it: restore checks it all. */
export const BackupManifestSchema = z.strictObject({
  sha256: Sha256.describe('SHA-256 of the whole content (every line, as sent)'),
  bytes: z.int().min(1).max(Number.MAX_SAFE_INTEGER).describe('length of the content in UTF-8 bytes'),
  counts: BackupCountsSchema,
});
export type BackupManifest = z.infer<typeof BackupManifestSchema>;

const Header = z.strictObject({
  kind: z.literal('latchkey_backup'),
  format_version: z.literal(BACKUP_FORMAT_VERSION),
  organization: z.strictObject({ id: z.string(), slug: SlugSchema, name: z.string(), created_at: Time }),
  created_at: Time,
  chain: z.strictObject({ seq: z.int().min(0), hash: z.string() }),
});

const ProjectLine = z.strictObject({
  kind: z.literal('project'),
  id: Id,
  slug: SlugSchema,
  name: Name,
  created_at: Time,
});

const EnvironmentLine = z.strictObject({
  kind: z.literal('environment'),
  id: Id,
  project: SlugSchema,
  slug: SlugSchema,
  require_strict_conflict_mode: z.boolean(),
  created_at: Time,
});

const SecretLine = z.strictObject({
  kind: z.literal('secret'),
  project: SlugSchema,
  environment: SlugSchema,
  key: SecretKeySchema,
  value: z.string().max(1_048_576),
  version: z.int().min(1).max(2_147_483_647),
  updated_at: Time,
});

/** A deleted key: a secret line without a value. */
const DeletedSecretLine = SecretLine.omit({ value: true }).extend({ kind: z.literal('deleted_secret') });

const MemberLine = z.strictObject({
  kind: z.literal('member'),
  user: UserSchema,
  role: RoleSchema,
  grants: z.array(GrantSchema).max(1_000),
  created_at: Time,
});

const DeviceLine = z.strictObject({
  kind: z.literal('device'),
  id: Id,
  user: UserSchema,
  name: Name,
  public_key: z.string().max(100),
  status: z.enum(['active', 'revoked']),
  created_at: Time,
  revoked_at: Time.nullable(),
});

const WebhookLine = z.strictObject({
  kind: z.literal('audit_webhook'),
  id: Id,
  name: z.string().min(1).max(100),
  url: z.url({ protocol: /^https$/ }).max(2_048),
  status: z.enum(['active', 'disabled', 'dead_letter']),
  consecutive_failures: z.int().min(0),
  last_delivery: LastDeliverySchema.nullable(),
  last_error: DeliveryErrorSchema.nullable(),
  created_at: Time,
  signing_secret: z.string().min(16).max(200),
});

const EventsMarker = z.strictObject({ kind: z.literal('events'), through_seq: z.int().min(0) });

/** Every line before the activity log, told apart by `kind`. */
export const BackupRecordSchema = z.discriminatedUnion('kind', [
  Header,
  ProjectLine,
  EnvironmentLine,
  SecretLine,
  DeletedSecretLine,
  MemberLine,
  DeviceLine,
  WebhookLine,
  EventsMarker,
]);
export type BackupRecord = z.infer<typeof BackupRecordSchema>;
export type BackupHeader = z.infer<typeof Header>;
export type SecretRecord = z.infer<typeof SecretLine>;

/** A line after the `events` marker: one stored activity event. */
export const BackupEventSchema = ActivityEventSchema;
