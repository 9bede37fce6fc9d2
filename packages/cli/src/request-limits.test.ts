import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from './exit-codes.js';
import { DEFAULT_LIMITS, requestLimits } from './request-limits.js';

describe('requestLimits', () => {
  it('defaults to 60 s and 64 MiB, as the README says', () => {
    expect(DEFAULT_LIMITS).toEqual({ timeoutMs: 60_000, maxResponseBytes: 64 * 1_048_576 });
  });

  it('takes the flags over the environment, and an empty variable as unset', () => {
    const env = { LATCHKEY_TIMEOUT: '5', LATCHKEY_MAX_RESPONSE_MB: '' };
    expect(requestLimits({}, env)).toEqual({ timeoutMs: 5_000, maxResponseBytes: 64 * 1_048_576 });
    expect(requestLimits({ timeout: '0.5', maxResponseMb: '512' }, env)).toEqual({
      timeoutMs: 500,
      maxResponseBytes: 512 * 1_048_576,
    });
  });

  it('refuses what is not a positive number as a usage error naming where it came from', () => {
    for (const [options, env, source] of [
      [{ timeout: '0' }, {}, '--timeout'],
      [{ timeout: '-1' }, {}, '--timeout'],
      [{}, { LATCHKEY_TIMEOUT: 'Infinity' }, 'LATCHKEY_TIMEOUT'],
      [{ maxResponseMb: '1e3' }, {}, '--max-response-mb'],
      [{}, { LATCHKEY_MAX_RESPONSE_MB: 'lots' }, 'LATCHKEY_MAX_RESPONSE_MB'],
    ] as const) {
      let refused: unknown;
      try {
        requestLimits(options, env);
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(CliError);
      expect((refused as CliError).exitCode).toBe(EXIT.usage);
      expect((refused as CliError).message.startsWith(`${source} must be a positive number`)).toBe(true);
    }
  });
});
