/** A change request's state in the API's own word, told apart by icon and outline as well as colour. */

import type { ChangeRequestStatus } from './change-types.js';
import { Icon, type IconName } from './icons.js';

const LOOK: Record<ChangeRequestStatus, { icon: IconName; tone: string; hint: string }> = {
  open: { icon: 'pause', tone: 'disabled', hint: 'Waiting for approvals.' },
  approved: { icon: 'check', tone: 'active', hint: 'Approved: it may be applied.' },
  applied: { icon: 'shield', tone: 'active', hint: 'Its changes were written.' },
  rejected: { icon: 'cross', tone: 'dead_letter', hint: 'An approver rejected it.' },
  cancelled: { icon: 'cross', tone: 'disabled', hint: 'Its author cancelled it.' },
  expired: { icon: 'pause', tone: 'disabled', hint: 'Not approved and applied in time.' },
  conflicted: { icon: 'warning', tone: 'dead_letter', hint: 'A key moved before it was applied.' },
};

export function ChangeStatusBadge({ status }: { status: ChangeRequestStatus }) {
  const look = LOOK[status] ?? LOOK.open;
  return (
    <span class={`badge badge-${look.tone}`} title={look.hint} data-status={status}>
      <Icon name={look.icon} class="badge-icon" />
      {status}
    </span>
  );
}
