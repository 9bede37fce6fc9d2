import type { RequestRepository } from '../store/ports/requests.js';
import type { StoreTransaction } from '../store/ports/store.js';

/** The records of a request, from the other repositories (in memory each lookup is a map read). */
export function composedRequests(repositories: Omit<StoreTransaction, 'requests'>): RequestRepository {
  return {
    async resolve(keys) {
      const token =
        keys.tokenHash === undefined ? null : await repositories.tokens.findByHash(keys.tokenHash);
      const member = token && (await repositories.members.get(token.organization_id, token.user));
      const organization =
        keys.organization === undefined
          ? null
          : await repositories.organizations.getBySlug(keys.organization);
      const project =
        organization && keys.project !== undefined
          ? await repositories.projects.get(organization.id, keys.project)
          : null;
      const environment =
        project && keys.environment !== undefined
          ? await repositories.environments.get(project.id, keys.environment)
          : null;
      const records = { token, member: member ?? null, organization, project, environment };
      if (keys.device === undefined) return records;
      const device = organization && (await repositories.devices.get(organization.id, keys.device));
      return { ...records, device: device ?? null };
    },
  };
}
