// Node/edge entry for the proxy: filled in by the proxy work.
export { serve } from '../serve-node';
export type { Handler, ConnectionInfo, ServeOptions, RunningServer } from '../serve-node';
