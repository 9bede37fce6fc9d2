import { describeExample } from '@latchkey/test-utils';

describeExample('express');
