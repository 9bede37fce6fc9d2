/**
 * The parts of the core the audit-webhook service uses. Each service function names the few it
 * needs (a `Pick` of these), so the HTTP layer hands over its dependencies and never its context.
 */

import type { Keyring } from '../../keyring/keyring.js';
import type { Limits } from '../../model/limits.js';
import type { IdGenerator } from '../../runtime/ids.js';
import type { LatchkeyStore } from '../../store/types.js';
import type { WebhookSettings } from '../config.js';

/** What the audit-webhook service may use of the core. */
export interface WebhookDeps {
  store: LatchkeyStore;
  /** Current time in milliseconds. */
  now(): number;
  ids: IdGenerator;
  /** Seals signing secrets, header values and client keys; without one, webhooks are a 503. */
  keyring: Keyring | undefined;
  /** The SSRF guard, the test transport and timeout, the replay pace. */
  webhooks: WebhookSettings;
  /** The per-organization bound on webhooks. */
  limits: Pick<Limits, 'auditWebhooksPerOrganization'>;
}
