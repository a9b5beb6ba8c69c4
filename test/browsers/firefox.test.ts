import { describeCounts } from './counts';
import { describeApps } from './apps';
import { describeDeviceClocks } from './device-clock';
import { describeConsent } from './consent';
import { describeBackgroundSync } from './background-sync';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('firefox');
describeInspect('firefox');
describeApps('firefox');
describeDeviceClocks('firefox');
describeConsent('firefox');
describeBackgroundSync('firefox');
describeCounts('firefox');
