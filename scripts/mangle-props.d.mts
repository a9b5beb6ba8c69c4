// Types of mangle-props.mjs for the tests that check mangle.json (test/package/mangle.test.ts).
import type { Program } from 'estree';
import type { Plugin } from 'rollup';

export const MANGLE_FILE: URL;
export const INTERNAL: RegExp;
export interface MangleFile {
  help?: string[];
  reserved: string[];
  props: Record<string, string>;
}
export function readMangleFile(): MangleFile;
export function propertyNames(ast: Program): { internal: Array<{ name: string; start: number; end: number; shorthand: boolean }>; plain: Set<string> };
export default function mangleProps(options?: { update?: boolean }): Plugin;
