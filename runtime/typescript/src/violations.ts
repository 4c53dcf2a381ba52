/**
 * What a check keyword's check returns (`Violation`), the type of a compiled check (`Check`),
 * and the words its messages share. The TypeScript twin of _runtime/violations.py; checks.ts,
 * relations.ts and connected.ts build on it.
 */

import type { Segment } from "./pointers.js";

/** `path`: where in the node's document; `at`: which entry of the keyword's value (a list
 * index or an object key), for the schema path; null when the value itself is malformed. */
export interface Violation {
  readonly path: readonly Segment[];
  readonly message: string;
  readonly at: string | number | null;
}

export type Check = (instance: unknown) => Violation[];

export function malformed(keyword: string, why: string): Violation {
  return { path: [], message: `the schema's ${keyword} is malformed: ${why}`, at: null };
}

/** `n item(s)`, for messages. */
export function nItems(n: number): string {
  return n === 1 ? `${n} item` : `${n} items`;
}

/** `n dimension(s)`, for messages. */
export function nDims(n: number): string {
  return n === 1 ? `${n} dimension` : `${n} dimensions`;
}
