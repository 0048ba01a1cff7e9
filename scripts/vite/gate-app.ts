import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { localeSlice } from './login-locales.js';

/** The gate app's page, beside the console's, under /garita/. */
const PAGE = 'garita/index.html';
const SCOPE = '/garita/';

/** The web manifest: what the installed app is called, opens and looks like. */
const WEB_MANIFEST = {
  name: 'Garita — Acreditación',
  short_name: 'Garita',
  description: 'Control de acceso en garita, con o sin red',
  lang: 'es',
  start_url: SCOPE,
  scope: SCOPE,
  display: 'standalone',
  orientation: 'portrait',
  background_color: '#f3f5f8',
  theme_color: '#0d3b66',
  // The SVG, and the same drawing as PNG at the two sizes every installer takes.
  icons: [
    { src: `${SCOPE}icon.svg`, sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    { src: `${SCOPE}icon-192.png`, sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: `${SCOPE}icon-512.png`, sizes: '512x512', type: 'image/png', purpose: 'any' },
  ],
};

/** The icon files, in src/client/garita/ and under /garita/ once built. */
const ICONS = ['icon.svg', 'icon-192.png', 'icon-512.png'];

/** Every file the gate app's page loads, read from Vite's build manifest (its entry, chunks and styles). */
function pageFiles(outDir: string): Set<string> {
  const manifestPath = join(outDir, '.vite', 'manifest.json');
  const files = new Set([PAGE, ...ICONS.map((icon) => `garita/${icon}`), 'garita/manifest.webmanifest']);
  if (!existsSync(manifestPath)) return files;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<
    string,
    { file: string; imports?: string[]; css?: string[]; assets?: string[] }
  >;
  const visit = (key: string, seen = new Set<string>()) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    files.add(chunk.file);
    for (const file of [...(chunk.css ?? []), ...(chunk.assets ?? [])]) files.add(file);
    for (const imported of chunk.imports ?? []) visit(imported, seen);
  };
  visit(PAGE);
  return files;
}

/**
 * The gate app as an installable PWA (vite-plugin-pwa): its web manifest and a service worker at
 * /garita/sw.js, scoped to /garita/, that keeps the app's own files (not the console's) for offline
 * use. The manifest is the gate page's own (its link is in garita/index.html): only the gate app installs.
 */
export function gateApp(root: string, outDir: string): Plugin[] {
  return [
    // `import { es, en } from 'virtual:gate-locales'`: the gate's texts only (the decision's reasons
    // and the app's own), so the app does not carry the console's.
    localeSlice(
      root,
      'virtual:gate-locales',
      (m) => {
        const gate = m.gate as { reasons: unknown; unavailable: unknown };
        return {
          gate: { reasons: gate.reasons, unavailable: gate.unavailable },
          dining: { reasons: (m.dining as { reasons: unknown }).reasons },
          transport: { boarding: (m.transport as { boarding: unknown }).boarding },
          gateApp: m.gateApp,
        };
      },
      'gate-locales',
    ),
    ...VitePWA({
      injectRegister: false,
      registerType: 'autoUpdate',
      filename: 'garita/sw.js',
      manifestFilename: 'garita/manifest.webmanifest',
      scope: SCOPE,
      includeManifestIcons: false,
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        manifestTransforms: [
          async (entries) => {
            const keep = pageFiles(outDir);
            // The service worker sits in /garita/: the files it keeps are named from the site's root.
            const manifest = entries
              .filter((entry) => keep.has(entry.url))
              .map((entry) => ({ ...entry, url: `/${entry.url}` }));
            return { manifest, warnings: [] };
          },
        ],
        clientsClaim: true,
        skipWaiting: true,
        navigateFallback: `${SCOPE}index.html`,
        navigateFallbackAllowlist: [/^\/garita\//],
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
    }),
    {
      name: 'gate-app-page',
      apply: 'build',
      enforce: 'post',
      generateBundle() {
        for (const icon of ICONS)
          this.emitFile({
            type: 'asset',
            fileName: `garita/${icon}`,
            source: readFileSync(resolve(root, 'src/client/garita', icon)),
          });
        this.emitFile({
          type: 'asset',
          fileName: 'garita/manifest.webmanifest',
          source: JSON.stringify(WEB_MANIFEST),
        });
      },
    },
  ];
}
