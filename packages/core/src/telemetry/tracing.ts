/**
 * OpenTelemetry traces through `@opentelemetry/api` only, an optional peer: loaded once per process
 * when installed, a no-op without it (and the API itself records nothing until the host registers
 * an SDK). A span per request (its route template, status and organization slug), a child span per
 * store transaction, a span per delivery attempt. Attributes never hold secret values, tokens,
 * signatures or request bodies: only names from the route table, slugs, ids and figures.
 */
import type * as OtelApi from '@opentelemetry/api';

type Api = typeof OtelApi;

let api: Api | null | undefined;
let loading: Promise<Api | null> | undefined;

/** `@opentelemetry/api` when installed (loaded once), else null. */
export function loadTelemetry(): Promise<Api | null> {
  loading ??= import('@opentelemetry/api').then(
    (module) => {
      api = module;
      return module;
    },
    () => {
      api = null;
      return null;
    },
  );
  return loading;
}

const TRACER = '@latchkey/core';

/** Where a request span leaves its span context for the events the request makes (see {@link causingTraceparent}). */
let requestSpanKey: symbol | undefined;

/**
 * The W3C `traceparent` of the request being answered (its server span), for the deliveries its
 * events queue: the attempts link to it and send it on. Null outside a traced request, or when
 * `@opentelemetry/api` is absent or records nothing.
 */
export function causingTraceparent(): string | null {
  if (!api || !requestSpanKey) return null;
  const span = api.context.active().getValue(requestSpanKey) as OtelApi.SpanContext | undefined;
  if (!span || !api.isSpanContextValid(span)) return null;
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** A `traceparent` as a span context, for a link; null when malformed. */
function parseTraceparent(otel: Api, traceparent: string | null | undefined): OtelApi.SpanContext | null {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceparent ?? '');
  if (!match) return null;
  const context = {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16),
    isRemote: true,
  };
  return otel.isSpanContextValid(context) ? context : null;
}

/** What a request span learns once the request is answered. */
export interface RequestOutcome {
  /** `http.route`: the route's path template under the base path; undefined when none matched. */
  route: string | undefined;
  operation: string | undefined;
  organization: string | undefined;
  status: number;
  errorCode: string | undefined;
}

const headerGetter: OtelApi.TextMapGetter<Record<string, string | string[] | undefined>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key.toLowerCase()],
};

/**
 * Runs `answer` in a server span for the request, a child of the caller's W3C `traceparent` when it
 * sent one; `outcome` names it once answered.
 */
export async function traceRequest<T>(
  method: string,
  headers: Record<string, string | string[] | undefined>,
  answer: () => Promise<T>,
  outcome: (result: T) => RequestOutcome,
): Promise<T> {
  const otel = api === undefined ? await loadTelemetry() : api;
  if (!otel) return answer();
  const parent = otel.propagation.extract(otel.context.active(), headers, headerGetter);
  const tracer = otel.trace.getTracer(TRACER);
  const options = { kind: otel.SpanKind.SERVER, attributes: { 'http.request.method': method } };
  requestSpanKey ??= otel.createContextKey('latchkey.request-span');
  const key = requestSpanKey;
  return tracer.startActiveSpan(method, options, parent, async (span) => {
    try {
      const inRequest = otel.context.active().setValue(key, span.spanContext());
      const result = await otel.context.with(inRequest, answer);
      const o = outcome(result);
      if (o.route) {
        span.updateName(`${method} ${o.route}`);
        span.setAttribute('http.route', o.route);
      }
      if (o.operation) span.setAttribute('latchkey.operation', o.operation);
      if (o.organization) span.setAttribute('latchkey.organization', o.organization);
      if (o.errorCode) span.setAttribute('latchkey.error.code', o.errorCode);
      span.setAttribute('http.response.status_code', o.status);
      if (o.status >= 500) span.setStatus({ code: otel.SpanStatusCode.ERROR });
      return result;
    } finally {
      span.end();
    }
  });
}

/**
 * Runs `work` in a span named `name` (internal, or client for a call out), a child of the active
 * one, linked to the span `linkTo` names (a `traceparent`) when given.
 */
export async function traceSpan<T>(
  name: string,
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
  kind: 'internal' | 'client' = 'internal',
  after?: (result: T) => Record<string, string | number | undefined>,
  linkTo?: string | null,
): Promise<T> {
  const otel = api === undefined ? await loadTelemetry() : api;
  if (!otel) return work();
  const tracer = otel.trace.getTracer(TRACER);
  const spanKind = kind === 'client' ? otel.SpanKind.CLIENT : otel.SpanKind.INTERNAL;
  const linked = parseTraceparent(otel, linkTo);
  const options = { kind: spanKind, attributes, ...(linked ? { links: [{ context: linked }] } : {}) };
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      const result = await work();
      for (const [key, value] of Object.entries(after?.(result) ?? {})) {
        if (value !== undefined) span.setAttribute(key, value);
      }
      return result;
    } catch (error) {
      span.setStatus({ code: otel.SpanStatusCode.ERROR });
      span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
      throw error;
    } finally {
      span.end();
    }
  });
}
