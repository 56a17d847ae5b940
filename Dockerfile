# The reference server as a container image (docs/deploy.md). Two stages: the build compiles the
# TypeScript with every dependency and builds the console; the runtime holds the compiled JavaScript, the
# contract package, the built console (static files) and the server's production dependencies only (the embedded emulators are development dependencies: the
# image needs a Cosmos DB account and a storage account). test/deploy/image-steps.test.ts performs
# the same steps outside a container, so that this recipe cannot rot unnoticed. Both stages run the
# Active LTS line of Node.js (26 since 2026-10-28); the code keeps working on 20 and later, and the
# test workflow runs the suite on each of them.

FROM node:26-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY sdk/package.json sdk/
COPY mock/package.json mock/
COPY server/package.json server/
COPY console/package.json console/
RUN npm ci --ignore-scripts
COPY tsconfig.base.json ./
COPY contract/ contract/
COPY server/ server/
COPY sdk/ sdk/
COPY console/ console/
RUN npm run build -w @groundcheck/server && npm run build -w @groundcheck/sdk && npm run build -w @groundcheck/console

FROM node:26-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY sdk/package.json sdk/
COPY mock/package.json mock/
COPY server/package.json server/
RUN npm ci --omit=dev --ignore-scripts --workspace @groundcheck/server && npm cache clean --force
COPY contract/openapi.yaml contract/
COPY server/tenant-file.schema.json server/tenants.example.yaml server/
COPY server/models/ server/models/
COPY --from=build /app/contract/dist contract/dist
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/console/dist console/dist
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server/dist/main.js"]
