import { describeApps } from './apps';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('webkit');
describeInspect('webkit');
describeApps('webkit');
