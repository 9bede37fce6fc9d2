/**
 * What a restore requires of a backup's activity history, besides the unbroken chain the reader
 * checks. The history is taken in only under the source's signed checkpoint, verified with a key
 * this server trusts and naming the backup's organization and chain head; so nobody can restore a
 * history they made up, or one taken from another organization, and have this server sign it as
 * its own. Each event also passes the rules a stored event follows: ids unique, RFC 3339 times,
 * slugs and tidy tokens where the stores keep columns (no NUL, no control characters).
 */
import { z } from 'zod';
import { type Checkpoint, verifyCheckpoint } from '../../activity/checkpoint/checkpoint.js';
import type { TrustedAuditKeys } from '../../activity/trusted-audit-keys.js';
import { LatchkeyError } from '../../errors/latchkey-error.js';
import type { ActivityEvent } from '../../model/model.js';
import { ActivityEventSchema } from '../../schemas/activity.js';
import { SlugSchema } from '../../schemas/api.js';
import type { BackupHeader } from '../backup-records.js';
import { invalidBackup } from './reader.js';
import { checkSignedTreeHead } from './tree.js';

const Token = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a token of A-Z, a-z, 0-9, _ and -');

/** A restored event: the stored shape, with every field a store keeps as a column held to its rule. */
const RestoredEventSchema = ActivityEventSchema.extend({
  id: Token,
  type: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a snake_case event type'),
  occurred_at: z.iso.datetime({ offset: true, error: 'must be an RFC 3339 time' }),
  organization: SlugSchema,
  project: SlugSchema.optional(),
  environment: SlugSchema.optional(),
  actor: z.strictObject({
    type: z.enum(['user', 'system', 'workload']),
    id: z
      .string()
      .min(1)
      .max(254)
      .refine((id) => !/\p{Cc}/u.test(id), 'must not contain control characters'),
  }),
  device_id: Token.optional(),
  seq: z.int().min(1),
});

/** The trusted checkpoint a backup's history was accepted under. */
export interface AcceptedCheckpoint {
  checkpoint: Checkpoint;
  /** Whether the key is this server's own audit key (else one the host lists). */
  ownKey: boolean;
}

/** A 503: this server trusts no audit key, so it can take no history in. */
export function noTrustedKeys(): LatchkeyError {
  return new LatchkeyError(
    'service_unavailable',
    'Restoring needs an audit key to check the backup’s signed checkpoint, and this server trusts none (core options auditKey and trustedAuditKeys).',
  );
}

/**
 * Checks the header's checkpoint: present, signed by a trusted key, naming the backup's
 * organization and chain head. Throws a 422 naming line 1.
 */
export function acceptCheckpoint(header: BackupHeader, trusted: TrustedAuditKeys): AcceptedCheckpoint {
  if (trusted.size === 0) throw noTrustedKeys();
  const { checkpoint } = header;
  if (!checkpoint) {
    throw invalidBackup(
      1,
      `it carries no signed checkpoint of its activity log (format ${header.format_version}; made before backups carried one, or by a server without an audit key), so its history cannot be verified: make a new backup`,
    );
  }
  const key = trusted.get(checkpoint.key_id);
  if (!key) {
    throw invalidBackup(
      1,
      `its checkpoint is signed by audit key ${checkpoint.key_id}, which this server does not trust (list its public key in the core option trustedAuditKeys)`,
    );
  }
  if (!verifyCheckpoint(checkpoint, key.publicKey)) {
    throw invalidBackup(1, `its checkpoint's signature does not verify with audit key ${checkpoint.key_id}`);
  }
  const { organization, chain } = header;
  if (checkpoint.organization !== organization.slug) {
    throw invalidBackup(
      1,
      `its checkpoint names organization ${checkpoint.organization}, the backup is of ${organization.slug}`,
    );
  }
  if (checkpoint.seq !== chain.seq || checkpoint.hash !== chain.hash) {
    throw invalidBackup(
      1,
      `its checkpoint signs chain head ${checkpoint.seq}, not the head the backup names (${chain.seq})`,
    );
  }
  checkSignedTreeHead(checkpoint);
  return { checkpoint, ownKey: key.own };
}

/**
 * Follows the events of a history in order. Every event names the backup's organization, except
 * those a `backup_restored` event in the history took in from another organization: they precede
 * it and name its `source.organization` (checked when that history was restored here or on the
 * trusted server that signed it).
 */
export class HistoryCheck {
  private readonly ids = new Set<string>();
  /** The organization the events since the last `backup_restored` name, and the line of the first. */
  private segment: { organization: string; line: number } | null = null;

  constructor(private readonly organization: string) {}

  take(value: ActivityEvent, line: number): void {
    const parsed = RestoredEventSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.length ? ` (${issue.path.join('.')})` : '';
      throw invalidBackup(line, `event ${value.seq} is not a valid event${field}: ${issue.message}`);
    }
    const event = parsed.data;
    if (this.ids.has(event.id)) throw invalidBackup(line, `event id ${event.id} appears twice`);
    this.ids.add(event.id);
    if (event.type === 'backup_restored') {
      this.restoreBoundary(event, line);
      this.segment = { organization: event.organization, line };
      return;
    }
    if (!this.segment) this.segment = { organization: event.organization, line };
    else if (event.organization !== this.segment.organization) {
      throw invalidBackup(
        line,
        `event ${event.seq} names organization ${event.organization}, the events before it name ${this.segment.organization}`,
      );
    }
  }

  /** A restore inside the history: what it took in (the events before it) came from its source. */
  private restoreBoundary(event: z.infer<typeof RestoredEventSchema>, line: number): void {
    const source = (event.data as { source?: { organization?: unknown; chain?: { seq?: unknown } } }).source;
    const before = this.segment?.organization ?? source?.organization;
    if (source?.organization !== before || source?.chain?.seq !== event.seq - 1) {
      throw invalidBackup(
        line,
        `backup_restored event ${event.seq} does not name the history before it as its source`,
      );
    }
  }

  /** At the end: the latest events must be the backup's own organization's. */
  finish(): void {
    if (this.segment && this.segment.organization !== this.organization) {
      throw invalidBackup(
        this.segment.line,
        `the events from here name organization ${this.segment.organization}, the backup is of ${this.organization}`,
      );
    }
  }
}
