package dev.kvasir.value;

/**
 * A JS {@code Date} whose time value is NaN ({@code new Date(NaN)}), which no {@link
 * java.time.Instant} can hold. Valid dates read back as {@code Instant}.
 */
public enum InvalidDate {
  INSTANCE;

  @Override
  public String toString() {
    return "Invalid Date";
  }
}
