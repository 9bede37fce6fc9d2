import { describeConcurrentPushes } from './concurrent-pushes.js';
import { DATABASE_URL } from './databases.js';

describeConcurrentPushes('four processes pushing to the same keys (real PostgreSQL)', () => ({
  url: DATABASE_URL,
}));
