import { describeApps } from './apps';
import { describeDeviceClocks } from './device-clock';
import { describeInspect } from './inspect';
import { describeEngine } from './scenarios';

describeEngine('webkit');
describeInspect('webkit');
describeApps('webkit');
describeDeviceClocks('webkit');
