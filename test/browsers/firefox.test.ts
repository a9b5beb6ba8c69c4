import { describeApps } from './apps';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('firefox');
describeInspect('firefox');
describeApps('firefox');
