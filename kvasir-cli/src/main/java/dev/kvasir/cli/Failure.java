package dev.kvasir.cli;

/** An operation that did not happen (a failed check, a missing entry): exit code 1. */
final class Failure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  Failure(String message) {
    super(message, null, false, false);
  }
}
