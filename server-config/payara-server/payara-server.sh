#!/usr/bin/env bash
# Mailbox on Payara Server: fetches the server (Maven Central, cached in ~/.m2), creates a domain of
# its own in the data folder, configures it and deploys the EAR; waits until the console answers.
#
#   payara-server.sh start     create (first time), start, configure, deploy; return when ready
#   payara-server.sh stop      stop the domain
#
# Settings (environment):
#   MAILBOX_EAR                the EAR (default <repo>/ear/target/mailbox.ear)
#   MAILBOX_DATA               data folder (default <repo>/data/payara-server): domain, H2, password
#   MAILBOX_PORT_BASE          asadmin --portbase (default 28000: HTTP 28080, admin 28048)
#   MAILBOX_PAYARA_HOME        an installed Payara Server 6 (default: fetched into server-config/target)
#   MAILBOX_DATASOURCE         h2 (default, embedded in the data folder), postgresql or mariadb
#   MAILBOX_PG_URL             for postgresql: jdbc:postgresql://host:port/database
#   MAILBOX_PG_USER / MAILBOX_PG_PASSWORD
#   MAILBOX_PG_XA              true: an XA pool (needs max_prepared_transactions > 0 in PostgreSQL)
#   MAILBOX_MARIADB_URL        for mariadb: jdbc:mariadb://host:port/database (a database created
#                              with COLLATE utf8mb4_bin: docs/outbox.md, "Tables")
#   MAILBOX_MARIADB_USER / MAILBOX_MARIADB_PASSWORD
#   MAILBOX_CONSOLE_USERNAME / MAILBOX_CONSOLE_PASSWORD, MAILBOX_USERS, MAILBOX_PROVIDERS,
#   MAILBOX_AMQP_URI           as for Payara Micro (README "Configuration")
#   MAILBOX_START_TIMEOUT      seconds to wait for the console (default 300)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=../common.sh
. "$here/../common.sh"

payara_version="${MAILBOX_PAYARA_VERSION:-6.2025.9}"
ear="${MAILBOX_EAR:-$root/ear/target/mailbox.ear}"
data="${MAILBOX_DATA:-$root/data/payara-server}"
port_base="${MAILBOX_PORT_BASE:-28000}"
http_port=$((port_base + 80))
admin_port=$((port_base + 48))
timeout="${MAILBOX_START_TIMEOUT:-300}"
domain=mailbox

payara_home="${MAILBOX_PAYARA_HOME:-$(mailbox_server_home \
  "fish.payara.distributions:payara:$payara_version:zip" payara6 bin/asadmin)}"
asadmin() { "$payara_home/bin/asadmin" --port "$admin_port" "$@"; }
domains="$data/domains"

case "${1:-start}" in
  stop)
    asadmin stop-domain --domaindir "$domains" "$domain"
    exit 0 ;;
  start) ;;
  *) echo "usage: $0 [start|stop]" >&2; exit 2 ;;
esac

mailbox_require_build "$ear"
mkdir -p "$data/h2"
data="$(cd "$data" && pwd)"
mailbox_console_account "$data"

if [ ! -d "$domains/$domain" ]; then
  asadmin create-domain --domaindir "$domains" --portbase "$port_base" --nopassword=true "$domain" >/dev/null
fi
# The domain process inherits this environment: the console account (and MAILBOX_USERS with its
# passwords) reach the application through MicroProfile Config's environment source.
if ! "$payara_home/bin/asadmin" list-domains --domaindir "$domains" | grep -q "^$domain running"; then
  asadmin start-domain --domaindir "$domains" "$domain" >/dev/null
fi

