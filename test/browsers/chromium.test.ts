import { describeApps } from './apps';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('chromium');
describeInspect('chromium');
describeApps('chromium');
