// The docs site (VitePress): `npm run docs:dev` serves it, `npm run docs:build` builds it into
// docs/.vitepress/dist (scripts/checks.sh builds it before the tests). Nothing is fetched from
// elsewhere: no CDN, no web font, the local search.
import { defineConfig } from "vitepress";
import { slugOf } from "../../scripts/slug.ts";

export default defineConfig({
  title: "docklens",
  description: "Inspect many Docker engines at once, read-only",
  cleanUrls: true,
  lastUpdated: false,
  markdown: {
    anchor: { slugify: slugOf },
    // Go templates (`{{.Names}}`) are text in these pages, not Vue interpolations.
    config(md) {
      const codeInline = md.renderer.rules.code_inline;
      md.renderer.rules.code_inline = (...args) =>
        codeInline!(...args).replace(/^<code/, "<code v-pre");
    },
  },
  themeConfig: {
    search: { provider: "local" },
    nav: [
      { text: "Guide", link: "/guide/getting-started" },
      { text: "Reference", link: "/reference/cli" },
      { text: "Design", link: "/design/architecture" },
    ],
    sidebar: [
      {
        text: "Guide",
        items: [
          { text: "Getting started", link: "/guide/getting-started" },
          { text: "Where engines come from", link: "/guide/engines" },
          { text: "The CLI", link: "/guide/cli" },
          { text: "Many containers at once", link: "/guide/selections" },
          { text: "Events", link: "/guide/events" },
          { text: "Config", link: "/guide/config" },
          { text: "Serving the HTTP interface", link: "/guide/serve" },
          { text: "Exposing serve safely", link: "/guide/exposing" },
          { text: "Under load and faults", link: "/guide/limits" },
          { text: "The dashboard", link: "/guide/dashboard" },
          { text: "The terminal view", link: "/guide/tui" },
          { text: "Nodes", link: "/guide/nodes" },
          { text: "Nodes over NATS", link: "/guide/nats" },
          { text: "Alerts", link: "/guide/alerts" },
          { text: "History", link: "/guide/history" },
          { text: "MCP, for AI agents", link: "/guide/mcp" },
          { text: "Monitoring", link: "/guide/monitoring" },
          { text: "Deploying", link: "/guide/deploying" },
        ],
      },
      {
        text: "Reference",
        items: [
          { text: "CLI commands", link: "/reference/cli" },
          { text: "HTTP routes", link: "/reference/routes" },
          { text: "Config keys", link: "/reference/config" },
          { text: "The HTTP interface", link: "/http-interface" },
        ],
      },
      {
        text: "Design notes",
        items: [
          { text: "Architecture", link: "/design/architecture" },
          { text: "The watch", link: "/design/watch" },
          { text: "Choices", link: "/design/choices" },
          { text: "The build", link: "/design/build" },
        ],
      },
    ],
  },
});
