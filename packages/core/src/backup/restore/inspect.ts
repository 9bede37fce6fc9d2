/**
 * The first pass of a restore: reads the whole backup before anything is written and holds it to
 * the rules the API enforces at create, in the core, so every store answers the same. The reader
 * has checked each line's schema (ids, names and URLs as the create schemas take them), the order,
 * references, the chain, the SHA-256 and the counts; this adds what needs more than one line or
 * this server's settings: the signed checkpoint and the history under it (`backup/restore/history.ts`)
 * and the Merkle root it signs (`backup/restore/tree.ts`),
 * webhook URLs and workload identities' issuers through the create-time SSRF check with this
 * server's allowlist (and its trusted issuers), device keys, the webhook signing keys
 * (`signing-key-records.ts`). Any fault is a 422 `backup_invalid` naming the line.
 */

import type { TrustedAuditKeys } from '../../activity/trusted-audit-keys.js';
import type { WebhookSettings } from '../../delivery/config.js';
import { vetTarget } from '../../delivery/sending/ssrf.js';
import { vetWebhookUrl } from '../../delivery/sending/webhook-url.js';
import { parseEd25519PublicKey } from '../../encoding/ed25519-public-key.js';
import { LatchkeyError } from '../../errors/latchkey-error.js';
import type { BackupCounts, BackupManifest } from '../../model/backup-format.js';
import type { Role } from '../../model/roles.js';
import type { RestoredIdKind } from '../../store/types.js';
import type { TrustedIssuers } from '../../workload/trusted-issuers.js';
import type { BackupHeader } from '../backup-records.js';
import { signingKeysFault } from '../signing-key-records.js';
import { backedUpCertificateFault } from '../webhook-credentials.js';
import { type AcceptedCheckpoint, acceptCheckpoint, HistoryCheck } from './history.js';
import { type BackupItem, invalidBackup } from './reader.js';
import { type ExpectedTree, TreeCheck } from './tree.js';

/** What the first pass needs to know of this server and the caller. */
export interface InspectInput {
  manifest: BackupManifest;
  /** The member applying the restore. */
  user: string;
  /** When the restore is applied: the signing keys' retirements are held to it. */
  at: string;
  hasKeyring: boolean;
  trustedAuditKeys: TrustedAuditKeys;
  webhooks: Pick<WebhookSettings, 'resolve' | 'allowHosts'>;
  trustedIssuers: TrustedIssuers;
}

/** What the first pass learned, for the second to write. */
export interface RestorePlan {
  header: BackupHeader;
  accepted: AcceptedCheckpoint;
  /** The tree head the written history must have (`backup/restore/tree.ts`). */
  tree: ExpectedTree;
  /** The manifest's counts: the reader has checked the content holds exactly these. */
  counts: BackupCounts;
  /** The role the backup gives the restorer, or null when it does not name them. */
  restorerRole: Role | null;
  ids: Map<RestoredIdKind, string[]>;
  /** Each webhook's URL as the SSRF check normalised it, by the id in the backup. */
  webhookUrls: Map<string, string>;
}

/** Why a webhook URL was refused, in the words of the create route. */
const REFUSALS = {
  invalid_url: 'is not an absolute https:// URL',
  not_https: 'does not use https',
  credentials: 'carries a user name or password',
  blocked_address:
    'does not reach a public address (loopback, private, link-local and other internal addresses are refused)',
  unresolvable: 'has a host that does not resolve',
} as const;

/** Reads every item of the backup and checks it; answers the plan or throws the first fault. */
export async function inspectBackup(
  items: AsyncIterable<BackupItem>,
  input: InspectInput,
): Promise<RestorePlan> {
  let header: BackupHeader | null = null;
  let accepted: AcceptedCheckpoint | null = null;
  let history: HistoryCheck | null = null;
  const tree = new TreeCheck();
  let restorerRole: Role | null = null;
  const ids = new Map<RestoredIdKind, string[]>();
  const webhookUrls = new Map<string, string>();
  const keep = (kind: RestoredIdKind, id: string) => ids.set(kind, [...(ids.get(kind) ?? []), id]);
  // One item per line, except the `events` line, which the reader does not yield.
  let line = 0;
  let inEvents = false;
  for await (const item of items) {
    line++;
    if (item.kind === 'header') {
      header = item.header;
      accepted = acceptCheckpoint(header, input.trustedAuditKeys);
      const fault = signingKeysFault(header.webhook_signing_keys ?? [], input.at);
      if (fault !== null) throw invalidBackup(1, fault);
      history = new HistoryCheck(header.organization.slug);
      continue;
    }
    if (item.kind === 'event') {
      if (!inEvents) line++;
      inEvents = true;
      history!.take(item.event, line);
      tree.take(item.event);
      continue;
    }
    const { record } = item;
    switch (record.kind) {
      case 'member':
        if (record.user === input.user) restorerRole = record.role;
        break;
      case 'project':
      case 'environment':
      case 'change_request':
        keep(record.kind, record.id);
        break;
      case 'workload_identity':
        keep(record.kind, record.id);
        await vetIssuer(record.issuer, line, input);
        break;
      case 'device':
        keep('device', record.id);
        if (!parseEd25519PublicKey(record.public_key).ok) {
          throw invalidBackup(line, `device ${record.id} has a public key this server refuses`);
        }
        break;
      case 'audit_webhook': {
        keep('audit_webhook', record.id);
        webhookUrls.set(record.id, await vetUrl(record.url, line, input.webhooks));
        const fault = backedUpCertificateFault(record);
        if (fault !== null) throw invalidBackup(line, fault);
        break;
      }
    }
  }
  history!.finish();
  const expectedTree = tree.finish(accepted!.checkpoint);
  const sealed = input.manifest.counts.audit_webhook > 0 || (header!.webhook_signing_keys?.length ?? 0) > 0;
  if (sealed && !input.hasKeyring) {
    throw new LatchkeyError(
      'service_unavailable',
      'The backup holds audit webhooks or webhook signing keys, which need encryption at rest, and this server has no keyring configured (core option keyring).',
    );
  }
  return {
    header: header!,
    accepted: accepted!,
    tree: expectedTree,
    counts: input.manifest.counts,
    restorerRole,
    ids,
    webhookUrls,
  };
}

/** The identity create's issuer check: an https URL whose host is public, or a trusted issuer's. */
async function vetIssuer(issuer: string, line: number, input: InspectInput): Promise<void> {
  const allow = new Set([...input.webhooks.allowHosts, ...input.trustedIssuers.hosts]);
  const vetted = await vetTarget(issuer, input.webhooks.resolve, allow);
  if (!vetted.ok)
    throw invalidBackup(line, `the workload identity's issuer cannot be trusted: ${vetted.message}`);
}

/** The create-time SSRF check, with this server's resolver and allowlist. */
async function vetUrl(url: string, line: number, webhooks: InspectInput['webhooks']): Promise<string> {
  const verdict = await vetWebhookUrl(url, webhooks);
  if (!verdict.ok) throw invalidBackup(line, `the audit webhook's url ${REFUSALS[verdict.reason]}`);
  return verdict.url.href;
}
