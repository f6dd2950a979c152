package io.fleetkit.networking.dns;

import io.fleetkit.networking.ipam.IpAddress;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Header;
import org.xbill.DNS.Message;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.PTRRecord;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.SRVRecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * A DNS server for the cluster zone, answering with {@link ClusterDns} over UDP and TCP (RFC 1035/7766 framing) on
 * one address and port. Built for hostile input: a packet that does not parse gets FORMERR when its header can be
 * read and is dropped otherwise; names over 255 bytes are rejected by the parser; EDNS follows RFC 6891 as CoreDNS
 * does (an OPT in the query gets one back, more than one OPT is FORMERR, a version other than 0 is BADVERS); a UDP
 * answer larger than the client's buffer (512 bytes, or its EDNS size) is truncated with TC set; TCP connections are
 * capped ({@link Builder#maxTcpConnections}) and closed when a message, its length prefix and body, has not arrived
 * whole within 5 s of the previous answer (or of connecting); a flood of UDP queries only costs CPU, the socket drops
 * what it cannot hold. Never throws from its serving threads.
 *
 * <p>Names outside the zones {@link ClusterDns} answers ({@link ClusterDns#authoritativeFor}) are REFUSED, or, with a
 * {@link Builder#forward forwarder}, sent on to its upstreams as CoreDNS's {@code forward .} plugin does, over the
 * client's transport unless the forwarder says otherwise: the upstream's answer is relayed with the client's id
 * (truncated to the client's UDP size), SERVFAIL when no upstream answers or the name is one the forwarder excepts.
 * The server does not close the forwarder (its health checks), its owner does. Names inside them are never forwarded (no {@code fallthrough}); an A or AAAA question for an ExternalName
 * whose target is outside them gets the target's addresses from the upstreams after the CNAME
 * ({@link ClusterDns#resolve(DnsSnapshot, String, RecordType, java.util.function.BiFunction)}). A UDP query that
 * needs the upstreams is answered from another thread, so a slow upstream holds no receiving thread; answers with
 * upstream records are not cached.
 *
 * <p>Speed: each UDP thread receives on its own socket bound to the shared port ({@code SO_REUSEPORT}, where the
 * platform has it; the kernel spreads clients over them), and the encoded answer of a plain query is kept per
 * snapshot ({@link AnswerCache}) so that a repeated question costs a lookup and a copy.
 *
 * <p>Lifecycle: {@link #start()} binds and starts the threads (daemon threads named {@code fleetkit-dns-*});
 * {@link #close()} stops them. Thread-safe.
 */
public final class DnsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DnsServer.class);
  static final int MAX_UDP = 4096;

  private final ClusterDns dns;
  private final @Nullable Forwarder forwarder;
  private final @Nullable ExternalDns external;
  private final Supplier<DnsSnapshot> snapshots;
  private final InetAddress bindAddress;
  private final int requestedPort;
  private final int udpThreads;
  private final Semaphore tcpSlots;
  private final int tcpIdleMillis;
  private final AtomicLong queries = new AtomicLong();
  private final AtomicLong malformed = new AtomicLong();
  private final AnswerCache cache = new AnswerCache();
  private List<DatagramSocket> udp = List.of();
  private @Nullable ServerSocket tcp;
  private @Nullable ExecutorService threads;
  private volatile boolean running;

  private DnsServer(Builder b) {
    this.dns = b.dns;
    this.forwarder = b.forwarder;
    this.external = b.external;
    this.snapshots = Objects.requireNonNull(b.snapshots, "snapshots");
    this.bindAddress = b.bindAddress;
    this.requestedPort = b.port;
    this.udpThreads = b.udpThreads;
    this.tcpSlots = new Semaphore(b.maxTcpConnections);
    this.tcpIdleMillis = b.tcpIdleMillis;
  }

  public static Builder builder(Supplier<DnsSnapshot> snapshots) {
    return new Builder(snapshots);
  }

  /**
   * Binds UDP and TCP on the same port (an ephemeral one when the builder's port is 0) and starts serving.
   *
   * @throws IOException when the port cannot be bound
   * @throws IllegalStateException when already started
   */
  public synchronized DnsServer start() throws IOException {
    if (running) {
      throw new IllegalStateException("DNS server already started on port " + port());
    }
    ServerSocket t = new ServerSocket();
    t.setReuseAddress(true);
    t.bind(new InetSocketAddress(bindAddress, requestedPort), 128);
    List<DatagramSocket> u = new ArrayList<>();
    try {
      InetSocketAddress at = new InetSocketAddress(bindAddress, t.getLocalPort());
      DatagramChannel first = udpChannel(at);
      boolean reusePort = udpThreads > 1 && first.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT);
      if (reusePort) {
        first.setOption(StandardSocketOptions.SO_REUSEPORT, true);
      }
      first.bind(at);
      u.add(first.socket());
      for (int i = 1; reusePort && i < udpThreads; i++) {
        DatagramChannel ch = udpChannel(at);
        ch.setOption(StandardSocketOptions.SO_REUSEPORT, true);
        ch.bind(at);
        u.add(ch.socket());
      }
    } catch (IOException e) {
      u.forEach(DatagramSocket::close);
      t.close();
      throw e;
    }
    tcp = t;
    udp = List.copyOf(u);
    running = true;
    ExecutorService ex = Executors.newCachedThreadPool(r -> {
      Thread th = new Thread(r, "fleetkit-dns-" + t.getLocalPort());
      th.setDaemon(true);
      return th;
    });
    threads = ex;
    for (int i = 0; i < udpThreads; i++) {
      DatagramSocket socket = udp.get(i % udp.size());
      ex.execute(() -> udpLoop(socket));
    }
    ex.execute(this::tcpAcceptLoop);
    return this;
  }

  private static DatagramChannel udpChannel(InetSocketAddress at) throws IOException {
    DatagramChannel ch = DatagramChannel.open(at.getAddress() instanceof java.net.Inet6Address
        ? java.net.StandardProtocolFamily.INET6 : java.net.StandardProtocolFamily.INET);
    try {
      ch.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 20);
    } catch (IOException e) {
      ch.close();
      throw e;
    }
    return ch;
  }

  /** The bound port. */
  public int port() {
    ServerSocket t = tcp;
    return t == null ? requestedPort : t.getLocalPort();
  }

  /** Queries answered so far (UDP and TCP). */
  public long queries() {
    return queries.get();
  }

  /** Packets that did not parse. */
  public long malformed() {
    return malformed.get();
  }

  @Override
  public synchronized void close() {
    running = false;
    udp.forEach(DatagramSocket::close);
    if (tcp != null) {
      try {
        tcp.close();
      } catch (IOException e) {
        LOG.debug("closing DNS TCP socket: {}", e.toString());
      }
    }
    if (threads != null) {
      threads.shutdownNow();
    }
  }

  private void udpLoop(DatagramSocket u) {
    byte[] buf = new byte[MAX_UDP];
    DatagramPacket p = new DatagramPacket(buf, buf.length);
    DatagramPacket reply = new DatagramPacket(new byte[0], 0);
    while (running) {
      try {
        p.setLength(buf.length);
        u.receive(p);
        java.net.SocketAddress client = p.getSocketAddress();
        byte[] out = answer(buf, p.getLength(), true, later -> sendLater(u, later, client));
        if (out != null) {
          reply.setData(out);
          reply.setSocketAddress(p.getSocketAddress());
          u.send(reply);
        }
      } catch (SocketException e) {
        if (running) {
          LOG.debug("DNS UDP socket: {}", e.toString());
        }
      } catch (IOException | RuntimeException e) {
        LOG.debug("DNS UDP query failed: {}", e.toString());
      }
    }
  }

  private void sendLater(DatagramSocket u, byte[] out, java.net.SocketAddress client) {
    try {
      u.send(new DatagramPacket(out, out.length, client));
    } catch (IOException | RuntimeException e) {
      LOG.debug("DNS UDP forwarded answer not sent: {}", e.toString());
    }
  }

  private void tcpAcceptLoop() {
    ServerSocket t = Objects.requireNonNull(tcp);
    ExecutorService ex = Objects.requireNonNull(threads);
    while (running) {
      try {
        Socket s = t.accept();
        if (!tcpSlots.tryAcquire()) {
          s.close();
          continue;
        }
        ex.execute(() -> {
          try {
            serveTcp(s);
          } finally {
            tcpSlots.release();
          }
        });
      } catch (IOException | RuntimeException e) {
        if (running) {
          LOG.debug("DNS TCP accept: {}", e.toString());
        }
      }
    }
  }

  private void serveTcp(Socket s) {
    try (s) {
      DataInputStream in = new DataInputStream(s.getInputStream());
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      byte[] prefix = new byte[2];
      while (running) {
        // the whole message, length prefix and body, within the idle time: a client trickling bytes cannot hold
        // one of the few connection slots (miekg/dns, CoreDNS's server, sets one read deadline per message too)
        long deadline = System.nanoTime() + tcpIdleMillis * 1_000_000L;
        if (!readFully(s, in, prefix, deadline)) {
          return;
        }
        int len = ((prefix[0] & 0xff) << 8) | (prefix[1] & 0xff);
        byte[] buf = new byte[len];
        if (!readFully(s, in, buf, deadline)) {
          return;
        }
        byte[] resp = answer(buf, len, false);
        if (resp == null) {
          return;
        }
        out.writeShort(resp.length);
        out.write(resp);
        out.flush();
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("DNS TCP connection: {}", e.toString());
    }
  }

  /**
   * Fills {@code buf} from {@code in} before {@code deadline} ({@link System#nanoTime()}); {@code false} when the
   * stream ends first.
   *
   * @throws java.net.SocketTimeoutException when the deadline passes
   */
  private static boolean readFully(Socket s, DataInputStream in, byte[] buf, long deadline) throws IOException {
    int n = 0;
    while (n < buf.length) {
      long left = (deadline - System.nanoTime()) / 1_000_000L;
      if (left <= 0) {
        throw new java.net.SocketTimeoutException("DNS TCP message not complete within the idle time");
      }
      s.setSoTimeout((int) left);
      int r = in.read(buf, n, buf.length - n);
      if (r < 0) {
        return false;
      }
      n += r;
    }
    return true;
  }

  /** The wire answer to a wire query, or {@code null} to drop it; a forwarded query waits for its upstream. */
  byte @Nullable [] answer(byte[] buf, int len, boolean udpTransport) {
    return answer(buf, len, udpTransport, null);
  }

  /** A response, and whether it may be cached (not a forwarded one). */
  private record Resolved(byte @Nullable [] wire, boolean cacheable) {
    static final Resolved DROP = new Resolved(null, false);
  }

  /**
   * The wire answer to a wire query, or {@code null} to drop it or when {@code later} is given and the query is
   * forwarded: then the answer is handed to {@code later} from another thread.
   */
  private byte @Nullable [] answer(byte[] buf, int len, boolean udpTransport, @Nullable Consumer<byte[]> later) {
    DnsSnapshot snapshot = snapshots.get();
    AnswerCache.Key key = AnswerCache.keyOf(buf, len, udpTransport);
    if (key != null) {
      byte[] cached = cache.get(snapshot, key);
      if (cached != null) {
        queries.incrementAndGet();
        byte[] out = cached.clone();
        out[0] = buf[0];
        out[1] = buf[1];
        return out;
      }
    }
    Resolved r = resolve(snapshot, buf, len, udpTransport, later);
    byte[] out = r.wire();
    int rcode = out == null ? -1 : out[3] & 0x0f;
    if (key != null && r.cacheable() && (rcode == org.xbill.DNS.Rcode.NOERROR
        || rcode == org.xbill.DNS.Rcode.NXDOMAIN)) {
      cache.put(snapshot, key, out.clone());
    }
    return out;
  }

  /** How many encoded answers are cached. */
  int cachedAnswers() {
    return cache.size();
  }

  private Resolved resolve(DnsSnapshot snapshot, byte[] buf, int len, boolean udpTransport,
      @Nullable Consumer<byte[]> later) {
    byte[] wire = len == buf.length ? buf : java.util.Arrays.copyOf(buf, len);
    Message query;
    try {
      query = new Message(wire);
    } catch (IOException | RuntimeException e) {
      malformed.incrementAndGet();
      return new Resolved(len >= Header.LENGTH ? formerr(wire) : null, true);
    }
    Header qh = query.getHeader();
    if (qh.getFlag(Flags.QR)) {
      return Resolved.DROP; // never answer a response: that is how reflection loops start
    }
    queries.incrementAndGet();
    Message resp = new Message(qh.getID());
    Header h = resp.getHeader();
    h.setFlag(Flags.QR);
    if (qh.getFlag(Flags.RD)) {
      h.setFlag(Flags.RD);
    }
    h.setOpcode(qh.getOpcode());
    Record question = query.getQuestion();
    if (qh.getOpcode() != Opcode.QUERY) {
      h.setRcode(org.xbill.DNS.Rcode.NOTIMP);
      return new Resolved(resp.toWire(), true);
    }
    if (question == null || query.getSection(Section.QUESTION).size() != 1) {
      h.setRcode(org.xbill.DNS.Rcode.FORMERR);
      return new Resolved(resp.toWire(), true);
    }
    resp.addRecord(question, Section.QUESTION);
    OPTRecord opt = query.getOPT();
    long opts = query.getSection(Section.ADDITIONAL).stream().filter(r -> r.getType() == Type.OPT).count();
    if (opts > 1) {
      h.setRcode(org.xbill.DNS.Rcode.FORMERR); // RFC 6891 6.1.1: more than one OPT record
      return new Resolved(resp.toWire(), true);
    }
    if (opt != null && opt.getVersion() != 0) {
      // RFC 6891 6.1.3, as CoreDNS's edns.Version: BADVERS (an extended rcode), our OPT at version 0
      resp.addRecord(new OPTRecord(MAX_UDP, org.xbill.DNS.Rcode.BADVERS >>> 4, 0), Section.ADDITIONAL);
      return new Resolved(resp.toWire(), true);
    }
    if (opt != null) {
      // RFC 6891 7: a query with an OPT gets one back (written last, whatever the truncation)
      resp.addRecord(new OPTRecord(MAX_UDP, 0, 0), Section.ADDITIONAL);
    }
    int max = !udpTransport ? 65535 : opt == null ? 512 : Math.max(512, Math.min(opt.getPayloadSize(), MAX_UDP));
    Forwarder f = forwarder;
    ExternalDns ext = external;
    boolean externalZone = ext != null && ext.zoneOf(question.getName().toString()).isPresent();
    if (f != null && !externalZone && !dns.authoritativeFor(question.getName().toString())) {
      if (later == null) {
        return new Resolved(forward(f, query, !udpTransport, resp, max), false);
      }
      Objects.requireNonNull(threads).execute(() -> {
        try {
          later.accept(forward(f, query, !udpTransport, resp, max));
        } catch (RuntimeException e) {
          LOG.debug("DNS forwarded query failed: {}", e.toString());
        }
      });
      return Resolved.DROP;
    }
    if (question.getDClass() != DClass.IN && question.getDClass() != DClass.ANY) {
      h.setRcode(org.xbill.DNS.Rcode.REFUSED);
      return new Resolved(resp.toWire(), true);
    }
    String qname = question.getName().toString();
    RecordType qtype = typeOf(question.getType());
    if (externalZone) {
      // k8s_external comes before kubernetes in CoreDNS's plugin chain
      return new Resolved(encode(resp, Objects.requireNonNull(ext).resolve(snapshot, qname, qtype).orElseThrow(),
          max), true);
    }
    DnsResponse r = dns.resolve(snapshot, qname, qtype);
    if (f != null && (qtype == RecordType.A || qtype == RecordType.AAAA) && cnameLeavesZones(r)) {
      // an ExternalName outside the zones: its target's addresses come from the upstreams, as CoreDNS asks its own
      java.util.function.BiFunction<String, RecordType, DnsResponse> upstream =
          (n, t) -> f.resolve(n, t, !udpTransport);
      if (later == null) {
        return new Resolved(encode(resp, dns.resolve(snapshot, qname, qtype, upstream), max), false);
      }
      Objects.requireNonNull(threads).execute(() -> {
        try {
          later.accept(encode(resp, dns.resolve(snapshot, qname, qtype, upstream), max));
        } catch (RuntimeException e) {
          LOG.debug("DNS ExternalName lookup upstream failed: {}", e.toString());
        }
      });
      return Resolved.DROP;
    }
    return new Resolved(encode(resp, r, max), true);
  }

  /** Whether an answer holds a CNAME to a name outside the zones this server answers. */
  private boolean cnameLeavesZones(DnsResponse r) {
    return r.answers().stream().anyMatch(a -> a.type() == RecordType.CNAME && !dns.authoritativeFor(a.data()));
  }

  /** {@code resp} (the question, maybe an OPT) with {@code r}'s rcode and records, cut to {@code max} bytes. */
  private static byte[] encode(Message resp, DnsResponse r, int max) {
    Header h = resp.getHeader();
    h.setRcode(r.rcode().code());
    if (r.rcode() != Rcode.REFUSED) {
      h.setFlag(Flags.AA);
    }
    if (r.truncated()) {
      h.setFlag(Flags.TC);
    }
    add(resp, r.answers(), Section.ANSWER);
    add(resp, r.authority(), Section.AUTHORITY);
    add(resp, r.additional(), Section.ADDITIONAL);
    return resp.toWire(max);
  }

  /**
   * The upstream's answer to {@code query}, cut to {@code max} bytes (TC set) when longer; when there is none,
   * {@code resp} (the question, and an OPT when the query had one) with the forwarder's rcode.
   */
  private static byte[] forward(Forwarder f, Message query, boolean overTcp, Message resp, int max) {
    Forwarder.Reply r = f.exchange(query, overTcp);
    byte[] answer = r.response();
    if (answer == null) {
      resp.getHeader().setRcode(r.rcode().code());
      return resp.toWire();
    }
    if (answer.length <= max) {
      return answer;
    }
    try {
      return new Message(answer).toWire(max);
    } catch (IOException | RuntimeException e) {
      resp.getHeader().setRcode(org.xbill.DNS.Rcode.SERVFAIL); // the forwarder parsed it: not reached
      return resp.toWire();
    }
  }

  private static byte @Nullable [] formerr(byte[] wire) {
    try {
      Header qh = new Header(java.util.Arrays.copyOf(wire, Header.LENGTH));
      if (qh.getFlag(Flags.QR)) {
        return null;
      }
      Message m = new Message(qh.getID());
      m.getHeader().setFlag(Flags.QR);
      m.getHeader().setRcode(org.xbill.DNS.Rcode.FORMERR);
      return m.toWire();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  static RecordType typeOf(int type) {
    return switch (type) {
      case Type.A -> RecordType.A;
      case Type.AAAA -> RecordType.AAAA;
      case Type.SRV -> RecordType.SRV;
      case Type.CNAME -> RecordType.CNAME;
      case Type.PTR -> RecordType.PTR;
      case Type.TXT -> RecordType.TXT;
      case Type.SOA -> RecordType.SOA;
      case Type.NS -> RecordType.NS;
      case Type.AXFR -> RecordType.AXFR;
      case Type.IXFR -> RecordType.IXFR;
      default -> RecordType.OTHER;
    };
  }

  private static void add(Message m, List<DnsRecord> records, int section) {
    for (DnsRecord r : records) {
      Record rec = toRecord(r);
      if (rec != null) {
        m.addRecord(rec, section);
      }
    }
  }

  /** A dnsjava record for {@code r}; {@code null} (logged) if its data does not convert. */
  static @Nullable Record toRecord(DnsRecord r) {
    try {
      Name name = Name.fromString(r.name());
      long ttl = r.ttl();
      return switch (r.type()) {
        case A -> new ARecord(name, DClass.IN, ttl, address(r.data()));
        case AAAA -> new AAAARecord(name, DClass.IN, ttl, address(r.data()));
        case CNAME -> new CNAMERecord(name, DClass.IN, ttl, Name.fromString(r.data()));
        case PTR -> new PTRRecord(name, DClass.IN, ttl, Name.fromString(r.data()));
        case NS -> new NSRecord(name, DClass.IN, ttl, Name.fromString(r.data()));
        case TXT -> new TXTRecord(name, DClass.IN, ttl, r.data());
        case SRV -> {
          String[] f = r.data().split(" ");
          yield new SRVRecord(name, DClass.IN, ttl, Integer.parseInt(f[0]), Integer.parseInt(f[1]),
              Integer.parseInt(f[2]), Name.fromString(f[3]));
        }
        case SOA -> {
          String[] f = r.data().split(" ");
          yield new SOARecord(name, DClass.IN, ttl, Name.fromString(f[0]), Name.fromString(f[1]),
              Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]),
              Long.parseLong(f[6]));
        }
        default -> null;
      };
    } catch (TextParseException | RuntimeException e) {
      LOG.debug("cluster DNS record {} does not convert: {}", r, e.toString());
      return null;
    }
  }

  private static InetAddress address(String ip) {
    IpAddress a = IpAddress.parse(ip);
    byte[] raw = a.value().toByteArray();
    byte[] out = new byte[a.bits() / 8];
    int copy = Math.min(raw.length, out.length);
    System.arraycopy(raw, raw.length - copy, out, out.length - copy, copy);
    try {
      return InetAddress.getByAddress(out);
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException("address " + ip + ": " + e.getMessage(), e);
    }
  }

  /** Configures a server. Not thread-safe. */
  public static final class Builder {
    private final Supplier<DnsSnapshot> snapshots;
    private ClusterDns dns = ClusterDns.standard();
    private @Nullable Forwarder forwarder;
    private @Nullable ExternalDns external;
    private InetAddress bindAddress = InetAddress.getLoopbackAddress();
    private int port;
    private int udpThreads = 4;
    private int maxTcpConnections = 64;
    private int tcpIdleMillis = 5000;

    private Builder(Supplier<DnsSnapshot> snapshots) {
      this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
    }

    public Builder dns(ClusterDns v) {
      dns = Objects.requireNonNull(v, "dns");
      return this;
    }

    /**
     * Where names outside the cluster DNS's zones go; without one (the default) they are REFUSED.
     */
    public Builder forward(Forwarder v) {
      forwarder = Objects.requireNonNull(v, "forward");
      return this;
    }

    /**
     * The zones answered as CoreDNS's {@code k8s_external} plugin answers them (the Services' external and load
     * balancer addresses), before the cluster zone and forwarding; none by default.
     */
    public Builder external(ExternalDns v) {
      external = Objects.requireNonNull(v, "external");
      return this;
    }

    /** Default the loopback address. */
    public Builder bindAddress(InetAddress v) {
      bindAddress = Objects.requireNonNull(v, "bindAddress");
      return this;
    }

    /** 0 (default) for an ephemeral port. */
    public Builder port(int v) {
      if (v < 0 || v > 65535) {
        throw new IllegalArgumentException("DNS server port " + v + " must be between 0 and 65535");
      }
      port = v;
      return this;
    }

    /** UDP receiving threads, each on its own socket where {@code SO_REUSEPORT} exists; default 4. */
    public Builder udpThreads(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("DNS server udpThreads " + v + " must be at least 1");
      }
      udpThreads = v;
      return this;
    }

    public Builder maxTcpConnections(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("DNS server maxTcpConnections " + v + " must be at least 1");
      }
      maxTcpConnections = v;
      return this;
    }

    /** How long a TCP message (length and body) may take to arrive; default 5 s. For tests. */
    Builder tcpIdleMillis(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("DNS server tcpIdleMillis " + v + " must be at least 1");
      }
      tcpIdleMillis = v;
      return this;
    }

    public DnsServer build() {
      return new DnsServer(this);
    }
  }
}
