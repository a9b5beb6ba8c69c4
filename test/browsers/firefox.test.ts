import { describeApps } from './apps';
import { describeBackgroundSync } from './background-sync';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('firefox');
describeInspect('firefox');
describeApps('firefox');
describeBackgroundSync('firefox');
