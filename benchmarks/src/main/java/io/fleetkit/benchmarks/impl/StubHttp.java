package io.fleetkit.benchmarks.impl;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The stand-in API server's transport: HTTP/1.1 on 127.0.0.1 with persistent connections, one thread per connection
 * (blocked in a read while the connection is idle, as the connections of an HTTP client's pool are), Nagle's algorithm
 * off ({@code TCP_NODELAY}, as Go's net package sets on every connection of a real API server), and watch streams as
 * the API server serves them: chunked HTTP (one JSON watch event per line) or, when the client asks for an upgrade,
 * WebSocket (one JSON watch event per text frame, as the API server's {@code watch.go} sends them).
 *
 * <p>It does what a real server makes its client do (the client sends every request in full and reads every answer in
 * full, headers and body) and no more than a request needs: the request line, the headers (names case-insensitive),
 * a {@code Content-Length} or chunked body; an answer is its status line, {@code Content-Type}, {@code Content-Length}
 * and body in one write. The JDK's {@code com.sun.net.httpserver}, used before, cost about twice as much CPU per
 * request (a selector thread handing every exchange to a worker, header maps, two writes per answer).
 *
 * <p>Thread-safe; {@link #close} closes the listening socket and every connection.
 */
final class StubHttp implements AutoCloseable {
  /** The name of every thread of the transport (the acceptor and one per connection). */
  static final String THREAD_NAME = "stub-apiserver";
  private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  private static final int MAX_LINE = 64 * 1024;

  /** One request, read in full. */
  record Request(String method, String path, String query, Map<String, String> headers, byte[] body) {
    String header(String name) {
      return headers.getOrDefault(name.toLowerCase(Locale.ROOT), "");
    }
  }

  /** Answers one request; {@link Exchange#respond} once, or {@link Exchange#stream} for a watch. */
  interface Handler {
    void handle(Request request, Exchange exchange) throws IOException;
  }

  /** A stream of watch events to one client: {@link #send} one or more complete events, each ending in a newline. */
  interface EventStream {
    void send(String events) throws IOException;
  }

  /** The answer side of one request. */
  static final class Exchange {
    private final StubHttp server;
    private final Socket socket;
    private final OutputStream out;
    private final Request request;
    private boolean answered;
    private boolean streaming;

    private Exchange(StubHttp server, Socket socket, OutputStream out, Request request) {
      this.server = server;
      this.socket = socket;
      this.out = out;
      this.request = request;
    }

    /** Answers with a JSON body (status line, headers and body in one write). */
    void respond(int code, String body) throws IOException {
      if (answered) {
        throw new IllegalStateException("stub http: " + request.method() + " " + request.path() + " answered twice");
      }
      answered = true;
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      byte[] head = ("HTTP/1.1 " + code + " " + reason(code) + "\r\nContent-Type: application/json\r\nContent-Length: "
          + b.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
      byte[] all = new byte[head.length + b.length];
      System.arraycopy(head, 0, all, 0, head.length);
      System.arraycopy(b, 0, all, head.length, b.length);
      out.write(all);
      out.flush();
    }

    /**
     * Starts a watch stream and hands it to {@code body}, which sends events until it returns or a write fails (the
     * client went away); the connection is closed afterwards. WebSocket when the client asked for the upgrade, else
     * a chunked HTTP response.
     */
    void stream(StreamBody body) throws IOException {
      answered = true;
      streaming = true;
      if ("websocket".equalsIgnoreCase(request.header("upgrade"))) {
        webSocket(body);
      } else {
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        body.run(events -> {
          byte[] b = events.getBytes(StandardCharsets.UTF_8);
          byte[] size = (Integer.toHexString(b.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
          byte[] all = new byte[size.length + b.length + 2];
          System.arraycopy(size, 0, all, 0, size.length);
          System.arraycopy(b, 0, all, size.length, b.length);
          all[all.length - 2] = '\r';
          all[all.length - 1] = '\n';
          out.write(all);
          out.flush();
        });
      }
    }

    /** The WebSocket handshake (RFC 6455), then one text frame per watch event; answers the client's ping and close. */
    private void webSocket(StreamBody body) throws IOException {
      String key = request.header("sec-websocket-key");
      if (key.isEmpty()) {
        respond(400, "{\"kind\":\"Status\",\"status\":\"Failure\",\"code\":400,\"message\":\"no Sec-WebSocket-Key\"}");
        return;
      }
      String accept;
      try {
        accept = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
            .digest((key + WEBSOCKET_GUID).getBytes(StandardCharsets.ISO_8859_1)));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("stub http: no SHA-1", e);
      }
      server.webSockets.incrementAndGet();
      out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      Object writeLock = new Object();
      Thread reader = new Thread(() -> readClientFrames(writeLock), THREAD_NAME);
      reader.setDaemon(true);
      reader.start();
      body.run(events -> {
        int start = 0;
        for (int nl = events.indexOf('\n'); nl >= 0; start = nl + 1, nl = events.indexOf('\n', start)) {
          if (nl > start) {
            byte[] frame = frame(0x1, events.substring(start, nl).getBytes(StandardCharsets.UTF_8));
            synchronized (writeLock) {
              out.write(frame);
            }
          }
        }
        synchronized (writeLock) {
          out.flush();
        }
      });
    }

    /** Reads the client's frames (masked, RFC 6455 5.3): pong to a ping; close to a close, then ends the stream. */
    private void readClientFrames(Object writeLock) {
      try {
        InputStream in = socket.getInputStream();
        while (true) {
          int b0 = in.read();
          int b1 = in.read();
          if (b0 < 0 || b1 < 0) {
            return;
          }
          long len = b1 & 0x7f;
          if (len == 126) {
            len = (readByte(in) << 8) | readByte(in);
          } else if (len == 127) {
            len = 0;
            for (int i = 0; i < 8; i++) {
              len = (len << 8) | readByte(in);
            }
          }
          byte[] mask = (b1 & 0x80) != 0 ? in.readNBytes(4) : new byte[4];
          byte[] payload = in.readNBytes((int) len);
          for (int i = 0; i < payload.length; i++) {
            payload[i] ^= mask[i % 4];
          }
          int opcode = b0 & 0x0f;
          if (opcode == 0x8) {
            synchronized (writeLock) {
              out.write(frame(0x8, payload.length >= 2 ? new byte[] {payload[0], payload[1]} : new byte[0]));
              out.flush();
            }
            socket.close();
            return;
          } else if (opcode == 0x9) {
            synchronized (writeLock) {
              out.write(frame(0xA, payload));
              out.flush();
            }
          }
        }
      } catch (IOException e) {
        // the connection is gone: the stream's next write fails and ends it
      }
    }

    private static int readByte(InputStream in) throws IOException {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("stub http: websocket frame cut short");
      }
      return b;
    }

    /** A final, unmasked server frame. */
    private static byte[] frame(int opcode, byte[] payload) {
      int n = payload.length;
      int head = n < 126 ? 2 : n < 65536 ? 4 : 10;
      byte[] f = new byte[head + n];
      f[0] = (byte) (0x80 | opcode);
      if (n < 126) {
        f[1] = (byte) n;
      } else if (n < 65536) {
        f[1] = 126;
        f[2] = (byte) (n >>> 8);
        f[3] = (byte) n;
      } else {
        f[1] = 127;
        for (int i = 0; i < 8; i++) {
          f[2 + i] = (byte) ((long) n >>> (8 * (7 - i)));
        }
      }
      System.arraycopy(payload, 0, f, head, n);
      return f;
    }
  }

  /** The body of a watch stream: sends events through the stream until the watch ends. */
  interface StreamBody {
    void run(EventStream stream) throws IOException;
  }

  private final ServerSocket listener;
  private final Handler handler;
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private final AtomicInteger webSockets = new AtomicInteger();
  private volatile boolean closed;

  StubHttp(Handler handler) {
    this.handler = handler;
    try {
      listener = new ServerSocket(0, 512, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}));
    } catch (IOException e) {
      throw new UncheckedIOException("stub http: cannot listen on 127.0.0.1", e);
    }
    Thread acceptor = new Thread(this::accept, THREAD_NAME);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  /** Streams upgraded to WebSocket so far. */
  int webSockets() {
    return webSockets.get();
  }

  private void accept() {
    while (!closed) {
      Socket s;
      try {
        s = listener.accept();
        s.setTcpNoDelay(true);
      } catch (IOException e) {
        continue; // closed, or a connection that failed before it was accepted
      }
      connections.add(s);
      Thread t = new Thread(() -> serve(s), THREAD_NAME);
      t.setDaemon(true);
      t.start();
    }
  }

  /** Serves the requests of one connection in turn until the client closes it, asks to, or a stream ends. */
  private void serve(Socket s) {
    try (s) {
      Input in = new Input(s.getInputStream());
      OutputStream out = s.getOutputStream();
      while (!closed) {
        Request r = read(in);
        if (r == null) {
          return;
        }
        Exchange ex = new Exchange(this, s, out, r);
        handler.handle(r, ex);
        if (ex.streaming || "close".equalsIgnoreCase(r.header("connection"))) {
          return;
        }
        if (!ex.answered) {
          ex.respond(500, "{\"kind\":\"Status\",\"status\":\"Failure\",\"code\":500,\"message\":\"no answer\"}");
        }
      }
    } catch (IOException e) {
      // the client closed the connection, or the server is closing
    } finally {
      connections.remove(s);
    }
  }

  /** The next request on the connection, or {@code null} at its end. */
  private static Request read(Input in) throws IOException {
    String line = line(in);
    if (line == null) {
      return null;
    }
    int sp1 = line.indexOf(' ');
    int sp2 = line.indexOf(' ', sp1 + 1);
    if (sp1 <= 0 || sp2 <= sp1) {
      throw new IOException("stub http: bad request line: " + line);
    }
    String method = line.substring(0, sp1);
    String target = line.substring(sp1 + 1, sp2);
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String query = q < 0 ? "" : target.substring(q + 1);
    Map<String, String> headers = new HashMap<>();
    for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
      int colon = h.indexOf(':');
      if (colon > 0) {
        headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
      }
    }
    byte[] body;
    String length = headers.get("content-length");
    if (length != null) {
      body = in.readNBytes(Integer.parseInt(length));
    } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      for (int n = chunkSize(line(in)); n > 0; n = chunkSize(line(in))) {
        b.write(in.readNBytes(n));
        line(in); // the CRLF after the chunk
      }
      for (String t = line(in); t != null && !t.isEmpty(); t = line(in)) {
        // trailers: none expected
      }
      body = b.toByteArray();
    } else {
      body = new byte[0];
    }
    return new Request(method, path, query, headers, body);
  }

  private static int chunkSize(String line) throws IOException {
    if (line == null) {
      throw new EOFException("stub http: chunked body cut short");
    }
    int semi = line.indexOf(';');
    return Integer.parseInt((semi < 0 ? line : line.substring(0, semi)).trim(), 16);
  }

  /** One CRLF-terminated line (ISO-8859-1), or {@code null} at the end of the stream before any byte. */
  private static String line(Input in) throws IOException {
    return in.line();
  }

  /**
   * A connection's input, buffered without a lock per byte ({@code BufferedInputStream.read()} takes its monitor on
   * every call, and a request's head is read a byte at a time): request heads are scanned in the buffer.
   */
  private static final class Input {
    private final InputStream in;
    private final byte[] buf = new byte[16 * 1024];
    private int pos;
    private int limit;

    Input(InputStream in) {
      this.in = in;
    }

    /** Refills the buffer; false at the end of the stream. */
    private boolean fill() throws IOException {
      pos = 0;
      limit = 0;
      int n = in.read(buf, 0, buf.length);
      if (n <= 0) {
        return false;
      }
      limit = n;
      return true;
    }

    String line() throws IOException {
      StringBuilder sb = null;
      while (true) {
        if (pos == limit && !fill()) {
          if (sb == null || sb.length() == 0) {
            return null;
          }
          throw new EOFException("stub http: connection closed within a line");
        }
        int start = pos;
        int i = start;
        while (i < limit && buf[i] != '\n') {
          i++;
        }
        if (i < limit) {
          pos = i + 1;
          int end = i > start && buf[i - 1] == '\r' ? i - 1 : i;
          if (sb == null) {
            return new String(buf, start, end - start, StandardCharsets.ISO_8859_1);
          }
          sb.append(new String(buf, start, i - start, StandardCharsets.ISO_8859_1));
          int n = sb.length();
          return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
        }
        if (sb == null) {
          sb = new StringBuilder(128);
        }
        sb.append(new String(buf, start, limit - start, StandardCharsets.ISO_8859_1));
        pos = limit;
        if (sb.length() > MAX_LINE) {
          throw new IOException("stub http: line longer than " + MAX_LINE + " bytes");
        }
      }
    }

    byte[] readNBytes(int n) throws IOException {
      byte[] out = new byte[n];
      int have = Math.min(n, limit - pos);
      System.arraycopy(buf, pos, out, 0, have);
      pos += have;
      while (have < n) {
        int r = in.read(out, have, n - have);
        if (r < 0) {
          throw new EOFException("stub http: body cut short");
        }
        have += r;
      }
      return out;
    }
  }

  private static String reason(int code) {
    return switch (code) {
      case 101 -> "Switching Protocols";
      case 200 -> "OK";
      case 201 -> "Created";
      case 400 -> "Bad Request";
      case 404 -> "Not Found";
      case 409 -> "Conflict";
      case 500 -> "Internal Server Error";
      default -> "Status";
    };
  }

  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Socket s : connections) {
      try {
        s.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }

}
