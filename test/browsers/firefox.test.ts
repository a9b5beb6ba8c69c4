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

prefixConsole('firefox');

describeEngine('firefox');
describeInspect('firefox');
describeApps('firefox');
describeDeviceClocks('firefox');
describeConsent('firefox');
describeBackgroundSync('firefox');
describeDropReport('firefox');
describeSignOut('firefox');
describeOldQueue('firefox');
describeCounts('firefox');
describeSeen('firefox');
describeStartup('firefox');
