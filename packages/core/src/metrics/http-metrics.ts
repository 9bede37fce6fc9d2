/**
 * The HTTP side of `core.metricsText()`, counted in this process since it started (Prometheus sums
 * the instances): requests by route, method and status class, their latency as a histogram, pushes
 * applied, push conflicts (409), strict-mode refusals (428) and store errors. Labels take bounded
 * values only: a route is its operation id from the route table (`unmatched` for a path that names
 * none), a method one of the HTTP methods (`other` otherwise), a status its class. Nothing a caller
 * sends becomes a label.
 */

/** What the pipeline reports of each request it answered. */
export interface AnsweredRequest {
  /** The matched route's operation id; undefined when the path matched none. */
  route: string | undefined;
  method: string;
  status: number;
  durationMs: number;
  /** The error code of a refused request (`version_conflict`, `service_unavailable`, …). */
  errorCode?: string | undefined;
}

/** Counters of the requests a core answered. */
export interface HttpMetrics {
  observe(answer: AnsweredRequest): void;
  /** The counters as Prometheus text (exposition format 0.0.4). */
  render(): string;
}

/** Histogram bounds, in seconds. */
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Route labels are operation ids from the route table: letters only, so they need no escaping. */
const SAFE_ROUTE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

interface Histogram {
  buckets: number[];
  sum: number;
  count: number;
}

const COUNTERS = {
  latchkey_pushes_applied_total: 'Signed pushes applied (200).',
  latchkey_push_conflicts_total: 'Pushes refused for a version conflict (409 version_conflict).',
  latchkey_push_strict_refusals_total: 'Pushes refused by strict conflict mode (428 if_version_required).',
  latchkey_store_errors_total:
    'Requests answered 503 service_unavailable (the store down or overloaded) or 500.',
} as const;

/** A fresh set of counters, all zero. */
export function createHttpMetrics(): HttpMetrics {
  const requests = new Map<string, number>();
  const latency = new Map<string, Histogram>();
  const counters: Record<keyof typeof COUNTERS, number> = {
    latchkey_pushes_applied_total: 0,
    latchkey_push_conflicts_total: 0,
    latchkey_push_strict_refusals_total: 0,
    latchkey_store_errors_total: 0,
  };
  return {
    observe(answer) {
      const route = answer.route && SAFE_ROUTE.test(answer.route) ? answer.route : 'unmatched';
      const method = METHODS.has(answer.method.toUpperCase()) ? answer.method.toUpperCase() : 'other';
      const key = `route="${route}",method="${method}",status_class="${Math.floor(answer.status / 100)}xx"`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      const seconds = Math.max(0, answer.durationMs) / 1000;
      const histogram = latency.get(route) ?? { buckets: BOUNDS.map(() => 0), sum: 0, count: 0 };
      BOUNDS.forEach((bound, i) => {
        if (seconds <= bound) histogram.buckets[i]!++;
      });
      histogram.sum += seconds;
      histogram.count++;
      latency.set(route, histogram);
      if (route === 'push' && answer.status === 200) counters.latchkey_pushes_applied_total++;
      if (answer.errorCode === 'version_conflict') counters.latchkey_push_conflicts_total++;
      if (answer.errorCode === 'if_version_required') counters.latchkey_push_strict_refusals_total++;
      if (answer.errorCode === 'service_unavailable' || answer.status === 500) {
        counters.latchkey_store_errors_total++;
      }
    },
    render() {
      const out = [
        '# HELP latchkey_http_requests_total Requests answered, by route, method and status class.',
        '# TYPE latchkey_http_requests_total counter',
        ...[...requests].map(([labels, n]) => `latchkey_http_requests_total{${labels}} ${n}`),
        '# HELP latchkey_http_request_duration_seconds Time to answer a request, by route.',
        '# TYPE latchkey_http_request_duration_seconds histogram',
      ];
      for (const [route, h] of latency) {
        BOUNDS.forEach((bound, i) => {
          out.push(
            `latchkey_http_request_duration_seconds_bucket{route="${route}",le="${bound}"} ${h.buckets[i]}`,
          );
        });
        out.push(
          `latchkey_http_request_duration_seconds_bucket{route="${route}",le="+Inf"} ${h.count}`,
          `latchkey_http_request_duration_seconds_sum{route="${route}"} ${h.sum}`,
          `latchkey_http_request_duration_seconds_count{route="${route}"} ${h.count}`,
        );
      }
      for (const [name, help] of Object.entries(COUNTERS) as [keyof typeof COUNTERS, string][]) {
        out.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`, `${name} ${counters[name]}`);
      }
      return `${out.join('\n')}\n`;
    },
  };
}
