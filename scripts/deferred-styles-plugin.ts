import type { Plugin } from 'vite';

/**
 * The built index.html's stylesheets load without holding up the first paint (issue 13): each
 * `<link rel="stylesheet">` gets `media="print"` (fetched at once, applied to nothing) and
 * `data-deferred`; the header drawn before the app starts has its own few rules inline, and
 * client/main.tsx applies the stylesheets and waits for them before the app draws.
 */
export function deferredStyles(): Plugin {
  return {
    name: 'soundcause-deferred-styles',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(/<link rel="stylesheet"([^>]*)>/g, '<link rel="stylesheet"$1 media="print" data-deferred>'),
    },
  };
}
