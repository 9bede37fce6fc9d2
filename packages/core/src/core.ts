/**
 * `createCore(options)`: wires the services of a Latchkey core. The request pipeline lives in
 * `http/pipeline.ts`, the option defaults in `config/resolve-options.ts`, and each operation below in
 * the module of its concern; this file only puts them together.
 */

import type { BootstrapOptions } from './auth/bootstrap.js';
import { bootstrapOrganization } from './auth/bootstrap.js';
import type { CoreOptions } from './config/options.js';
import { resolveOptions } from './config/resolve-options.js';
import { createEngineControl, type StartDeliveriesOptions } from './delivery/engine/control.js';
import type { DeliveryEngine } from './delivery/engine/engine.js';
import type { HealthReport } from './health/probe.js';
import { checkReady, type ReadyOptions, type ReadyReport } from './health/ready.js';
import type { CoreDeps } from './http/core-deps.js';
import { buildOpenApiDocument } from './http/openapi.js';
import { createPipeline } from './http/pipeline.js';
import type { AnyRoute } from './http/router.js';
import { handleWebRequest } from './http/web.js';
import { createKeyringGate } from './keyring/gate.js';
import { type ReencryptCounts, type ReencryptOptions, reencryptAtRest } from './keyring/reencrypt.js';
import { createHttpMetrics } from './metrics/http-metrics.js';
import { metricsText } from './metrics/metrics-text.js';
import type { CoreRequest, CoreResponse } from './model/core-request.js';
import type { Organization } from './model/model.js';
import {
  type CreatePortalSessionInput,
  expireForHost,
  frameAncestorOf,
  mintForHost,
} from './portal/host-sessions.js';
import type { MintedPortalSession } from './portal/mint-session.js';
import { allRoutes } from './routes/index.js';
import type { LatchkeyStore } from './store/types.js';

/** A running Latchkey core. */
export interface Core {
  /** The only HTTP entry point. Never throws: every failure becomes the documented error body. */
  handle(request: CoreRequest): Promise<CoreResponse>;
  /** The same, for WHATWG `Request`/`Response` runtimes. */
  fetch(request: Request): Promise<Response>;
  /** Creates (or finds) an organization with an owner whose API token is `token`. Idempotent. */
  bootstrap(options: BootstrapOptions): Promise<Organization>;
  /** The OpenAPI 3.1 document of this core. */
  openapi(): Record<string, unknown>;
  /**
   * Starts delivering audit webhook events from this process (the delivery engine of
   * `@latchkey/core/webhooks`, loaded now, with this core's store, keyring and webhook settings).
   * Several processes may run it on one SQL store; they share the work. Resolves with the engine.
   */
  startDeliveries(options?: StartDeliveriesOptions): Promise<DeliveryEngine>;
  /** Stops the engine `startDeliveries` started, once the attempts in flight are recorded. */
  stopDeliveries(): Promise<void>;
  /**
   * Prometheus text (serve it with `PROMETHEUS_CONTENT_TYPE` at `/metrics`, behind your own access
   * control): the audit webhook metrics of every organization, each window; each organization's
   * delivery queue; and the requests this core answered since it started.
   */
  metricsText(): Promise<string>;
  /**
   * Moves every value sealed at rest (audit webhook signing secrets, secret values) to the keyring's
   * current key, in batches, and seals secret values stored before there was a keyring; then older
   * keys may leave the ring. Safe while serving, and to run again. Needs the core option `keyring`.
   */
  reencrypt(options?: ReencryptOptions): Promise<ReencryptCounts>;
  /**
   * Checks the keyring against the key ids the store's data was sealed with, and records the current
   * key's id (with a check value only that key opens). Throws a `KeyringMismatchError` whose message
   * is one line naming the missing or clashing key ids (never key material) when the keyring cannot
   * open them all. Call it before serving to refuse early; otherwise the first request that needs
   * the store runs it, and while it fails every authenticated request answers 503.
   */
  verifyKeyring(): Promise<void>;
  /** Liveness: the process is up (serve it at `/healthz` with `probeResponse`). */
  health(): HealthReport;
  /**
   * Readiness: whether this instance can serve, with each check's result (`{status, checks: {store,
   * migrations, keyring, deliveries}}`); each check that reaches the store is bounded by a timeout.
   * Serve it at `/readyz` with `probeResponse`.
   */
  ready(options?: ReadyOptions): Promise<ReadyReport>;
  /**
   * Mints a portal session for a member, from the host app's own session of that user (the route
   * `POST …/portal-sessions` does the same for a caller with a token). Resolves with its id, the
   * embedded page's `url` (the token in its fragment only) and `expires_at`; rejects with a
   * `LatchkeyError` (`invalid_request`, `forbidden`, `not_found`, `limit_exceeded`) and writes nothing.
   */
  createPortalSession(input: CreatePortalSessionInput): Promise<MintedPortalSession>;
  /** Ends every live portal session of a member at once ("expire all"); the ids ended. */
  expirePortalSessions(input: { organization: string; user: string }): Promise<string[]>;
  /**
   * The origin allowed to frame the embedded page of portal session `sessionId` (its `?session=`):
   * the session's origin while `portal.allowedOrigins` holds it, else null (frame it from nowhere).
   * The dashboard's handler takes it as its `frameAncestor` option.
   */
  portalFrameAncestor(sessionId: string): Promise<string | null>;
  readonly store: LatchkeyStore;
  readonly basePath: string;
  readonly bodyLimit: number;
  readonly routes: readonly AnyRoute[];
}

