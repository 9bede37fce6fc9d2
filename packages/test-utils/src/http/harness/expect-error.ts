import { expect } from 'vitest';
import type { TargetResponse } from './http-target.js';

/** Checks the documented error body: `{error:{code,message,status}}` with the status repeated. */
export function expectError(response: TargetResponse, status: number, code: string): Record<string, unknown> {
  expect({ status: response.status, code: errorCode(response) }).toEqual({ status, code });
  const body = response.json as { error: Record<string, unknown> };
  expect(typeof body.error.message).toBe('string');
  expect(body.error.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return body as unknown as Record<string, unknown>;
}

function errorCode(response: TargetResponse): unknown {
  const body = response.json as { error?: { code?: unknown } } | undefined;
  return body?.error?.code;
}
