#!/usr/bin/env bash
# Starts Payara Micro with Mailbox on its embedded defaults: the connector rar first (post-boot
# file), then the console and example wars; the durable jdbc: provider (and mem:) on an H2 database in the data folder.
# Waits until the console answers, prints where it is and how to sign in.
#
#   start-micro.sh [--detach]      --detach: return once the console answers (the server keeps running)
#
# Settings (environment):
#   MAILBOX_HTTP_PORT          HTTP port (default 8080)
#   MAILBOX_DATA               data folder (default <repo>/data): H2 files, log, pid, generated password
#   MAILBOX_CONSOLE_USERNAME   console account (default admin)
#   MAILBOX_CONSOLE_PASSWORD   console password (default: generated once into <data>/console-password)
#   MAILBOX_PROVIDERS          providers the adapter starts (default mem,jdbc; add amqp for RabbitMQ,
#                              kafka for Kafka, nats for NATS JetStream, redis for Redis Streams)
#   MAILBOX_PROVIDER_JARS      jars of more providers (paths without spaces, space-separated): added to a
#                              copy of the adapter's archive in the data folder, found by their factory
#   MAILBOX_AMQP_URI           the RabbitMQ broker for amqp: (default amqp://guest:guest@127.0.0.1:5672/%2F)
#   MAILBOX_KAFKA_BOOTSTRAP_SERVERS  the Kafka cluster for kafka: (default 127.0.0.1:9092)
#   MAILBOX_KAFKA_CREATE_TOPICS      true: kafka: creates the topics it needs (default false)
#   MAILBOX_KAFKA_QUEUE_ADDRESSES    kafka: mailbox patterns read as queues (share groups; default none)
#   MAILBOX_KAFKA_QUEUE_BATCH        records a queue's share consumer takes per poll (default 500)
#   MAILBOX_NATS_URL                 the NATS server for nats: (default nats://127.0.0.1:4222)
#   MAILBOX_NATS_CREATE_STREAM       true: nats: creates its stream MAILBOX on mailbox.> (default false)
#   MAILBOX_REDIS_URL                the Redis server for redis: (default redis://127.0.0.1:6379)
#   MAILBOX_DATASOURCE         h2 (default: embedded in the data folder) or postgresql
#   MAILBOX_PG_URL             for postgresql: jdbc:postgresql://host:port/database
#   MAILBOX_PG_USER            for postgresql (default mailbox); MAILBOX_PG_PASSWORD if it needs one
#   MAILBOX_DEPLOY             more applications to deploy after the example (paths without spaces, space-separated)
#   MAILBOX_JAVA_OPTS          extra JVM options for Payara Micro (traces: -Dotel.sdk.disabled=false and an
#                              exporter, docs/observability.md)
#   MAILBOX_START_TIMEOUT      seconds to wait for the console (default 240)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=../common.sh
. "$here/../common.sh"
detach=false
for arg in "$@"; do
  case "$arg" in
    --detach) detach=true ;;
    *) echo "usage: $0 [--detach]" >&2; exit 2 ;;
  esac
done

port="${MAILBOX_HTTP_PORT:-8080}"
data="${MAILBOX_DATA:-$root/data}"
timeout="${MAILBOX_START_TIMEOUT:-240}"
rar="$root/connector-rar/target/mailbox-connector.rar"
console_war="$root/admin-console-war/target/console.war"
orders_war="$root/examples/orders-app/target/orders-app.war"
root_war="$root/root-war/target/ROOT.war"
micro_jar="$root/server-config/target/payara-micro.jar"
datasource="${MAILBOX_DATASOURCE:-h2}"
extra_libs=()
case "$datasource" in
  h2) ;;
  postgresql)
    : "${MAILBOX_PG_URL:?set MAILBOX_PG_URL=jdbc:postgresql://host:port/database}"
    extra_libs=(--addlibs "$root/server-config/target/postgresql.jar") ;;
  *) echo "MAILBOX_DATASOURCE must be h2 or postgresql" >&2; exit 2 ;;
esac

