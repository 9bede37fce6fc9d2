/**
 * `recover`: queueing again, for one webhook, the events of the log in a time range that its current
 * filter selects, a batch at a time (see `replay-start.ts`). Refused while the webhook is disabled.
 */

import { recordChange } from '../../activity/record-change.js';
import { LatchkeyError } from '../../errors/latchkey-error.js';
import { startReplay } from '../replay-start.js';
import { type WebhookCaller, webhookEvent } from './caller.js';
import type { WebhookDeps } from './deps.js';
import { webhookData } from './webhook-data.js';
import { findWebhook } from './webhook-lookup.js';

/** The range to replay: from `since`, up to `until` (exclusive) when given. */
export interface RecoverRange {
  since: string;
  until?: string | undefined;
}

/**
 * Starts the replay of `range` to webhook `webhookId`, recorded as `audit_webhook_recovered`; how
 * many events it covers. A 409 `webhook_disabled` for a disabled webhook, `limit_exceeded` for a
 * range over `webhooks.replay.maxEvents` or while another replay of the webhook is under way.
 */
export async function recoverWebhook(
  deps: Pick<WebhookDeps, 'store' | 'ids' | 'webhooks'>,
  caller: WebhookCaller,
  webhookId: string,
  range: RecoverRange,
): Promise<number> {
  const organizationId = caller.organization.id;
  const existing = await findWebhook(deps.store, organizationId, webhookId);
  if (existing.status === 'disabled') {
    throw new LatchkeyError(
      'webhook_disabled',
      'The audit webhook is disabled; enable it before recovering events.',
    );
  }
  const since = new Date(range.since).toISOString();
  const until = range.until && new Date(range.until).toISOString();
  return recordChange(
    deps.store,
    organizationId,
    (tx) =>
      startReplay(tx, deps.webhooks, { organizationId, webhookId: existing.id, at: caller.at }, since, until),
    (count) =>
      webhookEvent(deps.ids, caller, 'audit_webhook_recovered', {
        ...webhookData(existing),
        since,
        ...(until === undefined ? {} : { until }),
        event_types: existing.event_types,
        queued: count,
      }),
  );
}
