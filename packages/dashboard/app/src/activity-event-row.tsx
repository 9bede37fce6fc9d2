/**
 * One event of the history: a disclosure button (its time, type, actor and place) that opens the
 * event's fields, its keys and versions as a table for pushes that forced or conflicted, its `data`
 * (never a secret value: the API holds none in events), and its place in the chain.
 */
import { useState } from 'preact/hooks';
import { formatTime } from './format.js';
import { Icon } from './icons.js';
import { hasKeyTable, KeyChangesTable } from './key-changes-table.js';
import type { ActivityEvent } from './types.js';

const placeOf = (e: ActivityEvent) =>
  [e.project, e.environment].filter(Boolean).join(' / ') || 'organization';

/** The row; `flagged` marks the event Verify named. */
export function ActivityEventRow({ event, flagged }: { event: ActivityEvent; flagged: boolean }) {
  const [open, setOpen] = useState(false);
  const panel = `event-${event.seq}`;
  return (
    <li class={`event${flagged ? ' flagged' : ''}`} data-seq={event.seq} data-type={event.type}>
      <button
        type="button"
        class="event-toggle"
        aria-expanded={open ? 'true' : 'false'}
        aria-controls={panel}
        onClick={() => setOpen(!open)}
      >
        <Icon name={open ? 'chevron-open' : 'chevron'} />
        <span class="event-type">{event.type}</span>
        <span class="event-meta">
          <time dateTime={event.occurred_at}>{formatTime(event.occurred_at)}</time> · {event.actor.id} ·{' '}
          {placeOf(event)} · seq {event.seq}
        </span>
      </button>
      {open && (
        <div id={panel} class="event-detail">
          <dl class="event-fields">
            <dt>Id</dt>
            <dd>
              <code>{event.id}</code>
            </dd>
            <dt>Occurred</dt>
            <dd>{event.occurred_at}</dd>
            <dt>Actor</dt>
            <dd>
              {event.actor.type} <code>{event.actor.id}</code>
            </dd>
            <dt>Project</dt>
            <dd>{event.project ?? '—'}</dd>
            <dt>Environment</dt>
            <dd>{event.environment ?? '—'}</dd>
            {event.device_id && (
              <>
                <dt>Device</dt>
                <dd>
                  <code>{event.device_id}</code>
                </dd>
              </>
            )}
            <dt>Seq</dt>
            <dd>{event.seq}</dd>
            <dt>Hash</dt>
            <dd>
              <code class="hash">{event.hash}</code>
            </dd>
            <dt>Previous hash</dt>
            <dd>
              <code class="hash">{event.prev_hash}</code>
            </dd>
          </dl>
          {hasKeyTable(event) && <KeyChangesTable event={event} />}
          <p class="data-label">Data</p>
          <pre class="event-data">{JSON.stringify(event.data, null, 2)}</pre>
        </div>
      )}
    </li>
  );
}
