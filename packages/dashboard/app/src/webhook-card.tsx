/**
 * One webhook: its state, failures, last delivery and error, its figures over the window with the
 * latency buckets as bars, and its actions (test, rotate, disable/enable, the attempt log).
 */
import { useState } from 'preact/hooks';
import { type ApiError, api, seg } from './api.js';
import { LatencyBars } from './charts.js';
import { DeliveriesTable } from './deliveries-table.js';
import { ConfirmDialog } from './dialogs.js';
import { formatAgo, formatCount, formatMs, formatRate, formatTime } from './format.js';
import { StatusBadge } from './status-badge.js';
import type { AuditWebhook, Metrics, MetricsWindow, TestResult } from './types.js';

type Figures = Metrics['webhooks'][number];
type Pending = 'rotate' | 'disable' | null;

export function WebhookCard(props: {
  org: string;
  webhook: AuditWebhook;
  figures: Figures | undefined;
  window: MetricsWindow;
  onChanged(): void;
  onSecret(title: string, secret: string): void;
}) {
  const { webhook, figures } = props;
  const path = `${props.org}/audit-webhooks/${seg(webhook.id)}`;
  const [confirm, setConfirm] = useState<Pending>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const titleId = `webhook-${webhook.id}`;

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
      props.onChanged();
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
      const rotated = await api<{ signing_secret: string }>('POST', `${path}/rotate-secret`);
      props.onSecret(`New signing secret of “${webhook.name}”`, rotated.signing_secret);
      return 'Secret rotated: the old one no longer signs deliveries.';
    });

  const setEnabled = (enable: boolean) =>
    act(enable ? 'enable' : 'disable', async () => {
      await api('POST', `${path}/${enable ? 'enable' : 'disable'}`);
      return enable ? 'Enabled: held events are being delivered.' : 'Disabled: nothing is queued for it now.';
    });

  return (
    <article class="card webhook" aria-labelledby={titleId} data-webhook={webhook.name}>
      <div class="webhook-head">
        <h4 id={titleId}>{webhook.name}</h4>
        <StatusBadge status={webhook.status} />
      </div>
      <p class="url">
        <code>{webhook.url}</code>
      </p>
      <dl class="facts">
        <dt>Consecutive failures</dt>
        <dd data-field="consecutive_failures">{webhook.consecutive_failures}</dd>
        <dt>Last delivery</dt>
        <dd>
          {webhook.last_delivery ? (
            <time dateTime={webhook.last_delivery.at} title={formatTime(webhook.last_delivery.at)}>
              {formatAgo(webhook.last_delivery.at)}:{' '}
              {webhook.last_delivery.succeeded ? 'succeeded' : 'failed'}
              {webhook.last_delivery.status_code !== null && `, HTTP ${webhook.last_delivery.status_code}`},
              in {formatMs(webhook.last_delivery.latency_ms)}
            </time>
          ) : (
            'never'
          )}
        </dd>
        <dt>Last error</dt>
        <dd data-field="last_error">
          {webhook.last_error ? (
            <>
              <code>{webhook.last_error.code}</code> {webhook.last_error.message}{' '}
              <span class="muted">({formatAgo(webhook.last_error.at)})</span>
            </>
          ) : (
            'none'
          )}
        </dd>
      </dl>
      {figures && <WebhookFigures figures={figures} window={props.window} />}
      <div class="actions">
        <button type="button" onClick={sendTest} disabled={busy !== null}>
          {busy === 'test' ? 'Sending…' : 'Send test event'}
        </button>
        <button type="button" class="secondary" onClick={() => setConfirm('rotate')} disabled={busy !== null}>
          Rotate secret
        </button>
        {webhook.status === 'disabled' || webhook.status === 'dead_letter' ? (
          <button type="button" class="secondary" onClick={() => setEnabled(true)} disabled={busy !== null}>
            Enable
          </button>
        ) : null}
        {webhook.status !== 'disabled' ? (
          <button
            type="button"
            class="secondary"
            onClick={() => setConfirm('disable')}
            disabled={busy !== null}
          >
            Disable
          </button>
        ) : null}
        <button
          type="button"
          class="secondary"
          aria-expanded={showDeliveries}
          aria-controls={`${titleId}-deliveries`}
          onClick={() => setShowDeliveries(!showDeliveries)}
        >
          {showDeliveries ? 'Hide deliveries' : 'Show deliveries'}
        </button>
      </div>
      <p class={`result ${message ? (message.ok ? 'ok' : 'bad') : ''}`} role="status" data-field="result">
        {message?.text}
      </p>
      {showDeliveries && <DeliveriesTable id={`${titleId}-deliveries`} path={path} />}
      {confirm === 'rotate' && (
        <ConfirmDialog
          title={`Rotate the secret of “${webhook.name}”?`}
          confirm="Rotate secret"
          onConfirm={rotate}
          onClose={() => setConfirm(null)}
        >
          <p>
            The current secret stops signing at once. Your receiver must switch to the new one, shown next.
          </p>
        </ConfirmDialog>
      )}
      {confirm === 'disable' && (
        <ConfirmDialog
          title={`Disable “${webhook.name}”?`}
          confirm="Disable"
          danger
          onConfirm={() => setEnabled(false)}
          onClose={() => setConfirm(null)}
        >
          <p>Events not yet delivered are dropped and no new ones are queued until you enable it again.</p>
        </ConfirmDialog>
      )}
    </article>
  );
}

function describeTest(result: TestResult): string {
  const code = result.status_code === null ? 'no HTTP answer' : `HTTP ${result.status_code}`;
  const head = result.delivered ? 'Test delivered' : 'Test failed';
  const error = result.error ? `: ${result.error.code}, ${result.error.message}` : '';
  return `${head}: ${code} in ${formatMs(result.latency_ms)}${error}.`;
}

function WebhookFigures({ figures, window }: { figures: Figures; window: MetricsWindow }) {
  return (
    <div class="webhook-figures">
      <dl class="figures compact" aria-label={`${figures.name} over ${window}`}>
        <div>
          <dt>Attempted</dt>
          <dd>{formatCount(figures.attempted)}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{formatCount(figures.failed)}</dd>
        </div>
        <div>
          <dt>Success rate</dt>
          <dd>{formatRate(figures.success_rate, figures.attempted)}</dd>
        </div>
        <div>
          <dt>p50 / p95 / p99</dt>
          <dd>
            {figures.attempted === 0
              ? '—'
              : `${formatCount(figures.latency.p50_ms)} / ${formatCount(figures.latency.p95_ms)} / ${formatCount(figures.latency.p99_ms)}\u00a0ms`}
          </dd>
        </div>
      </dl>
      <LatencyBars buckets={figures.latency_buckets} label={`Latency of ${figures.name} over ${window}`} />
    </div>
  );
}