# Server-wide settings; each is idempotent, so a second start re-applies the same values.
# Callers' groups map to roles of the same name (mailbox-viewer, mailbox-operator).
asadmin set configs.config.server-config.security-service.activate-default-principal-to-role-mapping=true >/dev/null
# The channels' executor: Payara ships it with one thread for every channel (core-pool-size 0).
asadmin set resources.managed-scheduled-executor-service.concurrent/__defaultManagedScheduledExecutorService.core-pool-size=8 >/dev/null
# Branches the adapter prepared before a crash are committed or rolled back at the next start (the
# domain's transaction log in <domain>/logs is durable; docs/transactions.md).
asadmin set configs.config.server-config.transaction-service.automatic-recovery=true >/dev/null
# The services find the factory the EAR brings (META-INF/glassfish-resources.xml); the channels use
# the server-wide one created after the deployment (below).
asadmin create-system-properties \
  'mailbox.connection-factory=java\:app/mailbox/ConnectionFactory:mp.messaging.connector.mailbox.connection-factory=mailbox/ConnectionFactory' >/dev/null

# Installs a JDBC driver (Maven Central, cached in ~/.m2) into the domain's lib, once.
install_driver() { # groupId artifactId version
  local jar="$2-$3.jar"
  if ! asadmin list-libraries | grep -qx "$jar"; then
    mvn -B -q dependency:copy -f "$root/server-config/pom.xml" -Dartifact="$1:$2:$3" \
      -DoutputDirectory="$data/drivers" >&2
    asadmin add-library "$data/drivers/$jar" >/dev/null
  fi
}

# Makes pool $1 java:comp/DefaultDataSource (jdbc/__default) and gives it the password $3 through
# the password alias $2 (written to a file, never onto a command line).
use_pool() { # pool alias password
  asadmin set "resources.jdbc-resource.jdbc/__default.pool-name=$1" >/dev/null
  if [ -z "$3" ]; then
    # Payara's pools refuse to connect without a password credential ("No password credential
    # found"); with trust authentication any text will do.
    echo "The $1 database needs a password (with trust authentication, any text)" >&2
    exit 2
  fi
  (umask 077 && printf 'AS_ADMIN_ALIASPASSWORD=%s\n' "$3" > "$data/.db-password")
  asadmin delete-password-alias "$2" >/dev/null 2>&1 || true
  asadmin --passwordfile "$data/.db-password" create-password-alias "$2" >/dev/null
  rm -f "$data/.db-password"
  asadmin set "resources.jdbc-connection-pool.$1.property.password=\${ALIAS=$2}" >/dev/null
}

case "${MAILBOX_DATASOURCE:-h2}" in
  h2)
    # The default datasource as an H2 file in the data folder. MODE=LEGACY: EclipseLink's IDENTITY
    # DDL fails on H2 2.2 otherwise (PLATFORM.md).
    asadmin set "resources.jdbc-connection-pool.H2Pool.property.URL=$(mailbox_h2_url "$data")" >/dev/null ;;
  postgresql)
    : "${MAILBOX_PG_URL:?set MAILBOX_PG_URL=jdbc:postgresql://host:port/database}"
    install_driver org.postgresql postgresql "${MAILBOX_PG_DRIVER_VERSION:-42.7.14}"
    if ! asadmin list-jdbc-connection-pools | grep -qx MailboxPostgresPool; then
      # XA only when asked: PostgreSQL's default max_prepared_transactions = 0 fails every XA
      # commit (PLATFORM.md). Without it the pool commits as the transaction's last resource.
      if [ "${MAILBOX_PG_XA:-false}" = true ]; then
        asadmin create-jdbc-connection-pool --datasourceclassname org.postgresql.xa.PGXADataSource \
          --restype javax.sql.XADataSource MailboxPostgresPool >/dev/null
      else
        asadmin create-jdbc-connection-pool --datasourceclassname org.postgresql.ds.PGSimpleDataSource \
          --restype javax.sql.DataSource MailboxPostgresPool >/dev/null
      fi
    fi
    asadmin set "resources.jdbc-connection-pool.MailboxPostgresPool.property.url=$MAILBOX_PG_URL" \
      "resources.jdbc-connection-pool.MailboxPostgresPool.property.user=${MAILBOX_PG_USER:-mailbox}" \
      "resources.jdbc-connection-pool.MailboxPostgresPool.property.connectTimeout=10" \
      "resources.jdbc-connection-pool.MailboxPostgresPool.property.socketTimeout=60" >/dev/null
    use_pool MailboxPostgresPool mailbox-pg "${MAILBOX_PG_PASSWORD:-}" ;;
  mariadb)
    : "${MAILBOX_MARIADB_URL:?set MAILBOX_MARIADB_URL=jdbc:mariadb://host:port/database}"
    install_driver org.mariadb.jdbc mariadb-java-client "${MAILBOX_MARIADB_DRIVER_VERSION:-3.5.11}"
    if ! asadmin list-jdbc-connection-pools | grep -qx MailboxMariaDbPool; then
      asadmin create-jdbc-connection-pool --datasourceclassname org.mariadb.jdbc.MariaDbDataSource \
        --restype javax.sql.DataSource MailboxMariaDbPool >/dev/null
    fi
    # The driver's timeouts are URL options (ms); they are added unless the URL sets its own.
    mariadb_url="$MAILBOX_MARIADB_URL"
    case "$mariadb_url" in
      *\?*) ;;
      *) mariadb_url="$mariadb_url?connectTimeout=10000&socketTimeout=60000" ;;
    esac
    # READ COMMITTED: at InnoDB's default REPEATABLE READ the relay's batch statements lock gaps
    # the application inserts into, and the two deadlock (docs/outbox.md).
    asadmin set "resources.jdbc-connection-pool.MailboxMariaDbPool.property.url=$mariadb_url" \
      "resources.jdbc-connection-pool.MailboxMariaDbPool.property.user=${MAILBOX_MARIADB_USER:-mailbox}" \
      "resources.jdbc-connection-pool.MailboxMariaDbPool.transaction-isolation-level=read-committed" >/dev/null
    use_pool MailboxMariaDbPool mailbox-mariadb "${MAILBOX_MARIADB_PASSWORD:-}" ;;
  *) echo "MAILBOX_DATASOURCE must be h2, postgresql or mariadb" >&2; exit 2 ;;
