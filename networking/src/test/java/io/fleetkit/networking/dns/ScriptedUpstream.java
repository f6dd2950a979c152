package io.fleetkit.networking.dns;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A UDP "resolver" on a loopback port for forwarding tests: it records every query and sends back the datagrams a
 * script makes of it (none for a silent upstream). Closed by {@link #close()}.
 */
final class ScriptedUpstream implements AutoCloseable {
  private final DatagramSocket socket;
  private final List<byte[]> received = new CopyOnWriteArrayList<>();
  private final Thread thread;

  ScriptedUpstream(Function<byte[], List<byte[]>> script) throws IOException {
    socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    thread = new Thread(() -> {
      byte[] buf = new byte[65535];
      while (!socket.isClosed()) {
        try {
          DatagramPacket p = new DatagramPacket(buf, buf.length);
          socket.receive(p);
          byte[] q = java.util.Arrays.copyOf(buf, p.getLength());
          received.add(q);
          for (byte[] out : script.apply(q)) {
            socket.send(new DatagramPacket(out, out.length, p.getSocketAddress()));
          }
        } catch (IOException | RuntimeException e) {
          // closed, or a script failure: the test sees no answer
        }
      }
    }, "scripted-upstream");
    thread.setDaemon(true);
    thread.start();
  }

  /** A silent upstream: it receives and never answers. */
  static ScriptedUpstream silent() throws IOException {
    return new ScriptedUpstream(q -> List.of());
  }

  Upstream upstream() {
    return new Upstream("127.0.0.1", socket.getLocalPort());
  }

  /** The queries received so far, as sent. */
  List<byte[]> received() {
    return List.copyOf(received);
  }

  @Override
  public void close() {
    socket.close();
  }
}
