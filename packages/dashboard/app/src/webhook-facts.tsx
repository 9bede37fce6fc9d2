/** A webhook's delivery state in words: consecutive failures, the last delivery and the last error. */
import { formatAgo, formatMs, formatTime } from './format.js';
import type { AuditWebhook } from './types.js';

/** The facts list of a webhook card. */
export function WebhookFacts({ webhook }: { webhook: AuditWebhook }) {
  return (
    <dl class="facts">
      <dt>Events</dt>
      <dd data-field="event_types">
        {webhook.event_types.length === 0 ? (
          'All events'
        ) : (
          <ul class="event-list">
            {webhook.event_types.map((entry) => (
              <li key={entry}>
                <code>{entry}</code>
              </li>
            ))}
          </ul>
        )}
      </dd>
      <dt>Consecutive failures</dt>
      <dd data-field="consecutive_failures">{webhook.consecutive_failures}</dd>
      <dt>Last delivery</dt>
      <dd>
        {webhook.last_delivery ? (
          <time dateTime={webhook.last_delivery.at} title={formatTime(webhook.last_delivery.at)}>
            {formatAgo(webhook.last_delivery.at)}: {webhook.last_delivery.succeeded ? 'succeeded' : 'failed'}
            {webhook.last_delivery.status_code !== null && `, HTTP ${webhook.last_delivery.status_code}`}, in{' '}
            {formatMs(webhook.last_delivery.latency_ms)}
          </time>
        ) : (
          'never'
        )}
      </dd>
      <dt>Last error</dt>
      <dd data-field="last_error">
        {webhook.last_error ? (
          <>
            <code>{webhook.last_error.code}</code> {webhook.last_error.message}{' '}
            <span class="muted">({formatAgo(webhook.last_error.at)})</span>
          </>
        ) : (
          'none'
        )}
      </dd>
    </dl>
  );
}
