/** The buttons of a webhook card: its actions by state, and the toggles that open its panels. */
import type { ComponentChildren } from 'preact';
import { useRights } from './rights.js';
import type { WebhookStatus } from './types.js';

/**
 * Send a test event, rotate the secret, and enable or disable as the state allows; none of them
 * where the screen may not change the webhook (a read-only or narrower portal session).
 */
export function WebhookButtons(props: {
  status: WebhookStatus;
  busy: string | null;
  onTest(): void;
  onRotate(): void;
  onEnable(): void;
  onDisable(): void;
}) {
  const busy = props.busy !== null;
  const rights = useRights();
  if (!rights.manageWebhooks) return null;
  return (
    <>
      <button type="button" onClick={props.onTest} disabled={busy}>
        {props.busy === 'test' ? 'Sending…' : 'Send test event'}
      </button>
      {rights.webhookSecrets && (
        <button type="button" class="secondary" onClick={props.onRotate} disabled={busy}>
          Rotate secret
        </button>
      )}
      {props.status !== 'active' && (
        <button type="button" class="secondary" onClick={props.onEnable} disabled={busy}>
          Enable
        </button>
      )}
      {props.status !== 'disabled' && (
        <button type="button" class="secondary" onClick={props.onDisable} disabled={busy}>
          Disable
        </button>
      )}
    </>
  );
}

/** A button that opens and closes the panel `controls` names. */
export function ToggleButton(props: {
  open: boolean;
  controls: string;
  onToggle(open: boolean): void;
  disabled?: boolean;
  children: ComponentChildren;
}) {
  return (
    <button
      type="button"
      class="secondary"
      aria-expanded={props.open}
      aria-controls={props.controls}
      onClick={() => props.onToggle(!props.open)}
      disabled={props.disabled}
    >
      {props.children}
    </button>
  );
}
