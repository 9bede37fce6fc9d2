/**
 * `createCore(options)`: builds the services and answers every HTTP request through `core.handle`.
 * Routing, authentication, scope resolution, RBAC, validation, error mapping and JSON live here,
 * once; framework adapters only translate requests and responses.
 */

import type { KeyObject } from 'node:crypto';
import { type RestoreLimitsOption, toRestoreLimits } from './backup/restore-limits.js';
import { bootstrapOrganization } from './bootstrap.js';
import { toAuditKey } from './checkpoint.js';
import { describeError } from './describe-error.js';
import { checkDocumented, undocumented } from './documented.js';
import { internalErrorBody, isLatchkeyError, LatchkeyError } from './errors.js';
import { type CoreRequest, type CoreResponse, jsonResponse } from './http.js';
import { type IdGenerator, randomId } from './ids.js';
import { createKeyringGate } from './keyring-gate.js';
import type { ActivityDraft, Environment, Organization, Project } from './model.js';
import { buildOpenApiDocument } from './openapi.js';
import { authorize, type Principal } from './permissions.js';
import { authenticate, notFound, resolveScope } from './principal.js';
import { type ReadyReport, readyReport } from './ready.js';
import { type ReencryptCounts, type ReencryptOptions, reencryptAtRest } from './reencrypt.js';
import {
  bodySize,
  parseBody,
  parseQuery,
  rejectUnknownQuery,
  splitUrl,
  validate,
  validateParams,
} from './request-input.js';
import { type AnyRoute, type RouteContext, type RouteResult, Router, type Services } from './router.js';
import { allRoutes } from './routes/index.js';
import { createMemoryStore } from './store/memory/index.js';
import type { LatchkeyStore } from './store/types.js';
import { toTrustedAuditKeys } from './trusted-audit-keys.js';
import { paramSchemas } from './validation.js';
import { fromWebRequest, toWebResponse } from './web.js';
import { type KeyringOption, toKeyring, type WebhookOptions, webhookSettings } from './webhooks/config.js';
import { type MetricsReport, metricsReport } from './webhooks/metrics-report.js';
import { renderPrometheus } from './webhooks/prometheus.js';
import type { DeliveryEngine, DeliveryEngineOptions } from './webhooks/worker.js';

/** What a host app's own authentication returns: the organization and user it vouches for. */
export interface ExternalIdentity {
  /** Organization slug. */
  organization: string;
  /** User identifier; must be a member of the organization. */
  user: string;
}

/** Something that receives operational log lines. Never given secrets or request bodies. */
export interface CoreLogger {
  error(message: string, meta?: Record<string, unknown>): void;
}

