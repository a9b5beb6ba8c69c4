// Node entry for the emulator: filled in by the emulator work.
export { serve } from '../serve-node';
export type { Handler, ConnectionInfo, ServeOptions, RunningServer } from '../serve-node';
