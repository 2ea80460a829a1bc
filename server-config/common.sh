# Shared by the start scripts in server-config/: fetching a server, the console account, the
# adapter's properties, waiting for HTTP. Source it; it defines functions only.

mailbox_repository="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Prints the directory of a server distribution unpacked into server-config/target/servers,
# fetching it first (Maven Central, cached in ~/.m2) when $2/$3 is not there yet.
#   mailbox_server_home <groupId:artifactId:version:zip> <directory in the zip> <file it must hold>
mailbox_server_home() {
  local artifact="$1" directory="$2" marker="$3"
  local target="$mailbox_repository/server-config/target/servers"
  if [ ! -e "$target/$directory/$marker" ]; then
    echo "Fetching $artifact (Maven Central, cached in ~/.m2)..." >&2
    mkdir -p "$target"
    # overWriteReleases: the plugin's marker (in target/) outlives a deleted server directory and
    # would silently skip the unpack.
    mvn -B -q dependency:unpack -f "$mailbox_repository/server-config/pom.xml" \
      -Dartifact="$artifact" -Dmdep.overWriteReleases=true -DoutputDirectory="$target" >&2
  fi
  printf '%s' "$target/$directory"
}

# Exits with a hint when the archive to deploy has not been built.
mailbox_require_build() {
  if [ ! -f "$1" ]; then
    echo "Missing $1: build first (mvn -DskipTests package)." >&2
    exit 1
  fi
}

# Sets MAILBOX_CONSOLE_USERNAME / MAILBOX_CONSOLE_PASSWORD (exported) and password_shown. Without a
# configured password, one is generated once per data folder (never one written in the code) and,
# being a development password, shown; a configured one is never echoed.
mailbox_console_account() {
  local data="$1"
  export MAILBOX_CONSOLE_USERNAME="${MAILBOX_CONSOLE_USERNAME:-admin}"
  password_shown="the value of MAILBOX_CONSOLE_PASSWORD"
  if [ -z "${MAILBOX_CONSOLE_PASSWORD:-}" ]; then
    local password_file="$data/console-password"
    if [ ! -s "$password_file" ]; then
      (umask 077 && head -c 18 /dev/urandom | base64 | tr '+/' '-_' > "$password_file")
    fi
    MAILBOX_CONSOLE_PASSWORD="$(cat "$password_file")"
    password_shown="'$MAILBOX_CONSOLE_PASSWORD' (generated, kept in $password_file)"
  fi
  export MAILBOX_CONSOLE_PASSWORD
}

# Prints the JDBC URL of the embedded database in data folder $1, the one place it is written:
#  - WRITE_DELAY=0: H2 writes each commit before acknowledging it, so what was acknowledged survives
#    a kill -9 of the server (measured: docs/reliability.md; H2's default of 500 ms lost up to the
#    last half second of commits). H2 does not fsync each commit: a power loss is not covered.
#  - no AUTO_SERVER: nothing but the server opens the files, so no TCP listener exists (AUTO_SERVER
#    listened on every interface, with an empty password).
#  - MODE=LEGACY: EclipseLink's IDENTITY DDL fails on H2 2.2 otherwise (PLATFORM.md).
mailbox_h2_url() {
  printf 'jdbc:h2:%s/h2/mailbox;WRITE_DELAY=0;MODE=LEGACY' "$1"
}

# Prints the adapter's properties for asadmin (name=value pairs separated by ':', a ':' inside a
# value escaped as '\:'): the providers to start (MAILBOX_PROVIDERS, default mem,jdbc), the
# RabbitMQ broker (MAILBOX_AMQP_URI) and the Kafka cluster (MAILBOX_KAFKA_BOOTSTRAP_SERVERS,
# MAILBOX_KAFKA_CREATE_TOPICS, MAILBOX_KAFKA_QUEUE_ADDRESSES, MAILBOX_KAFKA_QUEUE_BATCH), the NATS
# server (MAILBOX_NATS_URL, MAILBOX_NATS_CREATE_STREAM) and the Redis server (MAILBOX_REDIS_URL)
# when given.
mailbox_adapter_properties() {
  local properties="enabledProviders=${MAILBOX_PROVIDERS:-mem,jdbc}"
  if [ -n "${MAILBOX_AMQP_URI:-}" ]; then
    properties="$properties:amqpUri=${MAILBOX_AMQP_URI//:/\\:}"
  fi
  if [ -n "${MAILBOX_KAFKA_BOOTSTRAP_SERVERS:-}" ]; then
    properties="$properties:kafkaBootstrapServers=${MAILBOX_KAFKA_BOOTSTRAP_SERVERS//:/\\:}"
  fi
  if [ -n "${MAILBOX_KAFKA_CREATE_TOPICS:-}" ]; then
    properties="$properties:kafkaCreateTopics=${MAILBOX_KAFKA_CREATE_TOPICS}"
  fi
  if [ -n "${MAILBOX_NATS_URL:-}" ]; then
    properties="$properties:natsUrl=${MAILBOX_NATS_URL//:/\\:}"
  fi
  if [ -n "${MAILBOX_NATS_CREATE_STREAM:-}" ]; then
    properties="$properties:natsCreateStream=${MAILBOX_NATS_CREATE_STREAM}"
  fi
  if [ -n "${MAILBOX_REDIS_URL:-}" ]; then
    properties="$properties:redisUrl=${MAILBOX_REDIS_URL//:/\\:}"
  fi
  if [ -n "${MAILBOX_KAFKA_QUEUE_ADDRESSES:-}" ]; then
    properties="$properties:kafkaQueueAddresses=${MAILBOX_KAFKA_QUEUE_ADDRESSES//:/\\:}"
  fi
  if [ -n "${MAILBOX_KAFKA_QUEUE_BATCH:-}" ]; then
    properties="$properties:kafkaQueueBatch=${MAILBOX_KAFKA_QUEUE_BATCH}"
  fi
  printf '%s' "$properties"
}

