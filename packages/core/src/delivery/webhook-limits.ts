/**
 * Per-webhook delivery limits, held across every worker: attempts in flight (counted from the
 * store's live leases) and attempts started per second (counted from the claims made in the current
 * UTC second). One setting applies to every webhook; an override by webhook id replaces it, field
 * by field. The API has no field for them: they are the operator's, set in the core option
 * `webhooks.limits` (and the same option of a worker's `createDeliveryEngine`).
 */

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

/** The limits that hold for `webhookId`. */
export function webhookLimit(limits: WebhookLimits | undefined, webhookId: string): WebhookLimit {
  const own = limits?.byWebhook?.[webhookId];
  return {
    inFlight: own?.inFlight !== undefined ? own.inFlight : (limits?.inFlight ?? null),
    perSecond: own?.perSecond !== undefined ? own.perSecond : (limits?.perSecond ?? null),
  };
}

/** The start of the UTC second `at` falls in: the window the per-second limit counts in. */
export function secondOf(at: string): string {
  return new Date(Math.floor(Date.parse(at) / 1000) * 1000).toISOString();
}

/** Checks the limits' numbers; throws a RangeError naming the wrong one. */
export function checkWebhookLimits(limits: WebhookLimits | undefined): WebhookLimits | undefined {
  if (!limits) return undefined;
  const check = (value: number | null | undefined, name: string) => {
    if (value != null && !(Number.isInteger(value) && value >= 1))
      throw new RangeError(`webhooks.limits: ${name} must be a whole number of at least 1`);
  };
  check(limits.inFlight, 'inFlight');
  check(limits.perSecond, 'perSecond');
  for (const [id, own] of Object.entries(limits.byWebhook ?? {})) {
    check(own.inFlight, `byWebhook.${id}.inFlight`);
    check(own.perSecond, `byWebhook.${id}.perSecond`);
  }
  return limits;
}
