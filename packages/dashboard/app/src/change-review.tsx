/**
 * The review controls of a request, as the member's role allows: a note (the approval's comment or
 * the rejection's reason), Approve, Reject, Apply and Cancel. Apply and Reject ask first: one writes
 * secrets, the other cannot be undone.
 */
import { useState } from 'preact/hooks';
import type { ChangeActions } from './change-permissions.js';
import type { ChangeRequest } from './change-types.js';
import { ConfirmDialog } from './dialogs.js';
import type { useChangeActions } from './use-change-actions.js';

type Actions = ReturnType<typeof useChangeActions>;

/** The controls of `request`; nothing when the member may do nothing on it. */
export function ChangeReview(props: {
  id: string;
  request: ChangeRequest;
  allowed: ChangeActions;
  actions: Actions;
}) {
  const { request, allowed, actions } = props;
  const [note, setNote] = useState('');
  const [confirm, setConfirm] = useState<'apply' | 'reject' | null>(null);
  const [missing, setMissing] = useState(false);
  const busy = actions.busy !== null;
  const noteId = `${props.id}-note`;
  const reviewing = allowed.approve || allowed.reject;
  return (
    <>
      {reviewing && (
        <div class="field review-note">
          <label for={noteId}>Comment (approve) or reason (reject)</label>
          <input
            id={noteId}
            value={note}
            maxLength={500}
            aria-invalid={missing}
            aria-describedby={missing ? `${noteId}-missing` : undefined}
            onInput={(e) => {
              setNote(e.currentTarget.value);
              setMissing(false);
            }}
          />
          {missing && (
            <span class="field-error" id={`${noteId}-missing`}>
              A reason is needed to reject.
            </span>
          )}
        </div>
      )}
      {allowed.approve && (
        <button type="button" disabled={busy} onClick={() => void actions.approve(note.trim())}>
          {actions.busy === 'approve' ? 'Approving…' : 'Approve'}
        </button>
      )}
      {allowed.reject && (
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => (note.trim() ? setConfirm('reject') : setMissing(true))}
        >
          Reject
        </button>
      )}
      {allowed.apply && (
        <button type="button" disabled={busy} onClick={() => setConfirm('apply')}>
          {actions.busy === 'apply' ? 'Applying…' : 'Apply'}
        </button>
      )}
      {allowed.cancel && (
        <button type="button" class="secondary" disabled={busy} onClick={() => void actions.cancel()}>
          Cancel request
        </button>
      )}
      {confirm && (
        <ReviewConfirm
          confirm={confirm}
          request={request}
          onApply={() => void actions.apply()}
          onReject={() => void actions.reject(note.trim())}
          onClose={() => setConfirm(null)}
        />
      )}
    </>
  );
}

/** The question asked before an apply or a rejection. */
function ReviewConfirm(props: {
  confirm: 'apply' | 'reject';
  request: ChangeRequest;
  onApply(): void;
  onReject(): void;
  onClose(): void;
}) {
  const { request } = props;
  if (props.confirm === 'apply') {
    return (
      <ConfirmDialog
        title={`Apply “${request.title}”?`}
        confirm="Apply"
        onConfirm={props.onApply}
        onClose={props.onClose}
      >
        <p>
          This writes its {request.changes.length} change(s) to {request.project} / {request.environment},
          each only if the key is still at the version it was based on.
        </p>
      </ConfirmDialog>
    );
  }
  return (
    <ConfirmDialog
      title={`Reject “${request.title}”?`}
      confirm="Reject"
      danger
      onConfirm={props.onReject}
      onClose={props.onClose}
    >
      <p>It can no longer be applied; a new request is needed for these changes.</p>
    </ConfirmDialog>
  );
}
