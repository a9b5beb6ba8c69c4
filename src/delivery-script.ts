// dist/engage.delivery.js: the script tag's queue and delivery (tracker/durable.ts). engage.iife.js
// loads it from beside itself as it starts (tracker/load-durable-script.ts).
import { durable } from './tracker/durable';

((window as unknown as { Engage?: { _durable?: typeof durable } }).Engage ||= {})._durable = durable;