esac

# The adapter's configuration, read when the EAR's embedded adapter starts.
adapter_properties="$(mailbox_adapter_properties)"
if asadmin list-resource-adapter-configs 2>/dev/null | grep -qx "$domain#mailbox-connector"; then
  asadmin delete-resource-adapter-config "$domain#mailbox-connector" >/dev/null
fi
asadmin create-resource-adapter-config --property "$adapter_properties" "$domain#mailbox-connector" >/dev/null

# SmallRye's jars in the EAR's lib/ carry empty beans.xml files, which must read as "all"
# (PLATFORM.md); --force redeploys over an earlier version.
asadmin deploy --force=true --name "$domain" --properties emptyBeansXmlModeALL=true "$ear" >/dev/null

# The channels (SmallRye, in lib/) look the factory up from pool threads, where the application's
# java:app/ names cannot be resolved: they use a server-wide pool and resource on the embedded
# adapter, which can only be created now that the EAR is deployed. Until then they retry.
if ! asadmin list-connector-connection-pools | grep -qx mailbox-pool; then
  asadmin create-connector-connection-pool --raname "$domain#mailbox-connector" \
    --connectiondefinition io.mailbox.connector.api.MailboxConnectionFactory \
    --transactionsupport XATransaction mailbox-pool >/dev/null
  asadmin create-connector-resource --poolname mailbox-pool mailbox/ConnectionFactory >/dev/null
fi

base="http://localhost:$http_port"
if ! mailbox_wait_for_http "$base" true "$timeout"; then
  echo "The console did not answer within ${timeout}s (console: $console_code, example: $orders_code); see $domains/$domain/logs/server.log" >&2
  exit 1
fi

cat <<BANNER

  Mailbox is running (Payara Server $payara_version, domain '$domain' in $domains).

    Console   $base/console/
    Sign in   user '$MAILBOX_CONSOLE_USERNAME', password $password_shown
    Example   curl -X POST '$base/orders-app/api/orders?item=book&quantity=2'
    Admin     http://localhost:$admin_port (asadmin --port $admin_port)
    Log       $domains/$domain/logs/server.log
    Stop      $0 stop

BANNER
