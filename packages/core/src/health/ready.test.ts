import { describe, expect, it } from 'vitest';
import { createCore } from '../core.js';
import type { KeyringCheck } from '../keyring/check.js';
import { createMemoryStore } from '../memory/index.js';
import type { LatchkeyStore } from '../store/types.js';
import { probeResponse } from './probe.js';
import { checkReady, type ReadyDeps } from './ready.js';

const OK_KEYRING: KeyringCheck = { status: 'ok', key_ids: [], missing: [], mismatched: [] };
const never = () => new Promise<never>(() => {});

function deps(overrides: Partial<ReadyDeps> & { status?: LatchkeyStore['status'] }): ReadyDeps {
  const store = { ...createMemoryStore(), ...(overrides.status ? { status: overrides.status } : {}) };
  return {
    store,
    keyring: async () => OK_KEYRING,
    engine: () => 'off',
    now: () => performance.now(),
    ...overrides,
  };
}

describe('core.ready()', () => {
  it('is ready on the memory store, which has no schema, with no engine started', async () => {
    const report = await createCore().ready();
    expect(report).toEqual({
      status: 'ready',
      checks: {
        store: { status: 'ok', latency_ms: expect.any(Number) },
        migrations: { status: 'ok' },
        keyring: expect.objectContaining({ status: 'ok' }),
        deliveries: { status: 'ok', engine: 'off' },
      },
    });
    expect(probeResponse(report).status).toBe(200);
  });

  it('answers within the timeout when the store hangs, and fails the store, migrations and keyring', async () => {
    const began = performance.now();
    const report = await checkReady(deps({ status: never, keyring: never }), { timeoutMs: 50 });
    expect(performance.now() - began).toBeLessThan(1_000);
    expect(report).toMatchObject({
      status: 'unavailable',
      checks: {
        store: { status: 'fail', reason: 'timeout' },
        migrations: { status: 'fail' },
        keyring: { status: 'fail', message: expect.stringMatching(/did not answer/) },
      },
    });
    const answer = probeResponse(report);
    expect(answer.status).toBe(503);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('says unavailable, without the error text, when the store fails', async () => {
    const failing = () => Promise.reject(new Error('connect ECONNREFUSED db.internal:5432 password=hunter2'));
    const report = await checkReady(deps({ status: failing }));
    expect(report.checks.store).toEqual({ status: 'fail', reason: 'unavailable' });
    expect(JSON.stringify(report)).not.toMatch(/db\.internal|hunter2|ECONNREFUSED/);
  });

  it('fails when the schema is behind or ahead of the code, and says which', async () => {
    const at = (version: number) => async () => ({ migrations: { version, expected: 9 } });
    expect((await checkReady(deps({ status: at(9) }))).status).toBe('ready');
    const behind = await checkReady(deps({ status: at(8) }));
    expect(behind.checks.migrations).toMatchObject({ status: 'fail', version: 8, expected: 9 });
    expect(behind.checks.migrations.message).toMatch(/expects 9/);
    const ahead = await checkReady(deps({ status: at(10) }));
    expect(ahead.checks.migrations.message).toMatch(/newer than this code/);
  });

  it('fails when a started delivery engine has stopped on its own, not when none was started', async () => {
    expect((await checkReady(deps({ engine: () => 'running' }))).checks.deliveries).toEqual({
      status: 'ok',
      engine: 'running',
    });
    const stopped = await checkReady(deps({ engine: () => 'stopped' }));
    expect(stopped).toMatchObject({ status: 'unavailable', checks: { deliveries: { status: 'fail' } } });
  });
});

describe('probeResponse', () => {
  it('answers liveness with 200 and the report as JSON', () => {
    const answer = probeResponse(createCore().health());
    expect(answer).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });
});
