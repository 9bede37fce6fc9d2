/** A webhook's state in the API's own word, told apart by icon and shape as well as colour. */
import type { WebhookStatus } from './types.js';

const ICONS: Record<WebhookStatus, string> = { active: '✓', disabled: '⏸', dead_letter: '⚠' };
const HINTS: Record<WebhookStatus, string> = {
  active: 'Deliveries are sent as events occur.',
  disabled: 'Nothing is queued; enable to resume.',
  dead_letter: 'Retries ran out; events are held until you enable it.',
};

export function StatusBadge({ status }: { status: WebhookStatus }) {
  return (
    <span class={`badge badge-${status}`} title={HINTS[status]} data-status={status}>
      <span aria-hidden="true" class="badge-icon">
        {ICONS[status]}
      </span>
      {status}
    </span>
  );
}

/** Success or failure of one attempt, in words and icon. */
export function ResultBadge({ ok }: { ok: boolean }) {
  return (
    <span class={`badge ${ok ? 'badge-active' : 'badge-dead_letter'}`}>
      <span aria-hidden="true" class="badge-icon">
        {ok ? '✓' : '✕'}
      </span>
      {ok ? 'succeeded' : 'failed'}
    </span>
  );
}
