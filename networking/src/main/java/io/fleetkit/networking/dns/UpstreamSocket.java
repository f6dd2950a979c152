package io.fleetkit.networking.dns;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;

/**
 * One DNS message exchange with an {@link Upstream} over a fresh UDP or TCP socket (connections are not reused), for
 * {@link Forwarder}'s queries and its health checks. The answer is the first message carrying the query's id and the
 * response flag; messages with another id (a late answer to an earlier query, or a forgery) are read past, as
 * CoreDNS does. Stateless; each call blocks its thread for at most the timeout.
 */
final class UpstreamSocket {
  private static final int HEADER = 12;

  private UpstreamSocket() {}

  /**
   * Sends {@code query} (whose first two bytes are its id) to {@code u} and returns the answer's bytes.
   *
   * @param tcp TCP with the two-byte length prefix, else one UDP datagram
   * @throws IOException when the upstream cannot be reached or nothing answers within {@code timeout}
   */
  static byte[] exchange(Upstream u, byte[] query, boolean tcp, Duration timeout) throws IOException {
    int id = ((query[0] & 0xff) << 8) | (query[1] & 0xff);
    long end = System.nanoTime() + timeout.toNanos();
    return tcp ? tcp(u, query, id, end) : udp(u, query, id, end);
  }

  /** Whether {@code wire} (answer bytes) has the TC flag. */
  static boolean truncated(byte[] wire) {
    return wire.length > 2 && (wire[2] & 0x02) != 0;
  }

  private static boolean isAnswerTo(byte[] b, int len, int id) {
    return len >= HEADER && (((b[0] & 0xff) << 8) | (b[1] & 0xff)) == id && (b[2] & 0x80) != 0;
  }

  private static byte[] udp(Upstream u, byte[] query, int id, long end) throws IOException {
    try (DatagramSocket s = new DatagramSocket()) {
      s.connect(u.socketAddress());
      s.send(new DatagramPacket(query, query.length));
      byte[] buf = new byte[65535];
      DatagramPacket p = new DatagramPacket(buf, buf.length);
      while (true) {
        s.setSoTimeout(millisUntil(end));
        p.setLength(buf.length);
        s.receive(p);
        if (isAnswerTo(buf, p.getLength(), id)) {
          return Arrays.copyOf(buf, p.getLength());
        }
      }
    }
  }

  private static byte[] tcp(Upstream u, byte[] query, int id, long end) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(u.socketAddress(), millisUntil(end));
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeShort(query.length);
      out.write(query);
      out.flush();
      DataInputStream in = new DataInputStream(s.getInputStream());
      while (true) {
        s.setSoTimeout(millisUntil(end));
        byte[] buf = new byte[in.readUnsignedShort()];
        in.readFully(buf);
        if (isAnswerTo(buf, buf.length, id)) {
          return buf;
        }
      }
    }
  }

  private static int millisUntil(long end) throws SocketTimeoutException {
    long left = (end - System.nanoTime()) / 1_000_000L;
    if (left <= 0) {
      throw new SocketTimeoutException("no answer within the read timeout");
    }
    return (int) Math.min(Integer.MAX_VALUE, left);
  }
}
