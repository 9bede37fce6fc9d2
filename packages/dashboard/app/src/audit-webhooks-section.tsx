/**
 * Settings > Notifications > Audit Webhooks: delivery metrics, the create form and the webhooks of
 * the organization, refreshed every few seconds so states and figures stay current. Organization
 * admins only: anyone else reads why, and sees no control (the API refuses them too).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, seg } from './api.js';
import { CreateWebhookForm } from './create-webhook-form.js';
import { SecretDialog } from './dialogs.js';
import { MetricsPanel } from './metrics-panel.js';
import { useRights } from './rights.js';
import { SigningKeysPanel } from './signing-keys-panel.js';
import { Empty, ErrorNote, Status } from './states.js';
import type { AuditWebhookList, Me, Metrics, MetricsWindow, Timeline } from './types.js';
import { useInterval, useRequest } from './use-request.js';
import { WebhookCard } from './webhook-card.js';

const ADMIN_ROLES = new Set(['owner', 'admin']);
const REFRESH_MS = 4_000;

export function AuditWebhooksSection({ me }: { me: Me }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (location.hash === '' && location.pathname.endsWith('/audit-webhooks')) heading.current?.focus();
  }, []);
  const admin = ADMIN_ROLES.has(me.role);
  return (
    <section aria-labelledby="audit-webhooks-heading" class="audit-webhooks">
      <h2 id="audit-webhooks-heading" tabIndex={-1} ref={heading}>
        Audit Webhooks
      </h2>
      <p class="lead">
        The activity events of the organization each endpoint asks for (every event by default), signed and
        delivered to it, with retries and a dead-letter state.
      </p>
      {admin ? <AdminView me={me} /> : <AdminsOnly />}
    </section>
  );
}

function AdminsOnly() {
  return (
    <div class="notice" role="note">
      <p>
        <strong>Organization admins only.</strong> Audit webhooks are managed by the owners and admins of the
        organization. Ask one of them if you need a webhook added or changed.
      </p>
    </div>
  );
}

function AdminView({ me }: { me: Me }) {
  const org = `/organizations/${seg(me.organization.slug ?? me.organization.id)}`;
  const [metricsWindow, setMetricsWindow] = useState<MetricsWindow>('24h');
  const [secret, setSecret] = useState<{ title: string; secret: string } | null>(null);
  const [created, setCreated] = useState(0);
  const rights = useRights();
  const list = useRequest(() => api<AuditWebhookList>('GET', `${org}/audit-webhooks`), org);
  const metrics = useRequest(
    () => api<Metrics>('GET', `${org}/audit-webhooks/metrics?window=${metricsWindow}`),
    `${org} ${metricsWindow}`,
  );
  const timeline = useRequest(
    () => api<Timeline>('GET', `${org}/audit-webhooks/metrics/timeline?window=${metricsWindow}`),
    `${org} ${metricsWindow}`,
  );
  const refresh = () => {
    list.reload(true);
    metrics.reload(true);
    timeline.reload(true);
  };
  useInterval(refresh, REFRESH_MS);

  if (list.error?.status === 403) return <AdminsOnly />;
  return (
    <>
      <MetricsPanel
        window={metricsWindow}
        onWindow={setMetricsWindow}
        metrics={metrics}
        timeline={timeline}
      />
      <section aria-labelledby="webhooks-heading">
        <div class="row">
          <h3 id="webhooks-heading">Webhooks</h3>
          <button type="button" class="secondary small" onClick={refresh}>
            Refresh
          </button>
        </div>
        {list.loading && !list.data && <Status>Loading webhooks…</Status>}
        {list.error && <ErrorNote error={list.error} onRetry={() => list.reload()} />}
        {list.data && list.data.audit_webhooks.length === 0 && (
          <Empty>
            No audit webhooks yet. Add one below to receive a signed copy of every activity event.
          </Empty>
        )}
        {list.data && list.data.audit_webhooks.length > 0 && (
          <ul class="webhooks">
            {list.data.audit_webhooks.map((webhook) => (
              <li key={webhook.id}>
                <WebhookCard
                  org={org}
                  webhook={webhook}
                  figures={metrics.data?.webhooks.find((w) => w.id === webhook.id)}
                  window={metricsWindow}
                  onChanged={refresh}
                  onSecret={(title, value) => setSecret({ title, secret: value })}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      {rights.manageWebhooks && rights.webhookSecrets && (
        <CreateWebhookForm
          org={org}
          onCreated={(webhook) => {
            const value = webhook.signing_secret;
            if (value) setSecret({ title: `Signing secret of “${webhook.name}”`, secret: value });
            setCreated((n) => n + 1);
            refresh();
          }}
        />
      )}
      <SigningKeysPanel org={org} version={created} />
      {secret && <SecretDialog title={secret.title} secret={secret.secret} onClose={() => setSecret(null)} />}
    </>
  );
}