/** Options of {@link createCore}. */
export interface CoreOptions {
  /** Where everything is kept. Default: a new in-memory store. */
  store?: LatchkeyStore;
  /** Path prefix of the API. Default `/api/v2`. */
  basePath?: string;
  /** Largest request body in bytes; larger ones get 413 `payload_too_large`. Default 1 MiB. */
  bodyLimit?: number;
  /** Replaces Bearer API tokens with the host app's own authentication. */
  authenticate?: (request: CoreRequest) => Promise<ExternalIdentity | null> | ExternalIdentity | null;
  /** Clock in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Id generator. Default: prefix + 12 random bytes hex. */
  ids?: IdGenerator;
  /** Accepted distance between a push's `signed_at` and now, in seconds. Default 300. */
  signatureToleranceSeconds?: number;
  /** Receives unexpected errors. Default: `console.error` of the error name and message. */
  logger?: CoreLogger;
  /**
   * Checks every JSON answer of a matched route, errors included, against the statuses and schemas
   * the route documents, and turns a mismatch into a 500 (logged). For tests and staging: it proves
   * the OpenAPI document tells the truth. Default false.
   */
  validateResponses?: boolean;
  /**
   * Lets any authenticated user create an organization with `POST /organizations`, becoming its
   * owner (the answer carries an owner token, shown once). Default false: a 403 `forbidden`.
   */
  allowOrganizationCreation?: boolean;
  /**
   * The Ed25519 private key (a KeyObject or PKCS#8 PEM) that signs checkpoints of each
   * organization's activity chain: `GET …/activity/checkpoint`, and the last line of every NDJSON
   * export. Keep it out of the database: a checkpoint proves the log was not cut short or rewritten
   * by someone who could change the database. Without it, checkpoints are not offered.
   */
  auditKey?: KeyObject | string;
  /**
   * Public audit keys (raw Ed25519 in base64url, as `…/activity/checkpoint` shows them, or SPKI
   * PEM) of other servers, or of this server's earlier audit keys, whose signed checkpoints a
   * restore accepts besides `auditKey`'s own. A restore takes a backup's activity history in only
   * when the backup's checkpoint verifies with one of these keys or with `auditKey`; with neither,
   * restores are refused (503). Default none.
   */
  trustedAuditKeys?: readonly string[];
  /**
   * Keys for encryption at rest (AES-256-GCM): audit webhook signing secrets and secret values are
   * stored sealed with it (`reencrypt()` moves them to a new current key). A keyring, its text form (`id:base64key,...`, the first current, as in `LATCHKEY_KEYRING`) or
   * `{ current, keys }`. Keep it out of the database. Without it, audit webhooks cannot be created
   * (503 `service_unavailable`) and secret values are stored as clients send them. The store records
   * the key ids its data was sealed with; a keyring that cannot open all of them is refused (see
   * `verifyKeyring`).
   */
  keyring?: KeyringOption;
  /** Audit webhook settings: DNS resolver and allowlist of the SSRF guard, retry policy, timeout. */
  webhooks?: WebhookOptions;
  /**
   * Limits of a staged restore: `maxParts` (default 10,000; a manifest may declare no more bytes than
   * so many parts carry within `bodyLimit`) and `maxLineBytes` (default 16 MiB), so one restore
   * cannot fill the server's memory or disk.
   */
  restores?: RestoreLimitsOption;
}

/** Options of {@link Core.startDeliveries}: the engine's tuning (the rest comes from the core). */
export type StartDeliveriesOptions = Pick<
  DeliveryEngineOptions,
  'batchSize' | 'concurrency' | 'pollIntervalMs' | 'leaseMs' | 'transport' | 'random'
>;

/** The bootstrap of an organization with an owner and a known token (example servers, tests). */
export interface BootstrapOptions {
  organization: string;
  name?: string;
  user: string;
  token: string;
}

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
   * The audit webhook metrics of every organization, each window, as Prometheus text (serve it with
   * `PROMETHEUS_CONTENT_TYPE` at `/metrics`, behind your own access control).
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
  /** Whether this instance can serve, with each check's result (`{status, checks: {keyring}}`). */
  ready(): Promise<ReadyReport>;
  readonly store: LatchkeyStore;
  readonly basePath: string;
  readonly bodyLimit: number;
  readonly routes: readonly AnyRoute[];
}

