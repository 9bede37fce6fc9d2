/** A webhook's state in the API's own word, told apart by icon and shape as well as colour. */
import { Icon, type IconName } from './icons.js';
import type { WebhookStatus } from './types.js';

// Inline SVG: the font glyphs these once were (a pause sign among them) are missing from some
// systems' fonts and showed as an empty box.
const ICONS: Record<WebhookStatus, IconName> = { active: 'check', disabled: 'pause', dead_letter: 'warning' };
const HINTS: Record<WebhookStatus, string> = {
  active: 'Deliveries are sent as events occur.',
  disabled: 'Nothing is queued; enable to resume.',
  dead_letter: 'Retries ran out; events are held until you enable it.',
};

export function StatusBadge({ status }: { status: WebhookStatus }) {
  return (
    <span class={`badge badge-${status}`} title={HINTS[status]} data-status={status}>
      <Icon name={ICONS[status]} class="badge-icon" />
      {status}
    </span>
  );
}

/** Success or failure of one attempt, in words and icon. */
export function ResultBadge({ ok }: { ok: boolean }) {
  return (
    <span class={`badge ${ok ? 'badge-active' : 'badge-dead_letter'}`}>
      <Icon name={ok ? 'check' : 'cross'} class="badge-icon" />
      {ok ? 'succeeded' : 'failed'}
    </span>
  );
}
