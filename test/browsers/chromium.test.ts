import { describeApps } from './apps';
import { describeDeviceClocks } from './device-clock';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('chromium');
describeInspect('chromium');
describeApps('chromium');
describeDeviceClocks('chromium');
