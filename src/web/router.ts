// Every view has a deep link. Hash history keeps the page's paths (`#/containers?q=web`) apart
// from the API's (`/list/...`): the server only ever serves `/` for the page.
import { createRouter, createWebHashHistory, type RouteRecordRaw } from "vue-router";
import ClustersView from "./views/ClustersView.vue";
import ContainersView from "./views/ContainersView.vue";

const routes: RouteRecordRaw[] = [
  { path: "/", name: "clusters", component: ClustersView, meta: { title: "Clusters" } },
  {
    path: "/containers",
    name: "containers",
    // In the first load with the clusters view: it is the one a large fleet opens, and with its
    // code already there, its list (read as the page starts) never waits behind a script
    // request that a busy server answers late. The other views load on demand.
    component: ContainersView,
    meta: { title: "Containers" },
  },
  {
    path: "/cluster/:cluster/container/:name",
    name: "container",
    component: () => import("./views/ContainerView.vue"),
    meta: { title: "Container" },
  },
  {
    path: "/cluster/:cluster/images",
    name: "images",
    component: () => import("./views/ImagesView.vue"),
    meta: { title: "Images" },
  },
  {
    path: "/cluster/:cluster/volumes",
    name: "volumes",
    component: () => import("./views/VolumesView.vue"),
    meta: { title: "Volumes" },
  },
  {
    path: "/cluster/:cluster/networks",
    name: "networks",
    component: () => import("./views/NetworksView.vue"),
    meta: { title: "Networks" },
  },
  {
    path: "/cluster/:cluster/:kind(image|volume|network)/:name",
    name: "object",
    component: () => import("./views/ObjectView.vue"),
    meta: { title: "Detail" },
  },
  {
    path: "/drift",
    name: "drift",
    component: () => import("./views/DriftView.vue"),
    meta: { title: "Drift" },
  },
  {
    path: "/events",
    name: "events",
    component: () => import("./views/EventsView.vue"),
    meta: { title: "Events" },
  },
  {
    path: "/logs",
    name: "logs",
    component: () => import("./views/LogsView.vue"),
    meta: { title: "Logs" },
  },
  {
    path: "/stats",
    name: "stats",
    component: () => import("./views/StatsView.vue"),
    meta: { title: "Stats" },
  },
  {
    path: "/disk-usage",
    name: "disk-usage",
    component: () => import("./views/DiskUsageView.vue"),
    meta: { title: "Disk usage" },
  },
  {
    path: "/alerts",
    name: "alerts",
    component: () => import("./views/AlertsView.vue"),
    meta: { title: "Alerts" },
  },
  { path: "/:rest(.*)*", redirect: "/" },
];

/** The dashboard's router: hash history, one route per view. */
export const router = createRouter({ history: createWebHashHistory(), routes });

router.afterEach((to) => {
  document.title = `${(to.meta.title as string | undefined) ?? ""} · docklens`;
});
