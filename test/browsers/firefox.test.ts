import { describeEngine } from './scenarios';

describeEngine('firefox');
