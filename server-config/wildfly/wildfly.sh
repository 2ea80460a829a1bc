#!/usr/bin/env bash
# Mailbox on WildFly: fetches the server (Maven Central, cached in ~/.m2), gives it a server
# directory of its own in the data folder, configures it once (mailbox.cli), starts it and deploys
# the EAR; waits until the console and the example answer.
#
#   wildfly.sh start     configure (first time), start, deploy; return when ready
#   wildfly.sh stop      stop the server
#
# Settings (environment):
#   MAILBOX_EAR                the EAR (default <repo>/ear/target/mailbox-wildfly.ear: the EAR without
#                              SmallRye, which WildFly's Reactive Messaging subsystem provides)
#   MAILBOX_DATA               data folder (default <repo>/data/wildfly): server directory, H2, password
#   MAILBOX_PORT_OFFSET        jboss.socket.binding.port-offset (default 100: HTTP 8180, management 10090)
#   MAILBOX_WILDFLY_HOME       an installed WildFly 37 (default: fetched into server-config/target)
#   MAILBOX_CONSOLE_USERNAME / MAILBOX_CONSOLE_PASSWORD, MAILBOX_USERS,
#   MAILBOX_PROVIDERS, MAILBOX_AMQP_URI   as for Payara Micro (README "Configuration")
#   MAILBOX_START_TIMEOUT      seconds to wait for the console (default 300)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=../common.sh
. "$here/../common.sh"

wildfly_version="${MAILBOX_WILDFLY_VERSION:-37.0.1.Final}"
ear="${MAILBOX_EAR:-$root/ear/target/mailbox-wildfly.ear}"
data="${MAILBOX_DATA:-$root/data/wildfly}"
port_offset="${MAILBOX_PORT_OFFSET:-100}"
http_port=$((8080 + port_offset))
management_port=$((9990 + port_offset))
timeout="${MAILBOX_START_TIMEOUT:-300}"

wildfly_home="${MAILBOX_WILDFLY_HOME:-$(mailbox_server_home \
  "org.wildfly:wildfly-dist:$wildfly_version:zip" "wildfly-$wildfly_version" bin/standalone.sh)}"
cli() { "$wildfly_home/bin/jboss-cli.sh" --connect --controller="localhost:$management_port" "$@"; }
running() { cli --commands=':read-attribute(name=server-state)' 2>/dev/null | grep -q '"result" => "running"'; }

case "${1:-start}" in
  stop)
    if running; then cli --commands=':shutdown' >/dev/null; else echo "WildFly is not running (management port $management_port)." >&2; fi
    exit 0 ;;
  start) ;;
  *) echo "usage: $0 [start|stop]" >&2; exit 2 ;;
esac

mailbox_require_build "$ear"
mkdir -p "$data/h2"
data="$(cd "$data" && pwd)"
mailbox_console_account "$data"
# The server process inherits this environment: mailbox.cli's expressions (${env.MAILBOX_...}) and
# the application (MicroProfile Config's environment source: console account, MAILBOX_USERS) read it.
export MAILBOX_DATA="$data" MAILBOX_PROVIDERS="${MAILBOX_PROVIDERS:-mem,jdbc}"

# The server's own directory (configuration, deployments, logs) lives in the data folder, like
# Payara Server's domain; the unpacked distribution stays untouched and can serve many data folders.
base="$data/standalone"
if [ ! -f "$base/mailbox-configured" ]; then
  rm -rf "$base"
  cp -r "$wildfly_home/standalone" "$base"
  "$wildfly_home/bin/jboss-cli.sh" -Djboss.server.base.dir="$base" --file="$here/mailbox.cli" >/dev/null
  touch "$base/mailbox-configured"
fi

alive=true
if ! running; then
  nohup "$wildfly_home/bin/standalone.sh" -c standalone.xml -Djboss.server.base.dir="$base" \
    -Djboss.socket.binding.port-offset="$port_offset" >"$base/log/console.log" 2>&1 &
  pid=$!
  alive="kill -0 $pid"
  for _ in $(seq 1 "$timeout"); do
    running && break
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "WildFly stopped while starting; see $base/log/console.log" >&2
      exit 1
    fi
    sleep 1
  done
fi

# The name must be mailbox.ear: the adapter's configuration names its archive mailbox.ear#...
# --force replaces an earlier version.
if ! output="$(cli --commands="deploy --force --name=mailbox.ear $ear" 2>&1)"; then
  printf '%s\n' "$output" | head -n 20 >&2
  echo "Deploying $ear failed; see $base/log/server.log" >&2
  exit 1
fi

url="http://localhost:$http_port"
if ! mailbox_wait_for_http "$url" "$alive" "$timeout"; then
  echo "The console did not answer within ${timeout}s (console: $console_code, example: $orders_code); see $base/log/server.log" >&2
  exit 1
fi

cat <<BANNER

  Mailbox is running (WildFly $wildfly_version, server directory $base).

    Console   $url/console/
    Sign in   user '$MAILBOX_CONSOLE_USERNAME', password $password_shown
    Example   curl -X POST '$url/orders-app/api/orders?item=book&quantity=2'
    Admin     http://localhost:$management_port ($wildfly_home/bin/jboss-cli.sh --connect --controller=localhost:$management_port)
    Log       $base/log/server.log
    Stop      $0 stop

BANNER
