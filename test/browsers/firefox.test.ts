import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('firefox');
describeInspect('firefox');
