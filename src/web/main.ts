// The dashboard's entry: the app, its router, its one stylesheet.
import { createApp } from "vue";
import App from "./App.vue";
import { prefetchWatch } from "./fleet-watch.ts";
import { router } from "./router.ts";
import "./styles.css";

// Opened on the containers or clusters view: the watch of every cluster's containers opens
// while the view's own script loads.
if (/^\/(containers)?(\?|$)/.test(location.hash.replace(/^#/, "") || "/")) prefetchWatch();
createApp(App).use(router).mount("#app");
