import { describeCounts } from './counts';
import { describeApps } from './apps';
import { describeDeviceClocks } from './device-clock';
import { describeConsent } from './consent';
import { describeBackgroundSync } from './background-sync';
import { describeInspect } from './inspect';
import { describeDropReport } from './drop-report';
import { describeSignOut } from './sign-out';
import { describeOldQueue } from './old-queue';
import { describeEngine } from './scenarios';
import { describeSeen } from './seen';
import { describeStartup } from './startup';
import { prefixConsole } from './engine';

prefixConsole('webkit');

describeEngine('webkit');
describeInspect('webkit');
describeApps('webkit');
describeDeviceClocks('webkit');
describeConsent('webkit');
describeBackgroundSync('webkit');
describeDropReport('webkit');
describeSignOut('webkit');
describeOldQueue('webkit');
describeCounts('webkit');
describeSeen('webkit');
describeStartup('webkit');
