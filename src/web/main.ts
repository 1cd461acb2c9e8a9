// The dashboard's entry: the app, its router, its one stylesheet.
import { createApp } from "vue";
import { prefetchJson } from "./api.ts";
import App from "./App.vue";
import { knownClusters } from "./clusters.ts";
import { router } from "./router.ts";
import "./styles.css";

// Opened on the containers view for the first time: its list is read while the view's own
// script loads. (Later visits read each known cluster on its own, src/web/clusters.ts.)
if (/^#\/containers(\?|$)/.test(location.hash) && !knownClusters().length)
  prefetchJson("/list/containers");
createApp(App).use(router).mount("#app");
