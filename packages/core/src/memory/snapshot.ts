/**
 * A backup's snapshot in memory: one organization's records copied, in one step, into a state of
 * their own, which the backup then reads at its pace while the store goes on. The copy takes time
 * linear in the organization's size and holds the store as any transaction does (it runs as one);
 * records are copied, never shared, since the store changes some in place. The history is shared
 * up to its length: events are never changed once sealed.
 */
import type { StoredSecretVersion } from '../model/secret-version.js';
import { clone, createState, type MemoryState, type StoredSecret } from './state.js';
import { copyWorkloads } from './workloads.js';

/** A state holding only what `organizationId` holds now (what a backup reads of it). */
export function organizationCopy(state: MemoryState, organizationId: string): MemoryState {
  const out = createState(state.maxNonces);
  const mine = (record: { organization_id: string }) => record.organization_id === organizationId;
  const organization = state.orgs.get(organizationId);
  if (organization) {
    out.orgs.set(organizationId, clone(organization));
    out.orgBySlug.set(organization.slug, out.orgs.get(organizationId)!);
  }
  const copyOwn = <T extends { organization_id: string }>(from: Map<string, T>, to: Map<string, T>) => {
    for (const [key, record] of from) if (mine(record)) to.set(key, clone(record));
  };
  copyOwn(state.projects, out.projects);
  copyOwn(state.environments, out.environments);
  copyOwn(state.members, out.members);
  copyOwn(state.devices, out.devices);
  copyOwn(state.webhooks, out.webhooks);
  copyOwn(state.signingKeys, out.signingKeys);
  copyOwn(state.changeRequests, out.changeRequests);
  out.webhooksByOrg.set(organizationId, [...(state.webhooksByOrg.get(organizationId) ?? [])]);
  for (const { id } of out.environments.values()) {
    const keys = state.secrets.get(id);
    if (keys) {
      const copied = new Map<string, StoredSecret>();
      for (const [key, s] of keys) copied.set(key, { ...s, head: { ...s.head } });
      out.secrets.set(id, copied);
    }
    const versions = state.secretVersions.get(id);
    if (versions) {
      const copied = new Map<string, StoredSecretVersion[]>();
      for (const [key, list] of versions)
        copied.set(
          key,
          list.map((v) => ({ ...v, actor: v.actor && { ...v.actor } })),
        );
      out.secretVersions.set(id, copied);
    }
  }
  const chain = state.events.get(organizationId);
  if (chain) out.events.set(organizationId, chain.slice());
  const tree = state.trees.get(organizationId);
  if (tree) out.trees.set(organizationId, { state: tree.state, levels: tree.levels.map((l) => l.slice()) });
  copyWorkloads(state, out, organizationId);
  return out;
}
