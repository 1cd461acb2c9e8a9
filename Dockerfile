# docklens serve as an image, built once from this repository:
#   docker build -t docklens:0.1.0 .
# The build stage installs the dev dependencies and packs the package (`npm pack` builds it); the
# image installs that tarball with its runtime dependencies only, so that a container starts
# without downloading anything. It runs as the unprivileged `node` user (uid 1000). Used by
# examples/deploy/compose.yaml and kubernetes.yaml.
FROM node:22-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm pack --pack-destination /tmp && mv /tmp/docklens-*.tgz /tmp/docklens.tgz

FROM node:22-slim
ENV NODE_ENV=production
COPY --from=build /tmp/docklens.tgz /tmp/docklens.tgz
RUN npm install --global --omit=dev --no-audit --no-fund /tmp/docklens.tgz \
  && rm /tmp/docklens.tgz && npm cache clean --force
USER node
EXPOSE 8080
ENTRYPOINT ["docklens"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--config", "/etc/docklens/docklens.config.yaml", "--json"]
