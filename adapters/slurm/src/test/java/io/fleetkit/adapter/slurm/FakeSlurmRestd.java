package io.fleetkit.adapter.slurm;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** A scripted HTTP server standing in for slurmrestd: answers queued (status, body) pairs and records requests. */
final class FakeSlurmRestd implements AutoCloseable {
  record Answer(int status, String body) {}

  record Request(String method, String path, String user, String token, String body) {}

  private final HttpServer server;
  private final Deque<Answer> answers = new ArrayDeque<>();
  private final List<Request> requests = new ArrayList<>();

  FakeSlurmRestd() {
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", ex -> {
      String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Answer a;
      synchronized (this) {
        requests.add(new Request(ex.getRequestMethod(), ex.getRequestURI().getPath(),
            String.valueOf(ex.getRequestHeaders().getFirst("X-SLURM-USER-NAME")),
            String.valueOf(ex.getRequestHeaders().getFirst("X-SLURM-USER-TOKEN")), body));
        a = answers.isEmpty() ? new Answer(500, "{\"errors\":[{\"error\":\"no answer queued\"}]}") : answers.poll();
      }
      byte[] out = a.body().getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(a.status(), out.length == 0 ? -1 : out.length);
      if (out.length > 0) {
        ex.getResponseBody().write(out);
      }
      ex.close();
    });
    server.start();
  }

  synchronized FakeSlurmRestd answer(int status, String body) {
    answers.add(new Answer(status, body));
    return this;
  }

  synchronized List<Request> requests() {
    return List.copyOf(requests);
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
