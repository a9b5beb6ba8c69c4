import { describeApps } from './apps';
import { describeConsent } from './consent';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('webkit');
describeInspect('webkit');
describeApps('webkit');
describeConsent('webkit');
