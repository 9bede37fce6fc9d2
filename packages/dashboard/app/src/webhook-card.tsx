/**
 * One webhook: its state, failures, last delivery and error, its figures over the window with the
 * latency buckets as bars, and its actions (test, rotate, disable/enable, the attempt log).
 */
import { useState } from 'preact/hooks';
import { seg } from './api.js';
import { DeliveriesTable } from './deliveries-table.js';
import { StatusBadge } from './status-badge.js';
import type { AuditWebhook, WebhookFigures as Figures, MetricsWindow } from './types.js';
import { useWebhookActions } from './use-webhook-actions.js';
import { type PendingChange, WebhookConfirm } from './webhook-confirm.js';
import { WebhookFacts } from './webhook-facts.js';
import { WebhookFigures } from './webhook-figures.js';

/** A webhook's card in the list. */
export function WebhookCard(props: {
  org: string;
  webhook: AuditWebhook;
  figures: Figures | undefined;
  window: MetricsWindow;
  onChanged(): void;
  onSecret(title: string, secret: string): void;
}) {
  const { webhook, figures } = props;
  const path = `${props.org}/audit-webhooks/${seg(webhook.id)}`;
  const [confirm, setConfirm] = useState<PendingChange | null>(null);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const { busy, message, sendTest, rotate, setEnabled } = useWebhookActions({ ...props, path });
  const titleId = `webhook-${webhook.id}`;
  return (
    <article class="card webhook" aria-labelledby={titleId} data-webhook={webhook.name}>
      <div class="webhook-head">
        <h4 id={titleId}>{webhook.name}</h4>
        <StatusBadge status={webhook.status} />
      </div>
      <p class="url">
        <code>{webhook.url}</code>
      </p>
      <WebhookFacts webhook={webhook} />
      {figures && <WebhookFigures figures={figures} window={props.window} />}
      <div class="actions">
        <button type="button" onClick={sendTest} disabled={busy !== null}>
          {busy === 'test' ? 'Sending…' : 'Send test event'}
        </button>
        <button type="button" class="secondary" onClick={() => setConfirm('rotate')} disabled={busy !== null}>
          Rotate secret
        </button>
        {webhook.status === 'disabled' || webhook.status === 'dead_letter' ? (
          <button type="button" class="secondary" onClick={() => setEnabled(true)} disabled={busy !== null}>
            Enable
          </button>
        ) : null}
        {webhook.status !== 'disabled' ? (
          <button
            type="button"
            class="secondary"
            onClick={() => setConfirm('disable')}
            disabled={busy !== null}
          >
            Disable
          </button>
        ) : null}
        <button
          type="button"
          class="secondary"
          aria-expanded={showDeliveries}
          aria-controls={`${titleId}-deliveries`}
          onClick={() => setShowDeliveries(!showDeliveries)}
        >
          {showDeliveries ? 'Hide deliveries' : 'Show deliveries'}
        </button>
      </div>
      <p class={`result ${message ? (message.ok ? 'ok' : 'bad') : ''}`} role="status" data-field="result">
        {message?.text}
      </p>
      {showDeliveries && <DeliveriesTable id={`${titleId}-deliveries`} path={path} />}
      {confirm && (
        <WebhookConfirm
          key={confirm}
          pending={confirm}
          name={webhook.name}
          onRotate={rotate}
          onDisable={() => setEnabled(false)}
          onClose={() => setConfirm(null)}
        />
      )}
    </article>
  );
}
