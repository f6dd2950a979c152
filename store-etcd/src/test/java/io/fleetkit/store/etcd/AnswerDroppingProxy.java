package io.fleetkit.store.etcd;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on 127.0.0.1 between a gRPC client and etcd that can lose one answer: once {@linkplain #dropAnswerTo
 * armed} with a gRPC method ({@code /etcdserverpb.KV/Txn}), it forwards the next request to that method to etcd
 * whole, waits for etcd's answer to begin (so etcd has executed the request) and then, instead of passing the answer
 * on, closes both connections. The client sees its connection drop with the request sent and no answer: exactly
 * what a client sees when the member it talks to dies or a network path breaks after committing its write.
 *
 * <p>It reads HTTP/2 frames in both directions (h2c, as the test etcd speaks in clear) and decodes the client's
 * header blocks with Netty's HPACK decoder to find the request's {@code :path}; everything else is copied unchanged.
 * Later connections (the client reconnects) pass through until it is armed again.
 */
final class AnswerDroppingProxy implements AutoCloseable {
  private static final byte[] PREFACE =
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final int DATA = 0x0;
  private static final int HEADERS = 0x1;
  private static final int CONTINUATION = 0x9;
  private static final int FLAG_END_HEADERS = 0x4;
  private static final int FLAG_PADDED = 0x8;
  private static final int FLAG_PRIORITY = 0x20;

  private final InetSocketAddress target;
  private final ServerSocket server;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicReference<String> armedFor = new AtomicReference<>();
  private final AtomicInteger dropped = new AtomicInteger();
  private final Thread acceptor;
  private volatile boolean closed;

  /** Listens on an ephemeral port of 127.0.0.1 and forwards to {@code etcd} ({@code http://host:port}). */
  AnswerDroppingProxy(String etcd) throws IOException {
    URI u = URI.create(etcd);
    this.target = new InetSocketAddress(u.getHost(), u.getPort());
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "answer-dropping-proxy");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The proxy's endpoint, {@code http://127.0.0.1:PORT}. */
  String endpoint() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /** The next request to gRPC method {@code path} reaches etcd, and its answer is lost with the connection. */
  void dropAnswerTo(String path) {
    armedFor.set(path);
  }

  /** How many answers were dropped so far. */
  int dropped() {
    return dropped.get();
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket();
        upstream.connect(target, 5_000);
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        sockets.add(client);
        sockets.add(upstream);
        new Connection(client, upstream).start();
      } catch (IOException e) {
        if (!closed) {
          throw new IllegalStateException("proxy could not accept or connect to " + target, e);
        }
      }
    }
  }

  /** One proxied client connection: a pump each way. */
  private final class Connection {
    private final Socket client;
    private final Socket upstream;
    /** The stream whose answer is to be lost, once the request to drop was seen on this connection; else 0. */
    private volatile int victim;
    private final DefaultHttp2HeadersDecoder hpack = new DefaultHttp2HeadersDecoder(false);

    Connection(Socket client, Socket upstream) {
      this.client = client;
      this.upstream = upstream;
    }

    void start() {
      thread("requests", this::requests).start();
      thread("answers", this::answers).start();
    }

    private Thread thread(String name, Runnable r) {
      Thread t = new Thread(() -> {
        try {
          r.run();
        } finally {
          closeQuietly(client);
          closeQuietly(upstream);
        }
      }, "answer-dropping-proxy-" + name);
      t.setDaemon(true);
      return t;
    }

    /** Client to etcd: copies the preface and every frame, decoding header blocks to find the request to drop. */
    private void requests() {
      try {
        DataInputStream in = new DataInputStream(client.getInputStream());
        OutputStream out = upstream.getOutputStream();
        byte[] preface = new byte[PREFACE.length];
        in.readFully(preface);
        out.write(preface);
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        int blockStream = 0;
        while (true) {
          Frame f = Frame.read(in);
          if (f.type == HEADERS) {
            block.reset();
            blockStream = f.stream;
            block.write(f.headerFragment());
          } else if (f.type == CONTINUATION) {
            block.write(f.payload);
          }
          if ((f.type == HEADERS || f.type == CONTINUATION) && (f.flags & FLAG_END_HEADERS) != 0) {
            Http2Headers h = hpack.decodeHeaders(blockStream, Unpooled.wrappedBuffer(block.toByteArray()));
            CharSequence path = h.path();
            String armed = armedFor.get();
            if (armed != null && victim == 0 && path != null && armed.contentEquals(path)
                && armedFor.compareAndSet(armed, null)) {
              victim = blockStream;
            }
          }
          f.write(out);
        }
      } catch (IOException | Http2Exception e) {
        // the connection ended (or was ended by answers())
      }
    }

    /** etcd to client: copies every frame until etcd answers the victim stream, then drops it and both ends. */
    private void answers() {
      try {
        DataInputStream in = new DataInputStream(upstream.getInputStream());
        OutputStream out = client.getOutputStream();
        while (true) {
          Frame f = Frame.read(in);
          // The answer's HEADERS (or DATA): etcd sends them once the request has executed. Other frames of the
          // stream (a flow-control WINDOW_UPDATE) may come earlier and pass.
          if (victim != 0 && f.stream == victim && (f.type == HEADERS || f.type == DATA)) {
            dropped.incrementAndGet();
            // Abort, not a clean close: the client learns only that the connection is gone.
            client.setSoLinger(true, 0);
            return;
          }
          f.write(out);
        }
      } catch (IOException e) {
        // the connection ended
      }
    }
  }

  /** One HTTP/2 frame: 9 octets of header (length, type, flags, stream) and its payload. */
  private record Frame(int type, int flags, int stream, byte[] header, byte[] payload) {
    static Frame read(DataInputStream in) throws IOException {
      byte[] header = new byte[9];
      in.readFully(header);
      int length = ((header[0] & 0xff) << 16) | ((header[1] & 0xff) << 8) | (header[2] & 0xff);
      int stream = ((header[5] & 0x7f) << 24) | ((header[6] & 0xff) << 16) | ((header[7] & 0xff) << 8)
          | (header[8] & 0xff);
      byte[] payload = new byte[length];
      in.readFully(payload);
      return new Frame(header[3] & 0xff, header[4] & 0xff, stream, header, payload);
    }

    /** A HEADERS frame's header block fragment: the payload without padding and priority fields. */
    byte[] headerFragment() throws EOFException {
      int from = 0;
      int to = payload.length;
      if ((flags & FLAG_PADDED) != 0) {
        int pad = payload[0] & 0xff;
        from = 1;
        to -= pad;
      }
      if ((flags & FLAG_PRIORITY) != 0) {
        from += 5;
      }
      if (from > to) {
        throw new EOFException("malformed HEADERS frame");
      }
      return java.util.Arrays.copyOfRange(payload, from, to);
    }

    void write(OutputStream out) throws IOException {
      out.write(header);
      out.write(payload);
      out.flush();
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    for (Socket s : sockets) {
      closeQuietly(s);
    }
  }
}
