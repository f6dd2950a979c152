package io.fleetkit.adapter.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

/**
 * The JWT sent to slurmrestd as {@code X-SLURM-USER-TOKEN}, with the user name sent as {@code X-SLURM-USER-NAME}.
 *
 * <p>The secret never leaves this object except into the request header: {@link #toString()} names only where the
 * token comes from, and failures to read it name the file or variable, never the content. A token from a file is
 * re-read on every request, so a rotated token file is picked up without a restart. Thread-safe.
 */
public final class SlurmToken {
  /** The environment variable Slurm's own tools use for a JWT ({@code scontrol token} prints it). */
  public static final String DEFAULT_ENV = "SLURM_JWT";

  private final String userName;
  private final String source;
  private final Secret secret;

  @FunctionalInterface
  private interface Secret {
    String read();
  }

  private SlurmToken(String userName, String source, Secret secret) {
    if (userName.isBlank()) {
      throw new IllegalArgumentException("slurm token: userName must not be blank");
    }
    this.userName = userName;
    this.source = source;
    this.secret = secret;
  }

  /** A token given directly. */
  public static SlurmToken of(String userName, String jwt) {
    Objects.requireNonNull(jwt, "jwt");
    String v = clean(jwt, "the given value");
    return new SlurmToken(userName, "value", () -> v);
  }

  /** A token read from a file (trimmed; a leading {@code SLURM_JWT=} is dropped), re-read on each request. */
  public static SlurmToken fromFile(String userName, Path file) {
    Objects.requireNonNull(file, "file");
    return new SlurmToken(userName, "file " + file, () -> {
      try {
        return clean(Files.readString(file, StandardCharsets.UTF_8), "file " + file);
      } catch (IOException e) {
        // the exception text holds only the path and the I/O reason, never file content
        throw new SlurmException("slurm token: cannot read token file " + file + ": " + e.getClass().getSimpleName(),
            e);
      }
    });
  }

  /** A token from an environment variable (read on each request). */
  public static SlurmToken fromEnv(String userName, String variable) {
    return fromEnv(userName, variable, System::getenv);
  }

  static SlurmToken fromEnv(String userName, String variable, Function<String, String> env) {
    Objects.requireNonNull(variable, "variable");
    return new SlurmToken(userName, "environment variable " + variable, () -> {
      String v = env.apply(variable);
      if (v == null) {
        throw new SlurmException("slurm token: environment variable " + variable + " is not set");
      }
      return clean(v, "environment variable " + variable);
    });
  }

  private static String clean(String raw, String where) {
    String v = raw.strip();
    if (v.startsWith(DEFAULT_ENV + "=")) {
      v = v.substring(DEFAULT_ENV.length() + 1);
    }
    if (v.isEmpty()) {
      throw new SlurmException("slurm token: " + where + " holds no token");
    }
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        throw new SlurmException("slurm token: " + where + " holds a character not allowed in a header at index " + i);
      }
    }
    return v;
  }

  /** The Slurm user the token belongs to. */
  public String userName() {
    return userName;
  }

  /** The secret, for the request header only. */
  String jwt() {
    return secret.read();
  }

  @Override
  public String toString() {
    return "SlurmToken[user=" + userName + ", from " + source + ", value=<redacted>]";
  }
}
