package io.fleetkit.adapter.slurm;

import java.util.List;
import java.util.stream.Collectors;

/**
 * slurmrestd answered and Slurm refused the request (a non-empty {@code errors} array or a non-2xx status). Never
 * retried: repeating the request would give the same answer. {@link #errors()} holds Slurm's errors as sent, and
 * the message joins their text, e.g. {@code "slurm POST /job/submit rejected (HTTP 500): Invalid partition name
 * specified [2000]"}.
 */
public class SlurmRejectedException extends SlurmException {
  private final int httpStatus;
  private final List<SlurmError> errors;

  public SlurmRejectedException(String request, int httpStatus, List<SlurmError> errors) {
    this(request, httpStatus, errors, "rejected");
  }

  SlurmRejectedException(String request, int httpStatus, List<SlurmError> errors, String verb) {
    super(message(request, httpStatus, errors, verb));
    this.httpStatus = httpStatus;
    this.errors = List.copyOf(errors);
  }

  private static String message(String request, int httpStatus, List<SlurmError> errors, String verb) {
    String text = errors.isEmpty() ? "no error text"
        : errors.stream().map(SlurmError::text).collect(Collectors.joining("; "));
    return "slurm " + request + " " + verb + " (HTTP " + httpStatus + "): " + text;
  }

  /** The HTTP status slurmrestd answered with (500 for most Slurm errors in 22.05). */
  public int httpStatus() {
    return httpStatus;
  }

  /** Slurm's errors, in the order sent; may be empty when the body was not JSON (e.g. a plain 401). */
  public List<SlurmError> errors() {
    return errors;
  }

  /** Whether any error has the given Slurm errno. */
  public boolean hasCode(int code) {
    return errors.stream().anyMatch(e -> e.code() == code);
  }
}
