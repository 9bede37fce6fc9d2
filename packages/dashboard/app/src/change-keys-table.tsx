/**
 * A request's keys: the change, the version it was based on, the key's version now (a key that
 * moved since is marked in words and icon, not colour alone: applying the request would be
 * refused), and, once shown, the proposed values.
 */

import type { ChangeRequest } from './change-types.js';
import { Icon } from './icons.js';

/** The table of `request`'s changes; `current` and `values` where known. */
export function ChangeKeysTable(props: {
  id: string;
  request: ChangeRequest;
  current: Map<string, number> | undefined;
  values: Map<string, string | null> | undefined;
}) {
  const { request, current, values } = props;
  const live = request.status === 'open' || request.status === 'approved';
  return (
    <table class="key-changes change-keys" id={props.id}>
      <caption>Keys this request changes</caption>
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Change</th>
          <th scope="col">Based on version</th>
          {live && <th scope="col">Version now</th>}
          {values && <th scope="col">Proposed value</th>}
        </tr>
      </thead>
      <tbody>
        {request.changes.map((change) => {
          const now = current?.get(change.key);
          const moved = live && now !== undefined && now !== change.if_version;
          return (
            <tr key={change.key} class={moved ? 'moved' : undefined} data-key={change.key}>
              <th scope="row">
                <code>{change.key}</code>
              </th>
              <td>{change.action === 'delete' ? 'delete' : 'set'}</td>
              <td>{change.if_version}</td>
              {live && (
                <td data-field="now">
                  {now === undefined ? '…' : now}
                  {moved && (
                    <span class="moved-mark">
                      <Icon name="warning" /> moved since
                    </span>
                  )}
                </td>
              )}
              {values && (
                <td>
                  {change.action === 'delete' ? (
                    <em>(deleted)</em>
                  ) : (
                    <code class="value">{values.get(change.key) ?? ''}</code>
                  )}
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
