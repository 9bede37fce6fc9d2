import { describe, expect, it } from 'vitest';
import type { Grant } from '../model/roles.js';
import { grantsWithRole } from './member-grants.js';

const web: Grant[] = [{ project: 'web', environments: ['prod'] }];
const api: Grant[] = [{ project: 'api', environments: ['*'] }];
const accept = async (asked: Grant[]) => asked;
const refuse = async (): Promise<Grant[]> => {
  throw new Error('refused');
};

describe('grantsWithRole', () => {
  it('gives an organization-wide role no grants, without checking those asked for', async () => {
    expect(await grantsWithRole('admin', web, { role: 'developer', grants: api }, refuse)).toEqual([]);
    expect(await grantsWithRole('owner', undefined, undefined, refuse)).toEqual([]);
  });

  it('takes the grants asked for once they are vetted', async () => {
    expect(await grantsWithRole('developer', web, { role: 'viewer', grants: api }, accept)).toEqual(web);
    await expect(grantsWithRole('viewer', web, undefined, refuse)).rejects.toThrow('refused');
  });

  it('keeps the grants held before when none are asked for', async () => {
    expect(await grantsWithRole('viewer', undefined, { role: 'developer', grants: api }, refuse)).toEqual(
      api,
    );
  });

  it('gives none to a member leaving an organization-wide role, or a new member, when none are asked for', async () => {
    expect(await grantsWithRole('developer', undefined, { role: 'admin', grants: api }, refuse)).toEqual([]);
    expect(await grantsWithRole('developer', undefined, undefined, refuse)).toEqual([]);
  });
});
