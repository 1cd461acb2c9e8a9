// The dashboard's entry: the app, its router, its one stylesheet.
import { createApp } from "vue";
import { prefetchJson } from "./api.ts";
import App from "./App.vue";
import { router } from "./router.ts";
import "./styles.css";

// Opened on the containers view: its list is read while the view's own script loads.
if (/^#\/containers(\?|$)/.test(location.hash)) prefetchJson("/list/containers");
createApp(App).use(router).mount("#app");
