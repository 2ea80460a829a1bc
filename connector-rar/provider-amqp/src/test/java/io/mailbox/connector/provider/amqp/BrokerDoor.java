package io.mailbox.connector.provider.amqp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A port that stands for a broker that is not there yet: nothing listens on it until {@link #open}
 * forwards it to the real RabbitMQ. Lets a test start a provider while "the broker is down" and
 * bring the broker back without touching the shared RabbitMQ other tests use.
 */
final class BrokerDoor implements AutoCloseable {
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile ServerSocket listener;

  BrokerDoor() throws IOException {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort(); // free now; nothing listens until open()
    }
  }

  int port() {
    return port;
  }

  /** Starts forwarding the port to {@code 127.0.0.1:targetPort}. */
  void open(int targetPort) throws IOException {
    listener = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
    Thread acceptor =
        new Thread(
            () -> {
              while (!listener.isClosed()) {
                try {
                  Socket client = listener.accept();
                  Socket broker = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                  sockets.add(client);
                  sockets.add(broker);
                  pipe(client, broker);
                  pipe(broker, client);
                } catch (IOException closed) {
                  return;
                }
              }
            },
            "broker-door-" + port);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private void pipe(Socket from, Socket to) {
    Thread copier =
        new Thread(
            () -> {
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
              } catch (IOException ended) {
                // one side closed: the other follows
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "broker-door-pipe");
    copier.setDaemon(true);
    copier.start();
  }

  @Override
  public void close() {
    if (listener != null) {
      closeQuietly(listener);
    }
    sockets.forEach(BrokerDoor::closeQuietly);
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // closing anyway
    }
  }
}