# A provider of your own travels inside the adapter's archive, beside the shipped ones, so that the
# adapter's class loader finds its META-INF/services entry.
if [ -n "${MAILBOX_PROVIDER_JARS:-}" ]; then
  mailbox_require_build "$rar"
  mkdir -p "$data/adapter"
  cp "$rar" "$data/adapter/mailbox-connector.rar"
  rar="$data/adapter/mailbox-connector.rar"
  jar_tool="$(dirname "$(readlink -f "$(command -v java)")")/jar"
  for provider_jar in $MAILBOX_PROVIDER_JARS; do
    if [ ! -f "$provider_jar" ]; then
      echo "Missing provider jar $provider_jar (MAILBOX_PROVIDER_JARS)." >&2
      exit 1
    fi
    (cd "$(dirname "$provider_jar")" && "$jar_tool" uf "$rar" "$(basename "$provider_jar")")
  done
fi

extra_deploys=()
for app in ${MAILBOX_DEPLOY:-}; do
  extra_deploys+=(--deploy "$app")
done

for file in "$rar" "$console_war" "$orders_war" "$root_war" "$micro_jar" ${MAILBOX_DEPLOY:-}; do
  if [ ! -f "$file" ]; then
    echo "Missing $file: build first (bin/run builds and starts)." >&2
    exit 1
  fi
done

# The data folder holds the database, the log and the generated password: this user's only
# (files the server creates inherit the umask; files of an older data folder are tightened too).
umask 077
mkdir -p "$data/h2" "$data/tx-log"
data="$(cd "$data" && pwd)"
chmod -R go-rwx "$data"
pid_file="$data/payara-micro.pid"
log_file="$data/payara-micro.log"

if [ -f "$pid_file" ] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
  echo "Mailbox is already running (pid $(cat "$pid_file")); stop it with: kill $(cat "$pid_file")" >&2
  exit 1
fi
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "Port $port is already taken by another process: set MAILBOX_HTTP_PORT to a free port." >&2
  exit 1
fi
mailbox_console_account "$data"

# Posts held by a JTA transaction on the adapter's connection are logged here once voted for
# (docs/transactions.md): in the data folder, beside the database.
adapter_properties="$(mailbox_adapter_properties):prepareLogDirectory=${data//:/\\:}/prepare-log"
# '#', '&' and '\' mean something to sed in the replacement: escaped.
adapter_replacement="$(printf '%s' "$adapter_properties" | sed -e 's/[#&\\]/\\&/g')"
# The filled-in file may hold the broker password: created under the umask 077 set above, so
# readable by this user only (the database password is not in it: the pool reads it from the
# environment). On PostgreSQL the default datasource is repointed first, before the adapter
# (whose jdbc: provider uses it) is deployed.
(
  mailbox_micro_transaction_commands "$data"
  if [ "$datasource" = postgresql ]; then
    mailbox_micro_postgresql_commands
  fi
  sed -e "s#@H2_URL@#$(mailbox_h2_url "$data")#" \
    -e "s#@RAR@#$rar#" \
    -e "s#@ADAPTER_PROPERTIES@#$adapter_replacement#" \
    "$here/post-boot-commands.asadmin"
) > "$data/post-boot-commands.asadmin"

# The previous run's log is evidence (of a crash, say): kept as payara-micro.log.1 .. .5, never
# truncated.
rotate_log() {
  for n in 4 3 2 1; do
    if [ -f "$log_file.$n" ]; then mv -f "$log_file.$n" "$log_file.$((n + 1))"; fi
  done
  if [ -f "$log_file" ]; then mv -f "$log_file" "$log_file.1"; fi
}

# MicroProfile Telemetry is off unless MAILBOX_JAVA_OPTS turns it on (-Dotel.sdk.disabled=false and
# an exporter, docs/observability.md): said explicitly, since unset is not a clean no-op (PLATFORM.md).
# A later -D of the same name wins, so the caller's options come after it.
launch_micro() {
  rotate_log
  # shellcheck disable=SC2086  # MAILBOX_JAVA_OPTS is a list of options
  java -Dotel.sdk.disabled=true ${MAILBOX_JAVA_OPTS:-} -jar "$micro_jar" \
    --nocluster --port "$port" \
    --systemProperties "$here/micro-system.properties" \
    --prebootcommandfile "$here/pre-boot-commands.asadmin" \
    --postbootcommandfile "$data/post-boot-commands.asadmin" \
    --postdeploycommandfile "$here/post-deploy-commands.asadmin" \
    "${extra_libs[@]+"${extra_libs[@]}"}" \
    --deploy "$console_war" --deploy "$orders_war" "${extra_deploys[@]+"${extra_deploys[@]}"}" \
    --deploy "$root_war" \
    > "$log_file" 2>&1 &
  pid=$!
  echo "$pid" > "$pid_file"
}