# Prints the asadmin commands that point Payara Micro's default datasource (java:comp/DefaultDataSource,
# jdbc/__default) at PostgreSQL: MAILBOX_PG_URL, MAILBOX_PG_USER (default mailbox),
# MAILBOX_PG_PASSWORD. Non-XA (PostgreSQL's default max_prepared_transactions = 0 fails every XA
# commit, PLATFORM.md). Connections are validated when handed out and all are dropped when one
# fails, so the pool recovers by itself after the database restarts (the outage test).
mailbox_micro_postgresql_commands() {
  # asadmin's property syntax: ':' separates, '=' assigns, '\' escapes.
  local esc='s/[\\:=]/\\&/g'
  local properties
  properties="url=$(printf '%s' "$MAILBOX_PG_URL" | sed -e "$esc"):user=$(printf '%s' "${MAILBOX_PG_USER:-mailbox}" | sed -e "$esc")"
  # Bounded network waits: a connection caught by an outage fails its call within a minute instead
  # of holding a relay or channel thread forever (no statement of ours runs for that long).
  properties="$properties:connectTimeout=10:socketTimeout=60:tcpKeepAlive=true"
  # The password is never written down: the pool reads it from the server's environment when it
  # connects (${ENV=...}). Payara's pool wants a password even for a database that asks none
  # (trust authentication): asadmin spells the empty string ().
  if [ -n "${MAILBOX_PG_PASSWORD:-}" ]; then
    properties="$properties:password=\${ENV=MAILBOX_PG_PASSWORD}"
  else
    properties="$properties:password=()"
  fi
  printf '%s\n' \
    "create-jdbc-connection-pool --datasourceclassname org.postgresql.ds.PGSimpleDataSource --restype javax.sql.DataSource --isconnectvalidatereq true --validationmethod custom-validation --validationclassname org.glassfish.api.jdbc.validation.PostgresConnectionValidation --failconnection true --property $properties MailboxPostgresPool" \
    "set resources.jdbc-resource.jdbc/__default.pool-name=MailboxPostgresPool"
}

# Prints the asadmin commands that make Payara Micro's transaction log durable and recovered: the
# log in the data folder ($1/tx-log; Micro's own root directory is temporary, deleted at exit) and
# automatic recovery on, so a branch the adapter prepared before a crash is committed or rolled back
# by the transaction manager at the next start (docs/transactions.md).
mailbox_micro_transaction_commands() {
  printf '%s\n' \
    "set configs.config.server-config.transaction-service.tx-log-dir=$1/tx-log" \
    "set configs.config.server-config.transaction-service.automatic-recovery=true"
}

# Waits until the console and the example answer over HTTP (a failed deployment can leave a server
# running), at most $3 seconds. Returns 1 on time-out; the codes last seen are in console_code and
# orders_code.
mailbox_wait_for_http() {
  local base="$1" alive_check="$2" timeout="$3"
  console_code="" orders_code=""
  for _ in $(seq 1 "$timeout"); do
    if ! eval "$alive_check"; then
      return 2
    fi
    console_code="$(curl -s -o /dev/null -w '%{http_code}' "$base/console/" || true)"
    orders_code="$(curl -s -o /dev/null -w '%{http_code}' "$base/orders-app/api/orders/progress" || true)"
    if [ "$console_code" = 200 ] && [ "$orders_code" = 200 ]; then
      return 0
    fi
    sleep 1
  done
  return 1
}

# Reads a Payara Micro log for a failed deployment; prints boot-fault, deployment-failed, or nothing.
# boot-fault is a race in Payara's deployment, not a fault of the archive: the class loader of a
# deployment's prepare phase is held only weakly (DeploymentContextImpl.sharableTemp, Payara
# 6.2025) until it becomes the thread's context class loader, so a garbage collection in between
# leaves the deployment without one; Payara's connector validator then fails (NullPointerException
# at ConnectorValidator.getClass). Seen once in a few hundred starts here (2026-12-07, on the
# adapter); the same archive deploys on the next start.
mailbox_micro_deployment_failure() {
  local log="$1"
  [ -f "$log" ] || return 0 # not written yet
  if grep -qE 'Exception while (loading|deploying) the app' "$log"; then
    if grep -qF 'the return value of "java.lang.Thread.getContextClassLoader()" is null' "$log"; then
      echo boot-fault
    else
      echo deployment-failed
    fi
  fi
}
