// The core library without the CLI: load the config as the CLI does, then ask the engines.
//   node examples/library.mjs [cluster]
import { listClusters, listContainers, loadFleet } from "docklens";

const fleet = await loadFleet();
try {
  const { clusters } = await listClusters({ fleet });
  for (const cluster of clusters) {
    console.log(
      cluster.fullname,
      cluster.error ? `down: ${cluster.error.message}` : `Docker ${cluster.docker.ServerVersion}`,
    );
  }
  const { running } = await listContainers(process.argv[2] ?? "1", { fleet });
  console.log(running.map((container) => container.Names[0]).join("\n"));
} finally {
  fleet.close();
}
