import { describeApps } from './apps';
import { describeEngine } from './scenarios';

describeEngine('chromium');
describeApps('chromium');
