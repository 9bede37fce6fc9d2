import { describe, expect, it } from 'vitest';
import type { Acting } from '../activity/acting.js';
import type { CoreDeps } from '../http/core-deps.js';
import type { RouteContext, RouteResult } from '../http/router.js';
import { pathParam, serviceCall, theBody } from './service-call.js';

/** A route context with just what a service call reads. */
const context = <Body>(body: Body, params: Record<string, string> = {}) =>
  ({ deps: { marker: 'deps' }, body, params }) as unknown as RouteContext<Body>;

describe('serviceCall', () => {
  it('calls the service with the core’s dependencies, the request as the caller and its input', async () => {
    const calls: unknown[][] = [];
    const service = async (deps: CoreDeps, acting: Acting, input: { name: string }) => {
      calls.push([deps, acting, input]);
      return { id: 'x_1', ...input };
    };
    const ctx = context({ name: 'ci' });
    // As in a route, the handler's place gives the body's type.
    const handler: (ctx: RouteContext<{ name: string }>) => Promise<RouteResult> = serviceCall(
      service,
      theBody,
      (made) => ({ made: made.id }),
      201,
    );
    const answer = await handler(ctx);
    expect(answer).toEqual({ status: 201, body: { made: 'x_1' } });
    expect(calls).toEqual([[ctx.deps, ctx, { name: 'ci' }]]);
  });

  it('answers 200 by default, with the view awaited, and reads the id the path names', async () => {
    const service = async (_deps: CoreDeps, _acting: Acting, id: string) => ({ id });
    const handler = serviceCall(service, pathParam('device'), async (found, ctx) => ({
      ...found,
      seen: ctx.params['device'],
    }));
    expect(await handler(context(undefined, { device: 'dev_7' }))).toEqual({
      status: 200,
      body: { id: 'dev_7', seen: 'dev_7' },
    });
  });

  it('lets a refusal of the service through, answering nothing', async () => {
    const refused = new Error('refused');
    const service = async () => {
      throw refused;
    };
    await expect(serviceCall(service, theBody, () => 'never')(context({}))).rejects.toBe(refused);
  });
});
