/**
 * The Activity page's Transparency panel (owners and admins): the latest signed checkpoint of the
 * organization's Merkle tree (tree size, root hash, signing time, the C2SP verifier key to pin)
 * and its witnesses, each with whether it cosigned this tree head. Members who cannot read the
 * checkpoint never get the panel (the page does not render it), nor its request.
 */
import { organizationPath } from './activity-scope.js';
import { formatCount, formatTime } from './format.js';
import { Icon } from './icons.js';
import { useRights } from './rights.js';
import { ErrorNote, Status } from './states.js';
import type { Me } from './types.js';
import { type Transparency, useTransparency } from './use-transparency.js';

const posixTime = (seconds: number) => formatTime(new Date(seconds * 1000).toISOString());

function Witnesses({ data }: { data: Transparency }) {
  const { witnesses, registered } = data;
  if (witnesses.length === 0) {
    return (
      <p class="empty">
        {registered
          ? 'No witness is registered: register one (POST …/activity/witnesses) so that a forked log is caught.'
          : 'No witness has cosigned this checkpoint.'}
      </p>
    );
  }
  return (
    <table class="key-changes witnesses">
      <caption>Witnesses of this checkpoint</caption>
      <thead>
        <tr>
          <th scope="col">Witness</th>
          <th scope="col">Cosigned this tree head</th>
        </tr>
      </thead>
      <tbody>
        {witnesses.map((w) => (
          <tr key={w.name} data-witness={w.name} data-cosigned={w.cosignedAt !== null}>
            <th scope="row">
              <code>{w.name}</code>
            </th>
            <td>
              {w.cosignedAt !== null ? (
                <>
                  <Icon name="check" /> Yes, at {posixTime(w.cosignedAt)}
                </>
              ) : (
                <>
                  <Icon name="pause" /> Not yet
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The panel; render it only for members who read the organization's activity. */
export function TransparencyPanel({ me }: { me: Me }) {
  const { listWitnesses } = useRights();
  const state = useTransparency(organizationPath(me), me.role === 'owner' && listWitnesses);
  const data = state.data;
  return (
    <section class="card transparency" aria-labelledby="transparency-title">
      <div class="row">
        <h2 id="transparency-title">Transparency</h2>
        <button type="button" class="secondary small" onClick={() => state.reload(true)}>
          Refresh
        </button>
      </div>
      <p class="help">
        The latest checkpoint signs the root of the log’s Merkle tree; witnesses cosign a checkpoint only
        after checking it extends the last one they saw, so a rewritten or forked log is caught.
      </p>
      {state.loading && <Status>Loading the checkpoint…</Status>}
      {state.error && <ErrorNote error={state.error} onRetry={() => state.reload()} />}
      {data && (
        <>
          <dl class="facts" aria-label="Latest checkpoint">
            <dt>Tree size</dt>
            <dd data-tree-size={data.checkpoint.tree_size}>
              {formatCount(data.checkpoint.tree_size)} events
            </dd>
            <dt>Root hash</dt>
            <dd>
              <code class="hash">{data.checkpoint.root_hash}</code>
            </dd>
            <dt>Signed</dt>
            <dd>
              {formatTime(data.checkpoint.signed_at)} with audit key <code>{data.checkpoint.key_id}</code>
            </dd>
            <dt>Verifier key</dt>
            <dd>
              <code class="hash">{data.checkpoint.verifier_key}</code>
            </dd>
          </dl>
          <Witnesses data={data} />
          <details class="as-table">
            <summary>The signed note (C2SP checkpoint)</summary>
            <pre class="event-data">{data.checkpoint.note}</pre>
          </details>
        </>
      )}
    </section>
  );
}
