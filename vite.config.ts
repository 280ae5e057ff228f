import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type LogLevel, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { deferredStyles } from './scripts/deferred-styles-plugin.ts';
import { landingChunk } from './scripts/landing-chunk.ts';
import { pageChunks } from './scripts/page-chunks-plugin.ts';

const THEME_COLOR = '#4c2a85';
// Build-time default; the server answers /manifest.webmanifest with SITE_NAME when it differs.
const SITE_NAME = 'Soundcause';

// The pages people arrive on from elsewhere (shared/routes.ts names): the server preloads their
// chunks with the page, and the bundle budget weighs them (issue 13).
const LANDING_PAGES = {
  home: 'features/home/home-page.tsx',
  browse: 'features/browse/browse-page.tsx',
  fundraiser: 'features/fundraisers/fundraiser-page.tsx',
  artist: 'features/artists/artist-page.tsx',
  donate: 'features/donations/donate-page.tsx',
  ledger: 'features/ledger/ledger-page.tsx',
  login: 'features/accounts/login-page.tsx',
  signup: 'features/accounts/signup-page.tsx',
  // An album in Your music: where a donor's receipt and every "Listen" link lead.
  album: 'features/music/album-page.tsx',
  // The artist landing page, at both of its addresses: shared with artists as a link.
  forArtists: 'features/pages/for-artists-page.tsx',
  artistsJoin: 'features/pages/for-artists-page.tsx',
};
const CLIENT_ROOT = path.resolve(import.meta.dirname, 'client');

/**
 * vite-plugin-pwa builds the service worker in a Vite build of its own that is not told the log
 * level asked for (`npm start` asks for warnings only): the main build hands its level on.
 */
let logLevel: LogLevel | undefined;
const readLogLevel: Plugin = {
  name: 'soundcause:log-level',
  configResolved: (config) => void (logLevel = config.logLevel),
};
const passLogLevel: Plugin = { name: 'soundcause:sw-log-level', config: () => (logLevel ? { logLevel } : {}) };

/**
 * react-router 7's package points every import at its development build, whatever the build
 * (remix-run/react-router#12532, #14102): its warnings and checks would run on every visitor's
 * phone, in the landing pages' first render. A build takes the production files it ships beside.
 */
const reactRouterDir = path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production');
const reactRouterProduction: Plugin = {
  name: 'soundcause:react-router-production',
  config: (_config, { command }) =>
    command === 'build'
      ? {
          resolve: {
            alias: [
              { find: /^react-router$/, replacement: path.join(reactRouterDir, 'index.mjs') },
              { find: /^react-router\/dom$/, replacement: path.join(reactRouterDir, 'dom-export.mjs') },
            ],
          },
        }
      : {},
};

export default defineConfig({
  root: CLIENT_ROOT,
  publicDir: '../public',
  envDir: '..',
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      // The app, and the embedded player's page (issue 28): a script of its own, with nothing of
      // the app's, served inside the server-drawn page (server/features/sharing/embed-page.ts).
      input: { index: path.join(CLIENT_ROOT, 'index.html'), embed: path.join(CLIENT_ROOT, 'embed/main.ts') },
      output: {
        // What the three pages of the budget all need travels in one request (scripts/landing-chunk.ts).
        codeSplitting: {
          groups: [landingChunk(CLIENT_ROOT, [LANDING_PAGES.home, LANDING_PAGES.browse, LANDING_PAGES.fundraiser])],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: `http://localhost:${process.env.PORT ?? 3000}`, changeOrigin: false },
      '/media': { target: `http://localhost:${process.env.PORT ?? 3000}`, changeOrigin: false },
    },
  },
  plugins: [
    readLogLevel,
    reactRouterProduction,
    react(),
    deferredStyles(),
    pageChunks(LANDING_PAGES),
    VitePWA({
      // The page registers the worker itself with workbox-window to show its own update prompt.
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: SITE_NAME,
        short_name: SITE_NAME,
        description: 'Music for a cause: donate to charity, get the album.',
        theme_color: THEME_COLOR,
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      // Our own worker (client/sw.ts): the precached shell plus the music saved on this device.
      strategies: 'injectManifest',
      srcDir: '.',
      filename: 'sw.ts',
      injectManifest: {
        // A classic script, as client/app/update-prompt.tsx registers it (no `type: 'module'`, which
        // older Safari and Firefox lack). The 'es' format builds with Rolldown's deprecated
        // inlineDynamicImports, which Vite warns about on every build.
        rollupFormat: 'iife',
        buildPlugins: { vite: [passLogLevel] },
        // The app shell only (STYLE.md, excalidraw): scripts, styles, fonts, icons and index.html.
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        // The embedded player's files are for other sites' frames, never part of the app offline.
        globIgnores: ['**/embed-*.{js,css}', '**/embed-*.{js,css}.map'],
        maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
      },
    }),
  ],
});
