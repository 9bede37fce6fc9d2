/**
 * The project or environment an `Acting` names, for a service of a project or an environment: the
 * path of its route names one, so its absence is a bug of the caller, not a refusal of the request.
 */
import type { Acting } from '../activity/acting.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Environment, Project } from '../model/model.js';

/** The project the caller names; a 500 when it names none. */
export function actingProject(acting: Pick<Acting, 'project'>): Project {
  if (!acting.project) throw new LatchkeyError('internal_error', 'The request names no project.');
  return acting.project;
}

/** The environment the caller names; a 500 when it names none. */
export function actingEnvironment(acting: Pick<Acting, 'environment'>): Environment {
  if (!acting.environment) throw new LatchkeyError('internal_error', 'The request names no environment.');
  return acting.environment;
}
