// The WebExtensions namespace: `browser` where it exists (Firefox), else
// Chrome's `chrome`, whose MV3 methods return promises the same way.

/** @type {typeof chrome} */
export const ext = /** @type {any} */ (globalThis).browser ?? globalThis.chrome;
