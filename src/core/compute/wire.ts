// Wire shapes every area shares (docs/platform.md). An area's own payload shapes sit beside its
// operations (src/core/<area>/operations.ts); the client interface is in api.ts.

/** A paged list: `count` of everything that matches, `results` of this page. */
export interface Paged<T> {
  count: number;
  results: T[];
}
