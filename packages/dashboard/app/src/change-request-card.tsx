/**
 * One change request: its title and state, who proposed it and when it expires, its keys and
 * versions (a moved key marked), its approvals, rejection or application, and the actions the
 * member may take on it (and the screen's rights allow: an embedded portal session shows no values).
 */
import { useState } from 'preact/hooks';
import { ChangeKeysTable } from './change-keys-table.js';
import { changeActions } from './change-permissions.js';
import { ChangeReview } from './change-review.js';
import { ChangeStatusBadge } from './change-status-badge.js';
import type { ApprovalPolicy, ChangeRequest } from './change-types.js';
import { formatTime } from './format.js';
import { Icon } from './icons.js';
import { useRights } from './rights.js';
import type { Me } from './types.js';
import { useChangeActions } from './use-change-actions.js';
import { isLive } from './use-change-requests.js';
import { useCurrentVersions } from './use-current-versions.js';
import { ToggleButton } from './webhook-buttons.js';

/** The card of `request`, whose API path is `path`, in the environment at `envPath`. */
export function ChangeRequestCard(props: {
  me: Me;
  path: string;
  envPath: string;
  request: ChangeRequest;
  policy: ApprovalPolicy | null;
  onChanged(): void;
}) {
  const { request } = props;
  const live = isLive(request);
  const keys = request.changes.map((c) => c.key);
  // Read again whenever the request changes (its approvals, its state): the key may have moved.
  const current = useCurrentVersions(props.envPath, live ? keys : [], JSON.stringify(request));
  const actions = useChangeActions(props.path, props.onChanged);
  const [showing, setShowing] = useState(false);
  const rights = useRights();
  const allowed = changeActions(props.me, request, props.policy, rights);
  const moved = live
    ? request.changes.filter((c) => {
        const now = current.data?.get(c.key);
        return now !== undefined && now !== c.if_version;
      })
    : [];
  const titleId = `request-${request.id}`;
  return (
    <article
      class="card change-request"
      aria-labelledby={titleId}
      data-request={request.id}
      data-status={request.status}
    >
      <RequestHead titleId={titleId} request={request} live={live} />
      <ChangeKeysTable
        id={`${titleId}-keys`}
        request={request}
        current={current.data}
        values={actions.values}
      />
      {moved.length > 0 && (
        <p class="warning" data-field="moved">
          <Icon name="warning" /> {moved.map((c) => c.key).join(', ')} changed since this request was made:
          applying it will be refused and nothing written.
        </p>
      )}
      <Approvals request={request} />
      <div class="actions">
        {rights.secretValues && (
          <ToggleButton
            open={showing}
            controls={`${titleId}-keys`}
            onToggle={(open) => {
              setShowing(open);
              actions.showValues(open);
            }}
            disabled={actions.busy !== null}
          >
            {showing ? 'Hide values' : 'Show values'}
          </ToggleButton>
        )}
        <ChangeReview id={titleId} request={request} allowed={allowed} actions={actions} />
      </div>
      {allowed.signedOnly && (
        <p class="hint">
          This environment asks for approvals signed with a device: approve with{' '}
          <code>latchkey changes approve {request.id}</code>.
        </p>
      )}
      <p
        class={`result ${actions.message ? (actions.message.ok ? 'ok' : 'bad') : ''}`}
        role="status"
        data-field="result"
      >
        {actions.message?.text}
      </p>
    </article>
  );
}

/** The title, state, author, times, id and description. */
function RequestHead({ titleId, request, live }: { titleId: string; request: ChangeRequest; live: boolean }) {
  return (
    <>
      <div class="webhook-head">
        <h3 id={titleId}>{request.title}</h3>
        <ChangeStatusBadge status={request.status} />
      </div>
      <p class="facts">
        <span>
          Proposed by <strong data-field="author">{request.created_by}</strong> on{' '}
          {formatTime(request.created_at)}
        </span>
        {live && <span>Expires {formatTime(request.expires_at)}</span>}
        <span>
          <code>{request.id}</code>
        </span>
      </p>
      {request.description && <p class="description">{request.description}</p>}
    </>
  );
}

/** The approvals so far, and a rejection or application when there is one. */
function Approvals({ request }: { request: ChangeRequest }) {
  return (
    <div class="approvals">
      <p data-field="approvals">
        Approvals: <strong>{request.approvals.length}</strong> of {request.required_approvals}
      </p>
      {request.approvals.length > 0 && (
        <ul>
          {request.approvals.map((a) => (
            <li key={a.user}>
              <strong>{a.user}</strong> on {formatTime(a.approved_at)}
              {a.device_id ? ' (signed with a device)' : ''}
              {a.comment ? `: ${a.comment}` : ''}
            </li>
          ))}
        </ul>
      )}
      {request.rejection && (
        <p data-field="rejection">
          Rejected by <strong>{request.rejection.user}</strong> on {formatTime(request.rejection.at)}:{' '}
          {request.rejection.reason}
        </p>
      )}
      {request.applied && (
        <p data-field="applied">
          Applied as event <code>{request.applied.event_id}</code>.
        </p>
      )}
    </div>
  );
}
