/** What the audit webhook routes and the delivery engine need from the host, with defaults. */
import type { LookupAddress } from 'node:dns';
import { createKeyring, type Keyring, parseKeyring } from '../keyring/keyring.js';
import type { WebhookLimits } from '../model/webhook-limits.js';
import type { ReplayPace } from '../store/ports/deliveries.js';
import { checkRetryPolicy, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-schedule.js';
import type { Transport } from './sending/sender.js';
import { type AllowHosts, parseAllowHosts, type ResolveHost } from './sending/ssrf.js';
import { checkWebhookLimits } from './webhook-limits.js';

/** Options of audit webhooks (core option `webhooks`). */
export interface WebhookOptions {
  /**
   * Resolves host names for the SSRF guard, at create and at every attempt. Default
   * `dns.promises.lookup(host, { all: true })`.
   */
  resolve?: ResolveHost;
  /**
   * Hosts deliveries may reach even at private addresses (tests, self-hosters): host names or
   * addresses, as a list or comma-separated (`LATCHKEY_WEBHOOK_ALLOW_HOSTS`).
   */
  allowHosts?: string | Iterable<string>;
  /** When failed deliveries are tried again. Default: the schedule of `DEFAULT_RETRY_SCHEDULE`, ±20 %. */
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout in milliseconds (connect to response end). Default 15,000. */
  timeoutMs?: number;
  /** Sends `test` deliveries. Default: undici with keep-alive and the SSRF guard, made on first use. */
  transport?: Transport;
  /**
   * Per-webhook limits held across every worker: attempts in flight and attempts started per
   * second, for every webhook, with overrides by webhook id (what a receiver asked for). A limited
   * webhook's backlog waits; the others' deliveries go on. Default: none.
   */
  limits?: WebhookLimits;
  /**
   * How a replay of the log (`replay_since` at create, `recover`) is paced: `batch` events of it are
   * queued at a time, the next batch only once the webhook has nothing due (so live deliveries
   * queued meanwhile go first), at most once per engine poll; `maxEvents` is the most one replay may
   * cover (more is 409 `limit_exceeded`: narrow `since`/`until`). Defaults 100 and 100,000.
   */
  replay?: Partial<ReplayPace>;
}

/** The defaults of `webhooks.replay`. */
const REPLAY_DEFAULTS: Readonly<ReplayPace> = { batch: 100, maxEvents: 100_000 };

/** The resolved webhook settings every part uses. */
export interface WebhookSettings {
  resolve: ResolveHost;
  allowHosts: AllowHosts;
  retry: RetryPolicy;
  timeoutMs: number;
  /** The per-webhook limits, checked. */
  limits: WebhookLimits | undefined;
  /** How replays are paced (`webhooks.replay`), checked. */
  replay: ReplayPace;
  /** The transport of `test` deliveries (loaded on first use, so undici stays out until then). */
  transport(): Promise<Transport>;
}

const systemResolve: ResolveHost = async (host) => {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(host, { all: true, verbatim: true })) as LookupAddress[];
};

export function webhookSettings(options: WebhookOptions = {}): WebhookSettings {
  const allow =
    typeof options.allowHosts === 'string' || options.allowHosts === undefined
      ? parseAllowHosts(options.allowHosts)
      : parseAllowHosts([...options.allowHosts].join(','));
  const timeoutMs = options.timeoutMs ?? 15_000;
  if (!(timeoutMs > 0)) throw new RangeError('webhooks.timeoutMs must be positive');
  const resolve = options.resolve ?? systemResolve;
  let transport: Promise<Transport> | undefined = options.transport && Promise.resolve(options.transport);
  return {
    resolve,
    allowHosts: allow,
    retry: checkRetryPolicy({ ...DEFAULT_RETRY_POLICY, ...options.retry }),
    timeoutMs,
    limits: checkWebhookLimits(options.limits),
    replay: toReplayPace(options.replay),
    transport() {
      transport ??= import('./sending/sender.js').then((sender) =>
        sender.createUndiciTransport({ resolve, allowHosts: allow }),
      );
      return transport;
    },
  };
}

/** `webhooks.replay` with its defaults; refuses values that are not whole numbers of at least 1. */
function toReplayPace(option: Partial<ReplayPace> = {}): ReplayPace {
  const pace = { ...REPLAY_DEFAULTS, ...option };
  for (const [name, value] of Object.entries(pace)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`webhooks.replay.${name} must be a whole number of at least 1, not ${value}`);
  }
  return pace;
}

/** The core option `keyring`: a keyring, its text form (`LATCHKEY_KEYRING`), or its parts. */
export type KeyringOption = Keyring | string | { current: string; keys: Record<string, string | Uint8Array> };

export function toKeyring(option: KeyringOption | undefined): Keyring | undefined {
  if (option === undefined) return undefined;
  if (typeof option === 'string') return parseKeyring(option);
  if (option.keys instanceof Map) return option as Keyring;
  return createKeyring(option as { current: string; keys: Record<string, string | Uint8Array> });
}
