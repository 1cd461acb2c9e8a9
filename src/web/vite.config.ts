// The dashboard's build: a small Vite app whose output `docklens serve` serves from dist/web
// (src/server/dashboard.ts). Content-hashed names under assets/ let the server cache them for a
// year; nothing is inlined, so the page runs under a CSP without 'unsafe-inline'.
import { fileURLToPath } from "node:url";
import vue from "@vitejs/plugin-vue";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [vue()],
  build: {
    outDir: fileURLToPath(new URL("../../dist/web", import.meta.url)),
    emptyOutDir: true,
    assetsDir: "assets",
    // Never a data: URL or an inline script: everything is a file of its own, under the CSP.
    assetsInlineLimit: 0,
    sourcemap: false,
    target: "es2022",
    reportCompressedSize: true,
    // The polyfill is a script of its own in the entry chunk, not an inline one; every browser
    // the dashboard supports has modulepreload anyway.
    modulePreload: { polyfill: false },
    // Vue and its router, shared by every view, in a chunk named for them (the bundler would
    // name it after one of the page's own modules).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: "vue", test: /[\\/]node_modules[\\/](@vue|vue|vue-router)[\\/]/ }],
        },
      },
    },
  },
});
