package dev.kvasir.base;

/** The database (or the watch or listener used) was closed before or during the call. */
public class KvClosedException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvClosedException() {
    super("database is closed");
  }
}
