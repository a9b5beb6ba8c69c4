import { describeApps } from './apps';
import { describeDeviceClocks } from './device-clock';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('firefox');
describeInspect('firefox');
describeApps('firefox');
describeDeviceClocks('firefox');
