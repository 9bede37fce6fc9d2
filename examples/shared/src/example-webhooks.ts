/**
 * Audit webhook settings from the environment, shared by the example servers and the delivery
 * worker: `LATCHKEY_WEBHOOK_ALLOW_HOSTS` (hosts deliveries may reach at private addresses,
 * comma-separated), `LATCHKEY_RETRY_SCHEDULE` (retry delays in seconds, comma-separated) and
 * `LATCHKEY_WEBHOOK_TIMEOUT_SECONDS` (per-attempt timeout, default 15). Extra CAs for receivers come
 * through Node's `NODE_EXTRA_CA_CERTS`.
 */
import { parseRetrySchedule, type WebhookOptions } from '@latchkey/core';

/** The settings, or throws an Error naming the variable that is wrong and why. */
export function readWebhookEnvironment(env: NodeJS.ProcessEnv = process.env): WebhookOptions {
  const options: WebhookOptions = { allowHosts: env['LATCHKEY_WEBHOOK_ALLOW_HOSTS'] ?? '' };
  const schedule = env['LATCHKEY_RETRY_SCHEDULE'];
  if (schedule) {
    try {
      options.retry = { schedule: parseRetrySchedule(schedule) };
    } catch (error) {
      throw new Error(`LATCHKEY_RETRY_SCHEDULE: ${(error as Error).message}`);
    }
  }
  const timeout = env['LATCHKEY_WEBHOOK_TIMEOUT_SECONDS'];
  if (timeout) {
    const seconds = Number(timeout);
    if (!(seconds > 0 && seconds <= 300)) {
      throw new Error(
        `LATCHKEY_WEBHOOK_TIMEOUT_SECONDS must be a number of seconds from 0 to 300, got "${timeout}".`,
      );
    }
    options.timeoutMs = Math.round(seconds * 1000);
  }
  return options;
}
