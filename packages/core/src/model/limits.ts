/**
 * The per-organization bounds of a core (core option `limits`): how much one tenant may create, so
 * that nothing one organization does grows what every other one shares (the store, the metrics
 * text, the delivery queue). Going over a bound is 409 `limit_exceeded`, and nothing is written.
 */
import { LatchkeyError } from '../errors/latchkey-error.js';

/** The core option `limits`. Every value is a whole number of at least 1. */
export interface LimitsOption {
  /**
   * Audit webhooks one organization may have, disabled ones included (webhooks are never deleted:
   * each keeps its attempt log and metrics; a disabled one can be changed and enabled again).
   * Default 100.
   */
  auditWebhooksPerOrganization?: number;
  /** Witnesses one organization may register for its transparency log. Default 32. */
  witnessesPerOrganization?: number;
  /** Workload identities one organization may have. Default 100. */
  workloadIdentitiesPerOrganization?: number;
  /**
   * Organizations one user may create with `POST /organizations` (where the host allows it),
   * counted over every organization that user created, whatever became of their membership.
   * Default 10.
   */
  organizationsPerUser?: number;
  /**
   * Audit webhooks of one organization that get series of their own in `core.metricsText()`,
   * the oldest first; the figures of the others are summed under `webhook="other"`. Default 20.
   */
  webhookSeriesPerOrganization?: number;
  /** Change requests one environment may have open (`open` or `approved`) at once. Default 100. */
  openChangeRequestsPerEnvironment?: number;
  /** Live portal sessions one organization may hold (ended ones are deleted as new ones are minted). Default 1,000. */
  portalSessionsPerOrganization?: number;
}

/** The bounds in force. */
export type Limits = Required<LimitsOption>;

/** The defaults of {@link LimitsOption}. */
export const LIMIT_DEFAULTS: Readonly<Limits> = {
  auditWebhooksPerOrganization: 100,
  witnessesPerOrganization: 32,
  workloadIdentitiesPerOrganization: 100,
  organizationsPerUser: 10,
  webhookSeriesPerOrganization: 20,
  openChangeRequestsPerEnvironment: 100,
  portalSessionsPerOrganization: 1_000,
};

/** The bounds of a core with this option; refuses values that are not whole numbers of at least 1. */
export function toLimits(option: LimitsOption = {}): Limits {
  const limits = { ...LIMIT_DEFAULTS };
  for (const name of Object.keys(LIMIT_DEFAULTS) as (keyof Limits)[]) {
    const value = option[name] ?? LIMIT_DEFAULTS[name];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(`limits.${name} must be a whole number of at least 1, not ${value}`);
    }
    limits[name] = value;
  }
  return limits;
}

/** The 409 of a creation past a bound; `message` names the bound and its option. */
export function limitExceeded(message: string): LatchkeyError {
  return new LatchkeyError('limit_exceeded', `${message} Nothing was created.`);
}

/**
 * A create under a per-organization bound, as its store answered: `duplicate` is 409
 * already_exists saying `taken`, `limit` is 409 limit_exceeded saying `bound`; anything else passes.
 */
export function refuseUncreated(answer: string, taken: string, bound: string): void {
  if (answer === 'duplicate') throw new LatchkeyError('already_exists', taken);
  if (answer === 'limit') throw limitExceeded(bound);
}
