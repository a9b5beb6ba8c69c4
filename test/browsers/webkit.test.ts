import { describeApps } from './apps';
import { describeEngine } from './scenarios';

describeEngine('webkit');
describeApps('webkit');
