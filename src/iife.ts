// Script-tag entry (dist/engage.iife.js): filled in by the tracker work.
export {};
