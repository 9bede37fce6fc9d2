/**
 * Liveness and readiness as HTTP answers, for the probes of a load balancer or Kubernetes: 200 when
 * the report is good, 503 when not, the report as JSON and never cached. Serve them without
 * credentials: they hold nothing secret (no key material, no host names, no error text).
 */
import { type CoreResponse, jsonResponse } from '../model/core-request.js';
import type { ReadyReport } from './ready.js';

/** The report of `core.health()`: the process is up and its event loop turns. */
export interface HealthReport {
  status: 'ok';
}

/** The answer of `GET /healthz` (`core.health()`) or `GET /readyz` (`await core.ready()`). */
export function probeResponse(report: HealthReport | ReadyReport): CoreResponse {
  const good = report.status === 'ok' || report.status === 'ready';
  return jsonResponse(good ? 200 : 503, report);
}
