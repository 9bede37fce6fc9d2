import { describeHttpConformance, inProcessTarget } from '../src/index.js';

describeHttpConformance({ name: 'in-process core.handle', start: inProcessTarget });
