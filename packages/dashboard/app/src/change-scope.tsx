/**
 * The environment whose change requests are shown, kept in the URL
 * (`/dashboard/changes?project=web&environment=prod`, or the embedded page's, beside its own query),
 * picked from the projects and environments the member may read; the first of them until one is
 * picked.
 */
import { useEffect, useState } from 'preact/hooks';
import { useEnvironmentList } from './activity-filter-options.js';
import { grantedEnvironments, organizationPath } from './activity-scope.js';
import { api } from './api.js';
import { currentRoute, navigate } from './router.js';
import type { Me, ProjectList } from './types.js';
import { useRequest } from './use-request.js';

/** A project and one of its environments; empty strings before one is known. */
export interface ChangeScope {
  project: string;
  environment: string;
}

const read = (): ChangeScope => {
  const params = new URLSearchParams(location.search);
  return { project: params.get('project') ?? '', environment: params.get('environment') ?? '' };
};

/** The scope in the URL, kept in step with navigation, and a way to change it. */
export function useChangeScope(): [ChangeScope, (next: ChangeScope, replace?: boolean) => void] {
  const [scope, setScope] = useState(read);
  useEffect(() => {
    const update = () => setScope(read());
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  // The page's own route and the rest of its query: Change requests, or the embedded page.
  const go = (next: ChangeScope, replace = false) => {
    const query = new URLSearchParams(location.search);
    query.set('project', next.project);
    query.set('environment', next.environment);
    navigate(`${currentRoute()}?${query.toString()}`, replace);
  };
  return [scope, go];
}

/**
 * The projects `me` may read, the project shown (the one picked, else the first of them) and its
 * environments that `me` may read.
 */
export function useScopeOptions(me: Me, picked: string) {
  const org = organizationPath(me);
  const projects = useRequest(() => api<ProjectList>('GET', `${org}/projects`), `${org} projects`);
  const readable = me.role === 'owner' || me.role === 'admin';
  const names = (projects.data?.projects.map((p) => p.slug) ?? []).filter(
    (p) => readable || me.grants.some((g) => g.project === p),
  );
  const project = picked || names[0] || '';
  const environments = useEnvironmentList(org, project);
  const granted = grantedEnvironments(me, project);
  return {
    projects: names,
    project,
    environments: (environments.data?.environments ?? []).filter(
      (e) => granted === null || granted.includes(e.slug),
    ),
    error: projects.error ?? environments.error,
    loaded: projects.data !== undefined && (!project || environments.data !== undefined),
  };
}

/** The two selects; a change of either shows that environment's requests. */
export function ChangeScopeForm(props: {
  scope: ChangeScope;
  projects: string[];
  environments: string[];
  onChange(next: ChangeScope): void;
}) {
  const { scope, onChange } = props;
  return (
    <form class="filters card" aria-label="Environment" onSubmit={(e) => e.preventDefault()}>
      <ScopeSelect
        id="changes-project"
        label="Project"
        value={scope.project}
        options={props.projects}
        onPick={(project) => onChange({ project, environment: '' })}
      />
      <ScopeSelect
        id="changes-environment"
        label="Environment"
        value={scope.environment}
        options={props.environments}
        onPick={(environment) => onChange({ ...scope, environment })}
      />
    </form>
  );
}

/** One labelled select of the scope form. */
function ScopeSelect(props: {
  id: string;
  label: string;
  value: string;
  options: string[];
  onPick(value: string): void;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onPick(e.currentTarget.value)}>
        {props.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}
