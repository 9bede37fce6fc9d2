/**
 * Migration 11: each delivery keeps the W3C `traceparent` of the request whose event it delivers
 * (null when that request was not traced, and for every delivery queued before), so an attempt's
 * span links to it and the receiver gets it as a header.
 */
import { migration } from './migration.js';

export const deliveryTraceparent = migration(11, 'delivery-traceparent', (t) => [
  `ALTER TABLE ${t.deliveries} ADD COLUMN traceparent text`,
]);