/** Builds a Latchkey core. */
export function createCore(options: CoreOptions = {}): Core {
  const { store, basePath, bodyLimit, logger, services: resolved } = resolveOptions(options);
  let document: Record<string, unknown> | undefined;
  const openapi = () => {
    document ??= buildOpenApiDocument(allRoutes, basePath);
    return document;
  };
  const services: CoreDeps = { ...resolved, openapi };
  const keyringGate = createKeyringGate(store, services.keyring, logger);
  const http = createHttpMetrics();
  const handle = createPipeline({
    routes: allRoutes,
    basePath,
    bodyLimit,
    services,
    logger,
    keyringGate,
    authenticate: options.authenticate,
    validateResponses: options.validateResponses ?? false,
    onAnswered: http.observe,
  });
  const deliveries = createEngineControl({
    store,
    keyring: services.keyring,
    webhooks: options.webhooks,
    now: services.now,
    ids: services.ids,
    logger,
    verifyKeyring: () => keyringGate.verify(),
  });
  return {
    handle,
    fetch: (request) => handleWebRequest(handle, request, bodyLimit),
    bootstrap: (input) => bootstrapOrganization(store, services, input),
    startDeliveries: (engineOptions) => deliveries.start(engineOptions),
    stopDeliveries: () => deliveries.stop(),
    metricsText: () => metricsText(store, services.now, services.limits.webhookSeriesPerOrganization, http),
    async reencrypt(reencryptOptions) {
      if (!services.keyring) throw new TypeError('reencrypt needs the core option keyring');
      await keyringGate.verify();
      return reencryptAtRest(store, services.keyring, reencryptOptions);
    },
    verifyKeyring: () => keyringGate.verify(),
    health: () => ({ status: 'ok' }),
    ready: (readyOptions) =>
      checkReady(
        { store, keyring: () => keyringGate.report(), engine: () => deliveries.state(), now: services.now },
        readyOptions,
      ),
    createPortalSession: (input) => mintForHost(services, input),
    expirePortalSessions: (input) => expireForHost(services, input),
    portalFrameAncestor: (sessionId) => frameAncestorOf(services, sessionId),
    openapi,
    store,
    basePath,
    bodyLimit,
    routes: allRoutes,
  };
}