# Stops the server this script started: SIGTERM, then SIGKILL after 30 s.
stop_micro() {
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$pid_file"
}

console_url="http://localhost:$port/console/"
orders_url="http://localhost:$port/orders-app/api/orders"
# A failed deployment does not stop Micro (it still logs "ready"): the log is read for it while the
# console and the example are asked over HTTP. Sets outcome to ready, exited, boot-fault,
# deployment-failed or timed-out.
wait_until_ready() {
  outcome=timed-out console_code="" orders_code=""
  for _ in $(seq 1 "$timeout"); do
    if ! kill -0 "$pid" 2>/dev/null; then
      outcome=exited
      return
    fi
    local failure
    failure="$(mailbox_micro_deployment_failure "$log_file")"
    if [ -n "$failure" ]; then
      # The rest of the exception (what tells the race apart) may still be on its way to the log.
      sleep 2
      outcome="$(mailbox_micro_deployment_failure "$log_file")"
      outcome="${outcome:-$failure}"
      return
    fi
    console_code="$(curl -s -o /dev/null -w '%{http_code}' "$console_url" || true)"
    orders_code="$(curl -s -o /dev/null -w '%{http_code}' "$orders_url/progress" || true)"
    if [ "$console_code" = 200 ] && [ "$orders_code" = 200 ]; then
      outcome=ready
      return
    fi
    sleep 1
  done
}

launch_micro
wait_until_ready
if [ "$outcome" = boot-fault ]; then
  # Payara's race, not the archive's fault (mailbox_micro_deployment_failure in common.sh): a second
  # start deploys it. Once only, and said, with the first start's log kept as .1.
  echo "A deployment failed on a race in Payara Micro (it lost the deployment's class loader to a" \
    "garbage collection; the log of this start is kept as $log_file.1): starting once more." >&2
  stop_micro
  launch_micro
  wait_until_ready
fi
case "$outcome" in
  ready) ;;
  exited)
    echo "Payara Micro exited during start-up; the end of $log_file:" >&2
    tail -n 40 "$log_file" >&2
    rm -f "$pid_file"
    exit 1 ;;
  boot-fault | deployment-failed)
    echo "A deployment failed; the end of $log_file:" >&2
    grep -m 3 -A 3 -E "Exception while (loading|deploying) the app" "$log_file" >&2 || true
    stop_micro
    exit 1 ;;
  timed-out)
    echo "The console did not answer within ${timeout}s (console: $console_code, example: $orders_code); see $log_file" >&2
    # The evidence before the server goes: its first errors, the end of its log, and what its
    # threads were doing (a hung deployment shows in the main thread), kept beside the log.
    echo "Its first errors:" >&2
    grep -m 5 -A 8 "SEVERE" "$log_file" >&2 || true
    echo "The end of its log:" >&2
    tail -n 30 "$log_file" >&2
    if command -v jcmd >/dev/null 2>&1; then
      jcmd "$pid" Thread.print -l > "$data/payara-micro-threads.txt" 2>&1 || true
      echo "Its main thread (all threads in $data/payara-micro-threads.txt):" >&2
      awk '/^"main"/{on=1} on&&/^$/{exit} on' "$data/payara-micro-threads.txt" | head -n 40 >&2 || true
    fi
    stop_micro
    exit 1 ;;
esac

cat <<BANNER

  Mailbox is running (Payara Micro, pid $pid).

    Console   $console_url
    Sign in   user '$MAILBOX_CONSOLE_USERNAME', password $password_shown
    Example   curl -X POST '$orders_url?item=book&quantity=2'   (then watch the jdbc:// addresses on the dashboard)
    Health    http://localhost:$port/health/ready
    Data      $data   (log: $log_file)
    Stop      kill $pid

BANNER

if [ "$detach" = true ]; then
  exit 0
fi
# set -e holds in the trap too: the server's exit status (143 after SIGTERM) must not end it early.
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; rm -f "$pid_file"; exit 0' INT TERM
wait "$pid" || true
rm -f "$pid_file"
