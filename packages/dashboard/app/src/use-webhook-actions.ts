/**
 * A webhook's actions (test, rotate the secret, disable and enable): which one is under way and
 * the message its answer left.
 */
import { useState } from 'preact/hooks';
import { type ApiError, api } from './api.js';
import { formatMs } from './format.js';
import type { AuditWebhook, AuditWebhookWithSecret, TestResult } from './types.js';

/** The outcome of the last action, in words. */
export interface ActionMessage {
  ok: boolean;
  text: string;
}

/** What the card does, and calls back with: a changed webhook, a new secret to show. */
export interface WebhookActionsOptions {
  webhook: AuditWebhook;
  /** The webhook's API path. */
  path: string;
  onChanged(): void;
  onSecret(title: string, secret: string): void;
}

function describeTest(result: TestResult): string {
  const code = result.status_code === null ? 'no HTTP answer' : `HTTP ${result.status_code}`;
  const head = result.delivered ? 'Test delivered' : 'Test failed';
  const error = result.error ? `: ${result.error.code}, ${result.error.message}` : '';
  return `${head}: ${code} in ${formatMs(result.latency_ms)}${error}.`;
}

/** The action under way (`busy`), the last message, and the actions; each refreshes the list after. */
export function useWebhookActions({ webhook, path, onChanged, onSecret }: WebhookActionsOptions) {
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<ActionMessage | null>(null);

  const act = async (label: string, run: () => Promise<string | null>) => {
    setBusy(label);
    setMessage(null);
    try {
      const text = await run();
      if (text) setMessage({ ok: true, text });
    } catch (error) {
      setMessage({ ok: false, text: (error as ApiError).message });
    } finally {
      setBusy(null);
      onChanged();
    }
  };

  const sendTest = () =>
    act('test', async () => {
      const result = await api<TestResult>('POST', `${path}/test`);
      setMessage({ ok: result.delivered, text: describeTest(result) });
      return null;
    });

  const rotate = () =>
    act('rotate', async () => {
      const rotated = await api<AuditWebhookWithSecret>('POST', `${path}/rotate-secret`);
      // Rotation answers a secret for the HMAC schemes (the only ones it serves).
      onSecret(`New signing secret of “${webhook.name}”`, rotated.signing_secret ?? '');
      return rotated.signature_scheme === 'standard-webhooks'
        ? 'Secret rotated: the old one keeps signing beside it for 24 hours.'
        : 'Secret rotated: the old one no longer signs deliveries.';
    });

  const setEnabled = (enable: boolean) =>
    act(enable ? 'enable' : 'disable', async () => {
      await api('POST', `${path}/${enable ? 'enable' : 'disable'}`);
      return enable ? 'Enabled: held events are being delivered.' : 'Disabled: nothing is queued for it now.';
    });

  /** Shows the outcome of a change made elsewhere on the card (the event filter) and refreshes. */
  const note = (text: string) => {
    setMessage({ ok: true, text });
    onChanged();
  };

  return { busy, message, sendTest, rotate, setEnabled, note };
}
