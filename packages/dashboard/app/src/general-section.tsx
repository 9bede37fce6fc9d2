/** Settings > General: the organization and who is signed in. */
import { organizationName } from './organization-name.js';
import type { Me } from './types.js';

/** The facts of the signed-in organization and user. */
export function GeneralSection({ me }: { me: Me }) {
  return (
    <section aria-labelledby="general-heading">
      <h2 id="general-heading">General</h2>
      <dl class="facts">
        <dt>Organization</dt>
        <dd>{organizationName(me)}</dd>
        {me.organization.slug && (
          <>
            <dt>Slug</dt>
            <dd>
              <code>{me.organization.slug}</code>
            </dd>
          </>
        )}
        <dt>Signed in as</dt>
        <dd>{me.user}</dd>
        <dt>Role</dt>
        <dd>{me.role}</dd>
      </dl>
    </section>
  );
}
