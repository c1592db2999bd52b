# The console's container image: the production build only (`npm run build`'s dist/ and dist-server/
# with the production dependencies), run by an unprivileged user, its state in the DATA_DIR volume.
# docs/operations.md ("Container") says how to run and upgrade it; scripts/check-container.sh builds
# and runs it on a base image made from Debian packages (BASE_IMAGE), where no registry is reachable.
ARG BASE_IMAGE=node:24-slim

# 1. Build: every dependency (the build needs the dev ones), then the app and the server bundle; then
# the dev dependencies go, so only what `npm start` loads is copied on.
FROM ${BASE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# 2. Run: Node, the built files and the production dependencies; no sources, no npm cache.
FROM ${BASE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/dist-server ./dist-server
# A numeric user that owns nothing but the data folder: it needs no account in the image (the Debian
# base of the check has no useradd), and cannot change the app's files.
RUN mkdir -p /data && chown 10001:10001 /data
USER 10001:10001
# PGlite's database, kept result files and the emulator's uploads (docs/operations.md, "DATA_DIR").
VOLUME ["/data"]
EXPOSE 8080
# 200 once the database is open and migrated (server/app/prod-app.ts); Node's own fetch, as the
# slim images have no curl.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist-server/prod.js"]
