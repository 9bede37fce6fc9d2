import { describeHttpConformance } from './http-conformance.js';
import { inProcessTarget } from './http-target.js';

describeHttpConformance('in-process core.handle', inProcessTarget);
