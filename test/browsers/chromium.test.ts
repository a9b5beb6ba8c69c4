import { describeApps } from './apps';
import { describeBackgroundSync } from './background-sync';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('chromium');
describeInspect('chromium');
describeApps('chromium');
describeBackgroundSync('chromium');
