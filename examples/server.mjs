// The HTTP interface on a server of your own (docklens serve does the same with listhen).
//   node examples/server.mjs   then   curl -s localhost:8080/list/cluster | jq
import { createServer } from "node:http";
import { toNodeListener } from "h3";
import { loadFleet } from "docklens";
import { createApp } from "docklens/server";

const fleet = await loadFleet();
const app = createApp({ fleet, token: process.env.DOCKLENS_TOKEN });
createServer(toNodeListener(app)).listen(8080, "127.0.0.1", () =>
  console.log("http://127.0.0.1:8080"),
);
