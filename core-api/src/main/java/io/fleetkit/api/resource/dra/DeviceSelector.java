package io.fleetkit.api.resource.dra;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One selector of a device class or request ({@code DeviceSelector} with its {@code cel.expression}). The
 * expression is compiled once, when the selector is built; an expression outside the supported subset is kept with
 * its compile error, which the owning object's validation reports on the selector's field. Immutable.
 */
public final class DeviceSelector {
  private final String expression;
  private final @Nullable DeviceSelectorExpression compiled;
  private final @Nullable String compileError;

  private DeviceSelector(String expression) {
    this.expression = Objects.requireNonNull(expression, "expression");
    DeviceSelectorExpression c = null;
    String error = null;
    if (!expression.isEmpty()) {
      try {
        c = DeviceSelectorExpression.compile(expression);
      } catch (DeviceSelectorException e) {
        error = e.getMessage();
      }
    }
    this.compiled = c;
    this.compileError = error;
  }

  /** A selector with the CEL expression {@code expression}. */
  public static DeviceSelector cel(String expression) {
    return new DeviceSelector(expression);
  }

  /** {@code cel.expression}, as written. */
  public String expression() {
    return expression;
  }

  /** Why the expression cannot be used, or {@code null} when it compiled. */
  public @Nullable String compileError() {
    return compileError;
  }

  /**
   * The compiled expression.
   *
   * @throws DeviceSelectorException when it did not compile (validation refuses such selectors in every kind)
   */
  public DeviceSelectorExpression compiled() {
    if (compiled == null) {
      throw new DeviceSelectorException("selector " + expression + ": " + (expression.isEmpty()
          ? "empty expression" : compileError));
    }
    return compiled;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof DeviceSelector s && s.expression.equals(expression);
  }

  @Override
  public int hashCode() {
    return expression.hashCode();
  }

  @Override
  public String toString() {
    return "cel(" + expression + ")";
  }
}
