/**
 * What the signed-in page may offer beyond what the member's role allows. The dashboard itself
 * offers everything the role does; an embedded portal session narrows it to its capabilities
 * (and a read-only session to no write at all), so its page shows no control the API would refuse.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** The actions a screen may offer, each on top of the member's role. */
export interface Rights {
  /** Edit a webhook's events, send a test event, disable and enable it. */
  manageWebhooks: boolean;
  /** Create a webhook or rotate its secret: both answer a signing secret, shown once. */
  webhookSecrets: boolean;
  /** Export the activity (and so verify the whole chain from its export). */
  exportActivity: boolean;
  /** List the registered witnesses (owners). */
  listWitnesses: boolean;
  /** Approve or reject a change request. */
  reviewChanges: boolean;
  /** Apply a change request, or cancel one's own: beyond a review. */
  applyChanges: boolean;
  /** Be shown secret values (a change request's proposed ones). */
  secretValues: boolean;
}

/** The dashboard's own: whatever the role allows. */
const ROLE_RIGHTS: Rights = {
  manageWebhooks: true,
  webhookSecrets: true,
  exportActivity: true,
  listWitnesses: true,
  reviewChanges: true,
  applyChanges: true,
  secretValues: true,
};

/** The rights of the screens below it. */
export const RightsContext = createContext<Rights>(ROLE_RIGHTS);

/** The rights of the screen being drawn. */
export const useRights = (): Rights => useContext(RightsContext);
