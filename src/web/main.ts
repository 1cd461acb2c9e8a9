// The dashboard's entry: the app, its router, its one stylesheet.
import { createApp } from "vue";
import App from "./App.vue";
import { router } from "./router.ts";
import "./styles.css";

createApp(App).use(router).mount("#app");
