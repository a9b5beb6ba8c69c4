import { describeApps } from './apps';
import { describeConsent } from './consent';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('chromium');
describeInspect('chromium');
describeApps('chromium');
describeConsent('chromium');
