import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('webkit');
describeInspect('webkit');
