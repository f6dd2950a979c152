package io.fleetkit.networking.dns;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;

/**
 * A UDP (and, from {@link #withTcp}, TCP on the same port) "resolver" on a loopback port for forwarding tests: it
 * records every query with its transport and sends back the messages a script makes of it (none for a silent
 * upstream; over TCP the connection is then held open until the client gives up). Closed by {@link #close()}.
 */
final class ScriptedUpstream implements AutoCloseable {
  /** A query as received, and whether it came over TCP. */
  record Received(byte[] wire, boolean tcp) {
    /** The question's name as sent ({@code "."} for a health check's default), or "" when it does not parse. */
    String name() {
      Message m = parse();
      return m == null || m.getQuestion() == null ? "" : m.getQuestion().getName().toString();
    }

    /** Whether the query has recursion desired. */
    boolean recursionDesired() {
      Message m = parse();
      return m != null && m.getHeader().getFlag(Flags.RD);
    }

    /** Whether this is a health check of the default domain: a {@code . NS} question. */
    boolean isRootProbe() {
      Message m = parse();
      return m != null && m.getQuestion() != null && m.getQuestion().getName().toString().equals(".")
          && m.getQuestion().getType() == org.xbill.DNS.Type.NS;
    }

    private @Nullable Message parse() {
      try {
        return new Message(wire);
      } catch (IOException e) {
        return null;
      }
    }
  }

  private final DatagramSocket socket;
  private final @Nullable ServerSocket tcp;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final Function<byte[], List<byte[]>> script;

  ScriptedUpstream(Function<byte[], List<byte[]>> script) throws IOException {
    this(script, false);
  }

  private ScriptedUpstream(Function<byte[], List<byte[]>> script, boolean withTcp) throws IOException {
    this.script = script;
    DatagramSocket udp = null;
    ServerSocket t = null;
    for (int tries = 0; t == null && withTcp; tries++) { // the TCP port of the UDP port's number may be taken
      udp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      try {
        t = new ServerSocket(udp.getLocalPort(), 16, InetAddress.getLoopbackAddress());
      } catch (IOException e) {
        udp.close();
        if (tries == 20) {
          throw e;
        }
      }
    }
    this.socket = withTcp ? udp : new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    this.tcp = t;
    start(this::serveUdp, "scripted-upstream-udp");
    if (t != null) {
      start(this::serveTcp, "scripted-upstream-tcp");
    }
  }

  private static void start(Runnable r, String name) {
    Thread thread = new Thread(r, name);
    thread.setDaemon(true);
    thread.start();
  }

  /** An upstream answering over UDP and TCP on one port, as the script says. */
  static ScriptedUpstream withTcp(Function<byte[], List<byte[]>> script) throws IOException {
    return new ScriptedUpstream(script, true);
  }

  /** A silent upstream: it receives and never answers. */
  static ScriptedUpstream silent() throws IOException {
    return new ScriptedUpstream(q -> List.of());
  }

  private void serveUdp() {
    byte[] buf = new byte[65535];
    while (!socket.isClosed()) {
      try {
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        socket.receive(p);
        byte[] q = java.util.Arrays.copyOf(buf, p.getLength());
        received.add(new Received(q, false));
        for (byte[] out : script.apply(q)) {
          socket.send(new DatagramPacket(out, out.length, p.getSocketAddress()));
        }
      } catch (IOException | RuntimeException e) {
        // closed, or a script failure: the test sees no answer
      }
    }
  }

  private void serveTcp() {
    ServerSocket server = java.util.Objects.requireNonNull(tcp);
    while (!server.isClosed()) {
      try {
        Socket c = server.accept();
        start(() -> serveConnection(c), "scripted-upstream-conn");
      } catch (IOException e) {
        // closed
      }
    }
  }

  private void serveConnection(Socket c) {
    try (c) {
      DataInputStream in = new DataInputStream(c.getInputStream());
      DataOutputStream out = new DataOutputStream(c.getOutputStream());
      while (true) {
        byte[] q = new byte[in.readUnsignedShort()];
        in.readFully(q);
        received.add(new Received(q, true));
        for (byte[] a : script.apply(q)) {
          out.writeShort(a.length);
          out.write(a);
        }
        out.flush();
      }
    } catch (IOException | RuntimeException e) {
      // the client closed, or a script failure
    }
  }

  Upstream upstream() {
    return new Upstream("127.0.0.1", socket.getLocalPort());
  }

  /** The queries received so far, as sent. */
  List<byte[]> received() {
    return received.stream().map(Received::wire).toList();
  }

  /** The queries received so far, with their transport. */
  List<Received> queries() {
    return List.copyOf(received);
  }

  /** The queries received so far that match {@code which}. */
  List<Received> queries(Predicate<Received> which) {
    return received.stream().filter(which).toList();
  }

  @Override
  public void close() {
    socket.close();
    if (tcp != null) {
      try {
        tcp.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
