import { describe, expect, it } from 'vitest';
import { routeGroup } from './route-group.js';

describe('routeGroup', () => {
  it('gives every route of the group the shared tag and permission', () => {
    const tokenRoute = routeGroup({ tag: 'Tokens', permission: 'tokens:manage' });
    const route = tokenRoute('GET', '/tokens', {
      operationId: 'listTokens',
      summary: 'List tokens.',
      responses: {},
      handler: async () => ({ status: 200, body: {} }),
    });
    expect(route).toMatchObject({
      method: 'GET',
      path: '/tokens',
      tag: 'Tokens',
      permission: 'tokens:manage',
      operationId: 'listTokens',
    });
  });
});
