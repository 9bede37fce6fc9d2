/** Public views of stored records: what list and read responses show (never token hashes). */
import type { ApiToken, Device, Environment, Member, Organization, Project } from '../model.js';

export const toOrganizationView = (o: Organization) => ({
  id: o.id,
  slug: o.slug,
  name: o.name,
  created_at: o.created_at,
});

export const toProjectView = (p: Project) => ({
  id: p.id,
  slug: p.slug,
  name: p.name,
  created_at: p.created_at,
});

export const toEnvironmentView = (e: Environment, project: string) => ({
  id: e.id,
  project,
  slug: e.slug,
  require_strict_conflict_mode: e.require_strict_conflict_mode,
  created_at: e.created_at,
});

export const toMemberView = (m: Member) => ({
  user: m.user,
  role: m.role,
  grants: m.grants,
  created_at: m.created_at,
});

export const toTokenView = (t: ApiToken) => ({
  id: t.id,
  user: t.user,
  name: t.name,
  created_at: t.created_at,
  revoked_at: t.revoked_at,
});

export const toDeviceView = (d: Device) => ({
  id: d.id,
  user: d.user,
  name: d.name,
  public_key: d.public_key,
  status: d.status,
  created_at: d.created_at,
  revoked_at: d.revoked_at,
});
