import { describeApps } from './apps';
import { describeEngine } from './scenarios';

describeEngine('firefox');
describeApps('firefox');
