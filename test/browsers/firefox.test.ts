import { describeApps } from './apps';
import { describeConsent } from './consent';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('firefox');
describeInspect('firefox');
describeApps('firefox');
describeConsent('firefox');
