// What the app does to live under the server's Content-Security-Policy (server/http/security-headers.ts),
// which allows no inline style without the page's nonce and no eval.

declare global {
  // Read by get-nonce, through which Radix's scroll lock (react-remove-scroll) puts a nonce on the
  // <style> elements it adds; get-nonce's setNonce is not in the bundle, this global is read.
  var __webpack_nonce__: string | undefined;
  // Zod's settings, read once when zod loads.
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

/**
 * Runs before the app draws, and before zod loads: the schemas come in chunks loaded later (a
 * static import of zod from main.tsx would load it first; the browser tests would then fail on
 * the violation below).
 */
export function meetContentSecurityPolicy(): void {
  // The page's nonce, from index.html's own <style>: the browser hides it from the attribute but
  // keeps it in the `nonce` property. Styles added without it would be refused.
  globalThis.__webpack_nonce__ = document.querySelector<HTMLStyleElement>('style[nonce]')?.nonce || undefined;
  // Zod compiles its object parsers with `new Function` unless told not to; with eval refused,
  // even its probe for whether it may (caught) is reported as a violation.
  globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };
}
