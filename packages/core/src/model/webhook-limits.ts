/** Per-webhook delivery limits as the operator sets them (core option `webhooks.limits`), which the store's claim applies. */

/** The limits of one webhook; `null`: none. */
export interface WebhookLimit {
  /** Attempts of the webhook in flight at once, across every worker (live leases). */
  inFlight: number | null;
  /** Attempts of the webhook started in one UTC second, across every worker (claims made). */
  perSecond: number | null;
}

/** Option `webhooks.limits`: limits for every webhook, and overrides by webhook id. */
export interface WebhookLimits {
  /** Attempts of one webhook in flight at once, across every worker. Default: no limit. */
  inFlight?: number;
  /** Attempts of one webhook started per second, across every worker. Default: no limit. */
  perSecond?: number;
  /** By webhook id: what a receiver asked for; a field left out takes the setting above. */
  byWebhook?: Readonly<Record<string, { inFlight?: number | null; perSecond?: number | null }>>;
}
