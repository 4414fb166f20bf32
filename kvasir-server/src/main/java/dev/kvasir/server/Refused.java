package dev.kvasir.server;

/**
 * A KV Connect request refused with an HTTP status and a plain-text reason for the client,
 * before it changed anything: 4xx for the caller's fault, 503 for a transient one.
 */
final class Refused extends Exception {
  private static final long serialVersionUID = 1L;
  final int status;

  Refused(int status, String message) {
    super(message, null, false, false); // a reply, not a fault: no stack to fill in
    this.status = status;
  }
}
