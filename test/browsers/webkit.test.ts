import { describeApps } from './apps';
import { describeBackgroundSync } from './background-sync';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('webkit');
describeInspect('webkit');
describeApps('webkit');
describeBackgroundSync('webkit');
