/** The confirmations a webhook card asks before a change that cannot be undone. */
import { ConfirmDialog } from './dialogs.js';

/** A change that waits for confirmation. */
export type PendingChange = 'rotate' | 'disable';

/** The dialog that confirms `pending` for the webhook named `name`. */
export function WebhookConfirm(props: {
  pending: PendingChange;
  name: string;
  onRotate(): void;
  onDisable(): void;
  onClose(): void;
}) {
  const { name, onClose } = props;
  return props.pending === 'rotate' ? (
    <ConfirmDialog
      title={`Rotate the secret of “${name}”?`}
      confirm="Rotate secret"
      onConfirm={props.onRotate}
      onClose={onClose}
    >
      <p>The current secret stops signing at once. Your receiver must switch to the new one, shown next.</p>
    </ConfirmDialog>
  ) : (
    <ConfirmDialog
      title={`Disable “${name}”?`}
      confirm="Disable"
      danger
      onConfirm={props.onDisable}
      onClose={onClose}
    >
      <p>Events not yet delivered are dropped and no new ones are queued until you enable it again.</p>
    </ConfirmDialog>
  );
}
