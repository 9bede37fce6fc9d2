/**
 * A request's actions (approve, reject, apply, cancel, show the values): which one is under way and
 * the message its answer left. Each refreshes the list after, so the card shows the request's new
 * state (an apply refused for a moved key leaves it `conflicted`).
 */
import { useState } from 'preact/hooks';
import { type ApiError, api } from './api.js';
import type { ChangeRequest } from './change-types.js';

/** The outcome of the last action, in words. */
export interface ChangeMessage {
  ok: boolean;
  text: string;
}

type Applied = { versions: { key: string; version: number }[]; event_id: string };

/** The request's actions against its API path; `onChanged` reloads the list. */
export function useChangeActions(path: string, onChanged: () => void) {
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<ChangeMessage | null>(null);
  const [values, setValues] = useState<Map<string, string | null> | undefined>(undefined);

  const act = async (label: string, run: () => Promise<string>, refresh = true) => {
    setBusy(label);
    setMessage(null);
    try {
      setMessage({ ok: true, text: await run() });
    } catch (error) {
      const e = error as ApiError;
      setMessage({
        ok: false,
        text:
          e.code === 'version_conflict'
            ? 'A key moved since this request was made: nothing was written, and the request is now conflicted. Propose the change again from the current versions.'
            : e.message,
      });
    } finally {
      setBusy(null);
      if (refresh) onChanged();
    }
  };

  return {
    busy,
    message,
    values,
    approve: (comment: string) =>
      act('approve', async () => {
        await api('POST', `${path}/approve`, comment ? { comment } : {});
        return 'Approved.';
      }),
    reject: (reason: string) =>
      act('reject', async () => {
        await api('POST', `${path}/reject`, { reason });
        return 'Rejected: this request can no longer be applied.';
      }),
    cancel: () =>
      act('cancel', async () => {
        await api('POST', `${path}/cancel`, {});
        return 'Cancelled.';
      }),
    apply: () =>
      act('apply', async () => {
        const applied = await api<Applied>('POST', `${path}/apply`, {});
        return `Applied: ${applied.versions.map((v) => `${v.key} is now version ${v.version}`).join(', ')} (event ${applied.event_id}).`;
      }),
    showValues: (show: boolean) => {
      if (!show) {
        setValues(undefined);
        return;
      }
      void act(
        'values',
        async () => {
          const { change_request } = await api<{ change_request: ChangeRequest }>(
            'GET',
            `${path}?include_values=true`,
          );
          setValues(new Map(change_request.changes.map((c) => [c.key, c.value ?? null])));
          return 'Values shown: reading them is recorded in the activity log.';
        },
        false,
      );
    },
  };
}
