/**
 * One webhook: its state, failures, last delivery and error, its figures over the window with the
 * latency buckets as bars, and its actions (test, rotate, disable/enable, the attempt log).
 */
import { useState } from 'preact/hooks';
import { seg } from './api.js';
import { DeliveriesTable } from './deliveries-table.js';
import { EventFilterEditor } from './event-filter-editor.js';
import { useRights } from './rights.js';
import { StatusBadge } from './status-badge.js';
import type { AuditWebhook, WebhookFigures as Figures, MetricsWindow } from './types.js';
import { useWebhookActions } from './use-webhook-actions.js';
import { ToggleButton, WebhookButtons } from './webhook-buttons.js';
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
  const [editing, setEditing] = useState(false);
  const { busy, message, sendTest, rotate, setEnabled, note } = useWebhookActions({ ...props, path });
  const titleId = `webhook-${webhook.id}`;
  const { manageWebhooks } = useRights();
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
        <WebhookButtons
          status={webhook.status}
          busy={busy}
          onTest={sendTest}
          onRotate={() => setConfirm('rotate')}
          onEnable={() => setEnabled(true)}
          onDisable={() => setConfirm('disable')}
        />
        {manageWebhooks && (
          <ToggleButton
            open={editing}
            controls={`${titleId}-events`}
            onToggle={setEditing}
            disabled={busy !== null}
          >
            Edit events
          </ToggleButton>
        )}
        <ToggleButton open={showDeliveries} controls={`${titleId}-deliveries`} onToggle={setShowDeliveries}>
          {showDeliveries ? 'Hide deliveries' : 'Show deliveries'}
        </ToggleButton>
      </div>
      <p class={`result ${message ? (message.ok ? 'ok' : 'bad') : ''}`} role="status" data-field="result">
        {message?.text}
      </p>
      {editing && (
        <EventFilterEditor
          id={`${titleId}-events`}
          webhook={webhook}
          path={path}
          onSaved={(text) => {
            setEditing(false);
            note(text);
          }}
          onCancel={() => setEditing(false)}
        />
      )}
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
