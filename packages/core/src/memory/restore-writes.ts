/**
 * The writes that apply a restore in memory: clearing the organization, checking which of the
 * backup's ids are taken, and inserting its secrets and events, each undone with the transaction.
 */

import type { ActivityEvent } from '../model/model.js';
import type { StoredSecretVersion } from '../model/secret-version.js';
import type { RestoreRepository } from '../store/ports/restores.js';
import { growMemoryTree } from './activity-tree.js';
import { journaledDeleteWhere, journaledEnsure, journaledSet } from './journaled.js';
import { clone, type Journal, type MemoryState, type StoredSecret } from './state.js';
import { clearWorkloads, workloadIdentitiesOf } from './workloads.js';

/** A restore's clearing, checks and bulk inserts in memory. */
export function memoryRestoreWrites(
  state: MemoryState,
  journal: Journal,
): Pick<
  RestoreRepository,
  'clearOrganization' | 'takenIds' | 'insertSecrets' | 'insertSecretVersions' | 'insertEvents'
> {
  return {
    async clearOrganization(organizationId) {
      clearOrganization(state, journal, organizationId);
    },
    async takenIds(kind, ids) {
      const map = {
        project: state.projects,
        environment: state.environments,
        device: state.devices,
        audit_webhook: state.webhooks,
        workload_identity: workloadIdentitiesOf(state),
        change_request: state.changeRequests,
      }[kind] as ReadonlyMap<string, { id: string }>;
      const used = new Set<string>();
      for (const record of map.values()) used.add(record.id);
      return new Set(ids.filter((id) => used.has(id)));
    },
    async insertSecrets(secrets) {
      for (const secret of secrets) {
        const keys = journaledEnsure(
          state.secrets,
          secret.environment_id,
          () => new Map<string, StoredSecret>(),
          journal,
        );
        const head = { version: secret.version, deleted: secret.value === null };
        journaledSet(keys, secret.key, { head, value: secret.value, updated_at: secret.updated_at }, journal);
      }
    },
    async insertSecretVersions(versions) {
      for (const { environment_id, ...version } of versions) {
        const keys = journaledEnsure(state.secretVersions, environment_id, () => new Map(), journal);
        const list = journaledEnsure(keys, version.key, (): StoredSecretVersion[] => [], journal);
        list.push({ ...version, actor: version.actor && { ...version.actor } });
        journal?.push(() => list.pop());
      }
    },
    async insertEvents(organizationId, events) {
      const chain = journaledEnsure(state.events, organizationId, (): ActivityEvent[] => [], journal);
      const length = chain.length;
      for (const event of events) chain.push(clone(event));
      journal?.push(() => {
        chain.length = length;
      });
      growMemoryTree(state.trees, journal, organizationId, events);
    },
  };
}

/** Deletes everything the organization holds but its own record, its chain included. */
function clearOrganization(state: MemoryState, journal: Journal, organizationId: string): void {
  const ofOrganization = (record: { organization_id: string }) => record.organization_id === organizationId;
  const environmentIds = new Set<string>();
  for (const environment of state.environments.values())
    if (ofOrganization(environment)) environmentIds.add(environment.id);
  const webhookIds = new Set(state.webhooksByOrg.get(organizationId) ?? []);
  journaledDeleteWhere(state.secrets, (_, environmentId) => environmentIds.has(environmentId), journal);
  journaledDeleteWhere(
    state.secretVersions,
    (_, environmentId) => environmentIds.has(environmentId),
    journal,
  );
  journaledDeleteWhere(state.changeRequests, ofOrganization, journal);
  for (const map of [state.environments, state.projects, state.members, state.devices, state.webhooks]) {
    journaledDeleteWhere<string, { organization_id: string }>(map, ofOrganization, journal);
  }
  journaledDeleteWhere(state.webhooksByOrg, (_, id) => id === organizationId, journal);
  journaledDeleteWhere(state.deliveries, ofOrganization, journal);
  journaledDeleteWhere(state.attempts, (_, webhookId) => webhookIds.has(webhookId), journal);
  journaledDeleteWhere(state.replays, (_, webhookId) => webhookIds.has(webhookId), journal);
  journaledDeleteWhere(state.rollups, ofOrganization, journal);
  journaledDeleteWhere(state.totals, ofOrganization, journal);
  journaledDeleteWhere(state.events, (_, id) => id === organizationId, journal);
  journaledDeleteWhere(state.trees, (_, id) => id === organizationId, journal);
  clearWorkloads(state, journal, organizationId);
}