/** Builds a Latchkey core. */
export function createCore(options: CoreOptions = {}): Core {
  const store = options.store ?? createMemoryStore();
  const basePath = (options.basePath ?? '/api/v2').replace(/\/+$/, '');
  const baseSegments = basePath.split('/').filter(Boolean);
  const bodyLimit = options.bodyLimit ?? 1_048_576;
  const logger: CoreLogger = options.logger ?? {
    error: (message, meta) => console.error(`[latchkey] ${message}`, meta ?? ''),
  };
  const auditKey = options.auditKey === undefined ? undefined : toAuditKey(options.auditKey);
  const services: Services = {
    store,
    now: options.now ?? Date.now,
    ids: options.ids ?? randomId,
    signatureToleranceSeconds: options.signatureToleranceSeconds ?? 300,
    openapi: () => openapi(),
    allowOrganizationCreation: options.allowOrganizationCreation ?? false,
    auditKey,
    trustedAuditKeys: toTrustedAuditKeys(auditKey, options.trustedAuditKeys),
    keyring: toKeyring(options.keyring),
    webhooks: webhookSettings(options.webhooks),
    restores: toRestoreLimits(options.restores, bodyLimit),
  };
  const router = new Router(allRoutes);
  const keyringGate = createKeyringGate(store, services.keyring, logger);
  let openapiCache: Record<string, unknown> | undefined;
  const openapi = () => {
    openapiCache ??= buildOpenApiDocument(allRoutes, basePath);
    return openapiCache;
  };

  async function handle(request: CoreRequest): Promise<CoreResponse> {
    let scoped: RouteContext | undefined;
    let route: AnyRoute | undefined;
    try {
      const { segments, rawQuery } = splitUrl(request.url);
      if (!startsWith(segments, baseSegments)) throw notFound();
      const match = router.match(request.method.toUpperCase(), segments.slice(baseSegments.length));
      if (match.kind === 'not_found') throw notFound();
      if (match.kind === 'method_not_allowed') {
        const allow = [...new Set(match.allow)].join(', ');
        return withHeaders(
          new LatchkeyError('method_not_allowed', `This path accepts ${allow}.`).toBody(),
          405,
          { allow },
        );
      }
      route = match.route;
      const size = bodySize(request.body);
      if (size > bodyLimit) {
        throw new LatchkeyError('payload_too_large', `The request body exceeds ${bodyLimit} bytes.`);
      }
      if (route.auth === false) {
        return toResponse(await route.handler({ services, request } as RouteContext<never, never>));
      }
      // Nothing is read or sealed before the keyring is known to open the store's data.
      await keyringGate.admit();
      const { principal, records } = await authenticate(request, store, options.authenticate, match.params);
      const params = validateParams(match.params);
      const { organization, project, environment } = await resolveScope(store, principal, params, records);
      const at = new Date(services.now()).toISOString();
      const ctx: RouteContext = {
        request,
        services,
        principal,
        organization,
        project,
        environment,
        params,
        body: undefined,
        json: undefined,
        query: undefined,
        at,
        draft: (type, data, extra) =>
          draftEvent(type, data, extra, principal, organization, project, environment, at, services),
      };
      scoped = ctx;
      if (route.permission) {
        const decision = authorize(principal, route.permission, {
          project: project?.slug,
          environment: environment?.slug,
        });
        if (!decision.ok) {
          throw new LatchkeyError('forbidden', `Your role does not allow ${route.permission} here.`);
        }
      }
      const query = parseQuery(rawQuery);
      ctx.json = parseBody(request, route);
      ctx.body = route.body ? validate(route.body, ctx.json, 'body') : undefined;
      ctx.query = route.query ? validate(route.query, query, 'query') : rejectUnknownQuery(query);
      const result = await route.handler(ctx as RouteContext<never, never>);
      if (options.validateResponses) checkDocumented(route, result);
      return toResponse(result);
    } catch (error) {
      if (isLatchkeyError(error)) {
        if (error.code === 'service_unavailable') {
          // The store is down or overloaded (or the keyring lacks a key): tell the operator why.
          if (!keyringGate.noteUnavailable(error)) {
            logger.error('the store is unavailable', {
              route: route?.operationId,
              cause: describeError(error.cause),
            });
          }
        } else if (scoped && route?.rejectedEvent && !(error as { recorded?: boolean }).recorded) {
          await recordRejection(scoped, route.rejectedEvent, error);
        }
        const body = error.toBody();
        const drift = options.validateResponses && route ? undocumented(route, error.status, body) : null;
        if (!drift) return jsonResponse(error.status, body, error.headers());
        logger.error('an error answer is not documented', { route: route!.operationId, drift });
        return jsonResponse(500, internalErrorBody());
      }
      logger.error('unexpected error while handling a request', {
        method: request.method,
        route: route?.operationId,
        error: describeError(error),
      });
      return jsonResponse(500, internalErrorBody());
    }
  }

  async function recordRejection(ctx: RouteContext, type: string, error: LatchkeyError): Promise<void> {
    try {
      const json = ctx.json as { device_id?: unknown } | undefined;
      // Only a well-formed device id from the body reaches the log; anything else is left out.
      const deviceId =
        json && paramSchemas['device']!.safeParse(json.device_id).success
          ? (json.device_id as string)
          : undefined;
      await store.activity.append(
        ctx.organization.id,
        ctx.draft(type, { reason: error.code, status: error.status }, { device_id: deviceId }),
      );
    } catch (appendError) {
      logger.error('could not record a rejected request', {
        error: appendError instanceof Error ? appendError.message : String(appendError),
      });
    }
  }

  async function fetchHandler(request: Request): Promise<Response> {
    let coreRequest: CoreRequest;
    try {
      coreRequest = await fromWebRequest(request, bodyLimit);
    } catch (error) {
      // A body stream that fails is a client that went away or broke its framing mid-body: answer
      // (nobody may read it) rather than throw an error the server would log as the app's own.
      const refusal = isLatchkeyError(error)
        ? error
        : new LatchkeyError('invalid_request', 'The request body could not be read to its end.');
      // The unread rest of the body is still on the connection: tell the client not to reuse it.
      return toWebResponse(jsonResponse(refusal.status, refusal.toBody(), { connection: 'close' }));
    }
    return toWebResponse(await handle(coreRequest));
  }

  let engine: DeliveryEngine | undefined;
  async function startDeliveries(engineOptions: StartDeliveriesOptions = {}): Promise<DeliveryEngine> {
    if (engine) return engine;
    if (!services.keyring) throw new TypeError('startDeliveries needs the core option keyring');
    await keyringGate.verify();
    const { createDeliveryEngine } = await import('./webhooks/worker.js');
    engine ??= createDeliveryEngine({
      store,
      keyring: services.keyring,
      ...(options.webhooks ? { webhooks: options.webhooks } : {}),
      ...(options.webhooks?.transport ? { transport: options.webhooks.transport } : {}),
      now: services.now,
      ids: services.ids,
      logger,
      ...engineOptions,
    });
    engine.start();
    return engine;
  }

  return {
    handle,
    fetch: fetchHandler,
    bootstrap: (input) => bootstrapOrganization(store, services, input),
    startDeliveries,
    async metricsText() {
      const reports: { organization: string; report: MetricsReport }[] = [];
      for (const organizationId of await store.auditWebhooks.organizationIds()) {
        const organization = await store.organizations.getById(organizationId);
        if (!organization) continue;
        for (const window of ['24h', '7d', '30d'] as const) {
          reports.push({
            organization: organization.slug,
            report: await metricsReport(store, organizationId, window, services.now()),
          });
        }
      }
      return renderPrometheus(reports);
    },
    async reencrypt(reencryptOptions) {
      if (!services.keyring) throw new TypeError('reencrypt needs the core option keyring');
      await keyringGate.verify();
      return reencryptAtRest(store, services.keyring, reencryptOptions);
    },
    verifyKeyring: () => keyringGate.verify(),
    ready: async () => readyReport({ keyring: await keyringGate.report() }),
    async stopDeliveries() {
      await engine?.stop();
      engine = undefined;
    },
    openapi,
    store,
    basePath,
    bodyLimit,
    routes: allRoutes,
  };
}

function draftEvent(
  type: string,
  data: Record<string, unknown>,
  extra: Partial<ActivityDraft> | undefined,
  principal: Principal,
  organization: Organization,
  project: Project | undefined,
  environment: Environment | undefined,
  at: string,
  services: Services,
): ActivityDraft {
  return {
    id: services.ids('evt'),
    type,
    occurred_at: at,
    organization: organization.slug,
    project: project?.slug,
    environment: environment?.slug,
    actor: { type: 'user', id: principal.user },
    data,
    ...extra,
  };
}

function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  if (segments.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (segments[i] !== prefix[i]) return false;
  return true;
}

function toResponse(result: RouteResult): CoreResponse {
  return 'response' in result ? result.response : jsonResponse(result.status, result.body, result.headers);
}

function withHeaders(body: unknown, status: number, headers: Record<string, string>): CoreResponse {
  return jsonResponse(status, body, headers);
}
