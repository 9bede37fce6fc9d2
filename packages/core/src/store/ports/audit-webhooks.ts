/** Port: audit webhooks of an organization, and the moves between their states. */
import type { AuditWebhook } from '../../model/model.js';

/** What a receiver may demand of a webhook, as stored (values and key sealed). */
export type WebhookCredentials = Required<Pick<AuditWebhook, 'headers' | 'client_certificate'>>;

/**
 * Webhooks are never deleted (their attempts and metrics refer to them); they are disabled. Every
 * method addresses a webhook within its organization: another organization's id is absent.
 */
export interface AuditWebhookRepository {
  /**
   * Inserts the webhook, unless `max` is given and its organization already has `max` webhooks
   * (disabled ones count): then it writes nothing and answers `limit`. One atomic step, so two
   * concurrent creates cannot both pass the count.
   */
  create(webhook: AuditWebhook, max?: number): Promise<'created' | 'limit'>;
  get(organizationId: string, id: string): Promise<AuditWebhook | null>;
  /** The organization's webhooks, oldest first. */
  list(organizationId: string): Promise<AuditWebhook[]>;
  /** The ids of every organization that has webhooks (for metrics across organizations). */
  organizationIds(): Promise<string[]>;
  /**
   * Changes the webhook's name, URL, event-type filter, custom headers (replaced as a whole), client
   * certificate (null removes it) or signature scheme — the fields given — in one step; returns
   * the webhook as changed, or null when absent. A new filter applies to events appended after the
   * step (the outbox reads the filter in the statement that appends an event).
   */
  update(
    organizationId: string,
    id: string,
    changes: Partial<
      Pick<
        AuditWebhook,
        'name' | 'url' | 'event_types' | 'headers' | 'client_certificate' | 'signature_scheme'
      >
    >,
  ): Promise<AuditWebhook | null>;
  /**
   * Replaces the sealed signing secret and, in the same step, sets `previous_secret` to `previous`
   * (absent: none); returns the webhook, or null when absent.
   */
  setSecret(
    organizationId: string,
    id: string,
    secretSealed: string,
    previous?: { sealed: string; until: string } | null,
  ): Promise<AuditWebhook | null>;
  /**
   * Replaces the sealed signing secret only where it still is `from` (a rotation in between wins):
   * for the re-encrypt routine. Returns whether it was replaced.
   */
  replaceSecret(organizationId: string, id: string, from: string, to: string): Promise<boolean>;
  /**
   * Replaces the custom headers and client certificate only where both still are `from` (a PATCH in
   * between wins): for the re-encrypt routine. Returns whether they were replaced.
   */
  replaceCredentials(
    organizationId: string,
    id: string,
    from: WebhookCredentials,
    to: WebhookCredentials,
  ): Promise<boolean>;
  /**
   * Moves the webhook to `disabled` and, in the same step, cancels its pending and held deliveries
   * (a disabled webhook is owed nothing; `recover` replays from the log). Null when absent.
   */
  disable(organizationId: string, id: string): Promise<AuditWebhook | null>;
  /**
   * Moves the webhook to `active`, clears `consecutive_failures` and, in the same step, makes its held
   * deliveries pending again, due at `at`, with their attempts reset. Returns the webhook and how
   * many deliveries it released, or null when absent.
   */
  enable(
    organizationId: string,
    id: string,
    at: string,
  ): Promise<{ webhook: AuditWebhook; released: number } | null>;
}
