/**
 * Per-webhook delivery limits, held across every worker: attempts in flight (counted from the
 * store's live leases) and attempts started per second (counted from the claims made in the current
 * UTC second). One setting applies to every webhook; an override by webhook id replaces it, field
 * by field. The API has no field for them: they are the operator's, set in the core option
 * `webhooks.limits` (and the same option of a worker's `createDeliveryEngine`).
 */
import type { WebhookLimit, WebhookLimits } from '../model/webhook-limits.js';

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
