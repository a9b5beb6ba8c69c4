import { describeEngine } from './scenarios';

describeEngine('webkit');
