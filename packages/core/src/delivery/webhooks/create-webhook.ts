/**
 * Creating an audit webhook: its URL vetted against SSRF, its signing secret and the credentials a
 * receiver demands sealed with the keyring, the organization's bound checked in the same atomic step
 * as the insert, and an optional back-fill from the log started with it, all recorded as
 * `audit_webhook_created` in one unit of work.
 */

import { recordChange } from '../../activity/record-change.js';
import { secretContext } from '../../keyring/contexts.js';
import { type Keyring, seal } from '../../keyring/keyring.js';
import { limitExceeded } from '../../model/limits.js';
import type { AuditWebhook, SignatureScheme } from '../../model/model.js';
import { normalizeFilter } from '../event-filter.js';
import { startReplay } from '../replay-start.js';
import { type WebhookCaller, webhookEvent } from './caller.js';
import {
  type ClientCertificateInput,
  credentialsData,
  sealedClientCertificate,
  sealHeaders,
} from './credentials.js';
import type { WebhookDeps } from './deps.js';
import { newSecretFor, prepareScheme } from './signature-scheme.js';
import { vettedUrl } from './vetted-url.js';
import { webhookData } from './webhook-data.js';
import { requireKeyring } from './webhook-lookup.js';
import { signingKeysNow } from './webhook-reads.js';

/** A create request, as the API validated it (`CreateAuditWebhookBody`). */
export interface CreateWebhookInput {
  name: string;
  url: string;
  /** Types or prefixes ending in `*`; absent: every event. */
  event_types?: readonly string[] | undefined;
  /** Custom headers, name to value. */
  headers?: Readonly<Record<string, string>> | undefined;
  client_certificate?: ClientCertificateInput | undefined;
  /** Absent: `latchkey`. */
  signature_scheme?: SignatureScheme | undefined;
  /** Back-fill from the log: every earlier event at or after this time. */
  replay_since?: string | undefined;
}

/**
 * A created webhook and what its receivers verify with: the signing secret, shown this once, or for
 * `standard-webhooks-ed25519` the organization's public keys.
 */
export type WebhookCreated =
  | { webhook: AuditWebhook; signingSecret: string }
  | { webhook: AuditWebhook; publicKeys: string[] };

/** What a new webhook is made of besides the request: its id, vetted URL, scheme and secret. */
interface NewWebhookParts {
  id: string;
  url: string;
  scheme: SignatureScheme;
  secret: string;
}

/** The webhook as stored: active, healthy, its secret and credentials sealed for its id. */
function newWebhook(
  keyring: Keyring,
  { id, url, scheme, secret }: NewWebhookParts,
  caller: WebhookCaller,
  input: CreateWebhookInput,
): AuditWebhook {
  return {
    id,
    organization_id: caller.organization.id,
    name: input.name,
    url,
    status: 'active',
    event_types: normalizeFilter(input.event_types),
    signature_scheme: scheme,
    previous_secret: null,
    secret_sealed: seal(keyring, secret, secretContext(id)),
    headers: sealHeaders(keyring, id, input.headers),
    client_certificate: input.client_certificate
      ? sealedClientCertificate(keyring, id, input.client_certificate, Date.parse(caller.at))
      : null,
    consecutive_failures: 0,
    last_delivery: null,
    last_error: null,
    created_at: caller.at,
    created_by: caller.user,
  };
}

/**
 * Creates a webhook for the caller's organization. Refusals: 503 without a keyring, 400 for a URL
 * or credentials refused, 409 `limit_exceeded` past `limits.auditWebhooksPerOrganization` or a
 * back-fill over `webhooks.replay.maxEvents` (then nothing is written).
 */
export async function createWebhook(
  deps: Pick<WebhookDeps, 'store' | 'now' | 'ids' | 'keyring' | 'webhooks' | 'limits'>,
  caller: WebhookCaller,
  input: CreateWebhookInput,
): Promise<WebhookCreated> {
  const keyring = requireKeyring(deps.keyring);
  const url = await vettedUrl(deps.webhooks, input.url);
  const id = deps.ids('awh');
  const scheme = input.signature_scheme ?? 'latchkey';
  // Every webhook holds a secret (never shown for the ed25519 scheme), so the column stays whole.
  const secret = newSecretFor(scheme);
  const webhook = newWebhook(keyring, { id, url, scheme, secret }, caller, input);
  const since = input.replay_since && new Date(input.replay_since).toISOString();
  await recordChange(
    deps.store,
    caller.organization.id,
    async (tx) => {
      const max = deps.limits.auditWebhooksPerOrganization;
      if ((await tx.auditWebhooks.create(webhook, max)) === 'limit') {
        throw limitExceeded(
          `An organization may have at most ${max} audit webhooks, disabled ones included (limits.auditWebhooksPerOrganization): change and enable a disabled one instead.`,
        );
      }
      await prepareScheme(tx, { keyring, ids: deps.ids }, caller, scheme);
      // The back-fill starts with the webhook: its first batch is queued before any later event
      // (its own creation's included), and the engine queues the rest a batch at a time, each
      // once the webhook has nothing due, so live events are not held behind the whole history.
      const target = { organizationId: caller.organization.id, webhookId: id, at: caller.at };
      return since === undefined ? undefined : startReplay(tx, deps.webhooks, target, since);
    },
    (replayed) =>
      webhookEvent(deps.ids, caller, 'audit_webhook_created', {
        ...webhookData(webhook),
        event_types: webhook.event_types,
        ...credentialsData(webhook),
        ...(scheme === 'latchkey' ? {} : { signature_scheme: scheme }),
        ...(since === undefined ? {} : { replay_since: since, replayed }),
      }),
  );
  if (scheme !== 'standard-webhooks-ed25519') return { webhook, signingSecret: secret };
  const keys = await signingKeysNow(deps, caller.organization.id);
  return { webhook, publicKeys: keys.map((key) => key.public_key) };
}
