import { defineConfig } from "tsdown";

export default defineConfig({
  entry: { index: "src/index.ts", cli: "src/cli/main.ts" },
  format: "esm",
  platform: "node",
  target: "node20.19",
  dts: { entry: "src/index.ts" },
  clean: true,
});
