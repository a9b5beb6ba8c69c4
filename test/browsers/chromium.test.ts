import { describeEngine } from './scenarios';

describeEngine('chromium');
