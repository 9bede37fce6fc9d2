/**
 * Migration 3: a notification whenever deliveries are queued, so idle delivery engines in any
 * process wake within milliseconds (`LISTEN`) rather than at their next poll. Per statement, and
 * only when the statement inserted rows: an event appended where no webhook listens notifies nobody.
 */
import { deliveriesChannel } from '../schema-name.js';
import { migration } from './migration.js';

export const deliveryNotifications = migration(3, 'delivery-notifications', (t) => [
  `CREATE FUNCTION ${t.quoted}.latchkey_deliveries_queued() RETURNS trigger LANGUAGE plpgsql AS $body$
     BEGIN
       IF EXISTS (SELECT 1 FROM queued) THEN
         PERFORM pg_notify('${deliveriesChannel(t.schema)}', '');
       END IF;
       RETURN NULL;
     END
     $body$`,
  `CREATE TRIGGER deliveries_queued AFTER INSERT ON ${t.deliveries}
     REFERENCING NEW TABLE AS queued
     FOR EACH STATEMENT EXECUTE FUNCTION ${t.quoted}.latchkey_deliveries_queued()`,
]);
