import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createCore } from '../core.js';

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = createCore().openapi();
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route, its permission, every path parameter and every query parameter', () => {
    const core = createCore();
    const doc = core.openapi() as {
      paths: Record<string, Record<string, { parameters: { name: string; in: string }[] }>>;
    };
    for (const route of core.routes) {
      const operation = doc.paths[`/api/v2${route.path}`]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(operation!.parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(params);
      const query = route.query ? Object.keys((route.query as unknown as { shape: object }).shape) : [];
      expect(operation!.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(query);
    }
  });

  it('lists on every operation the statuses the core answers before its handler runs', () => {
    const core = createCore();
    const doc = core.openapi() as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
    };
    for (const route of core.routes) {
      const operation = doc.paths[`/api/v2${route.path}`]![route.method.toLowerCase()]!;
      const statuses = Object.keys(operation.responses);
      const always = ['405', '413', '500'];
      const authenticated = ['400', '401', '403', '404', '415'];
      expect(statuses, route.operationId).toEqual(
        expect.arrayContaining(route.auth === false ? always : [...always, ...authenticated]),
      );
      expect(operation.responses['405']!.headers, route.operationId).toHaveProperty('Allow');
    }
  });
});
