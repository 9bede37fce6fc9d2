import { describe, expect, it } from 'vitest';
import { readableEnvironments } from './readable-environments.js';

describe('readableEnvironments', () => {
  it('reads every environment for owners and admins, whatever their grants', () => {
    expect(readableEnvironments({ role: 'owner', grants: [] }, 'web')).toBeUndefined();
    expect(
      readableEnvironments({ role: 'admin', grants: [{ project: 'web', environments: ['dev'] }] }, 'web'),
    ).toBeUndefined();
  });

  it('reads every environment under a grant of *', () => {
    expect(
      readableEnvironments({ role: 'viewer', grants: [{ project: 'web', environments: ['*'] }] }, 'web'),
    ).toBeUndefined();
  });

  it('reads the environments a grant names, and none without a grant on the project', () => {
    const grants = [{ project: 'web', environments: ['prod', 'dev'] }];
    expect(readableEnvironments({ role: 'developer', grants }, 'web')).toEqual(['prod', 'dev']);
    expect(readableEnvironments({ role: 'developer', grants }, 'api')).toEqual([]);
  });
});
