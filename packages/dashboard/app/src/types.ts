/** The shapes of the API answers the dashboard reads (see the server's OpenAPI document). */
export type WebhookStatus = 'active' | 'disabled' | 'dead_letter';
export type MetricsWindow = '24h' | '7d' | '30d';

export interface Me {
  user: string;
  role: string;
  organization: { id: string; slug?: string; name?: string | null };
}

export interface DeliveryError {
  at: string;
  code: string;
  status_code?: number;
  message: string;
}

export interface AuditWebhook {
  id: string;
  name: string;
  url: string;
  status: WebhookStatus;
  consecutive_failures: number;
  last_delivery: {
    at: string;
    event_id: string;
    succeeded: boolean;
    status_code: number | null;
    latency_ms: number;
  } | null;
  last_error: DeliveryError | null;
  created_at: string;
}

export interface Latency {
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
}

export interface Figures {
  attempted: number;
  succeeded: number;
  failed: number;
  success_rate: number;
  latency: Latency;
}

export interface Metrics {
  window: MetricsWindow;
  summary: Figures & { dead_lettered_webhooks: number };
  webhooks: (Figures & {
    id: string;
    name: string;
    status: WebhookStatus;
    latency_buckets: Record<string, number>;
  })[];
}

export interface TimelineBucket {
  from: string;
  to: string;
  attempted: number;
  succeeded: number;
  failed: number;
  latency: Latency;
}

export interface Timeline {
  window: MetricsWindow;
  buckets: TimelineBucket[];
}

export interface Attempt {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  at: string;
  succeeded: boolean;
  status_code: number | null;
  latency_ms: number;
  error: DeliveryError | null;
  next_attempt_at: string | null;
  test: boolean;
}

export interface TestResult {
  delivered: boolean;
  status_code: number | null;
  latency_ms: number;
  error: DeliveryError | null;
}
