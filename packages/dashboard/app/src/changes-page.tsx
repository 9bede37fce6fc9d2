/**
 * Change requests: an environment's requests, open ones first, each with its keys (the version each
 * was based on and the key's version now, a key that moved since marked before anyone presses
 * Apply), its approvals, its values on demand, and the actions the member's role and the
 * environment's approval policy allow.
 */
import { useEffect } from 'preact/hooks';
import { organizationPath } from './activity-scope.js';
import { seg } from './api.js';
import { ChangeRequestCard } from './change-request-card.js';
import { ChangeScopeForm, useChangeScope, useScopeOptions } from './change-scope.js';
import type { Environment } from './change-types.js';
import { PolicySummary } from './policy-summary.js';
import { Empty, ErrorNote, Status } from './states.js';
import type { Me } from './types.js';
import { useChangeRequests } from './use-change-requests.js';

/** The page body (below the top bar). */
export function ChangesPage({ me }: { me: Me }) {
  const [scope, setScope] = useChangeScope();
  const options = useScopeOptions(me, scope.project);
  useEffect(() => {
    document.title = 'Change requests · Latchkey';
  }, []);
  // Until one is picked, the first project the member may read and its first environment.
  const project = options.project;
  const environment = scope.environment || options.environments[0]?.slug || '';
  useEffect(() => {
    if (options.loaded && project && environment && (!scope.project || !scope.environment)) {
      setScope({ project, environment }, true);
    }
  }, [options.loaded, project, environment]);
  const env = options.environments.find((e) => e.slug === environment);
  return (
    <main>
      <h1>Change requests</h1>
      <p class="lead">
        Changes proposed for an environment under an approval policy, open ones first. Propose one with{' '}
        <code>latchkey push FILE --propose TITLE</code>.
      </p>
      <ChangeScopeForm
        scope={{ project, environment }}
        projects={options.projects}
        environments={options.environments.map((e) => e.slug)}
        onChange={(next) => setScope(next)}
      />
      {options.error && <ErrorNote error={options.error} />}
      {!options.loaded && !options.error && <Status>Loading the environments…</Status>}
      {options.loaded && !env && <Empty>There is no environment here that you may read.</Empty>}
      {env && <Requests me={me} project={project} environment={env} />}
    </main>
  );
}

/** The policy and the requests of one environment. */
function Requests({ me, project, environment }: { me: Me; project: string; environment: Environment }) {
  const path = `${organizationPath(me)}/projects/${seg(project)}/environments/${seg(environment.slug)}`;
  const requests = useChangeRequests(path);
  const policy = environment.approval_policy;
  return (
    <section aria-labelledby="requests-title">
      <h2 id="requests-title">
        {project} / {environment.slug}
      </h2>
      <PolicySummary policy={policy} />
      {requests.state.loading && <Status>Loading the change requests…</Status>}
      {requests.state.error && (
        <ErrorNote error={requests.state.error} onRetry={() => requests.state.reload()} />
      )}
      {requests.list && requests.list.length === 0 && <Empty>No change requests in this environment.</Empty>}
      {requests.list && requests.list.length > 0 && (
        <ol
          class="change-requests"
          aria-label="Change requests, open first"
          data-count={requests.list.length}
        >
          {requests.list.map((request) => (
            <li key={request.id}>
              <ChangeRequestCard
                me={me}
                path={`${path}/change-requests/${seg(request.id)}`}
                envPath={path}
                request={request}
                policy={policy}
                onChanged={() => requests.state.reload(true)}
              />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
