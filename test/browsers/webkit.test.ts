import { describeCounts } from './counts';
import { describeApps } from './apps';
import { describeDeviceClocks } from './device-clock';
import { describeConsent } from './consent';
import { describeBackgroundSync } from './background-sync';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('webkit');
describeInspect('webkit');
describeApps('webkit');
describeDeviceClocks('webkit');
describeConsent('webkit');
describeBackgroundSync('webkit');
describeCounts('webkit');
