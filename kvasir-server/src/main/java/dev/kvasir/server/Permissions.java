package dev.kvasir.server;

import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Request;

/**
 * Which token a request presents, and whether that token may do what the request asks
 * (docs/operations.md §4): an unknown token is 401, anything beyond its reach 403 with the
 * reason, checked before the request touches the database.
 */
final class Permissions {
  /** The tokens clients may present, asked again on every request (rotation). */
  private final Supplier<List<AccessToken>> tokens;
  /** Whether the server takes no writes at all, whatever its tokens allow. */
  private final boolean readOnly;

  Permissions(Supplier<List<AccessToken>> tokens, boolean readOnly) {
    this.tokens = tokens;
    this.readOnly = readOnly;
  }

  /**
   * The token the request presents. Every known token is compared, each in constant time, so
   * the answer's timing tells nothing about which one nearly matched.
   */
  AccessToken authenticate(Request request) throws Refused {
    byte[] given = Replies.bearer(request);
    if (given == null) {
      throw new Refused(401, "Malformed authorization header. Send 'Authorization: Bearer"
          + " <access token>'.");
    }
    AccessToken matched = null;
    for (AccessToken t : tokens.get()) {
      if (MessageDigest.isEqual(given, t.secret().getBytes(StandardCharsets.UTF_8))) {
        matched = t;
      }
    }
    if (matched == null) {
      throw new Refused(401, "Invalid access token.");
    }
    return matched;
  }

  static void checkRead(AccessToken token, List<ReadRange> ranges) throws Refused {
    for (ReadRange range : ranges) {
      if (!token.covers(range)) {
        throw forbidden("read keys outside its prefixes");
      }
    }
  }

  static void checkWatch(AccessToken token, List<RawKey> keys) throws Refused {
    for (RawKey key : keys) {
      if (!token.covers(key)) {
        throw forbidden("watch keys outside its prefixes");
      }
    }
  }

  /** A read-only token writes nothing; a scoped one only keys under its prefixes. */
  void checkWrite(AccessToken token, AtomicWrite write) throws Refused {
    if (token.readOnly()) {
      throw forbiddenToReadOnly("write");
    }
    if (!token.prefixes().isEmpty() && !write.enqueues().isEmpty()) {
      throw forbidden("enqueue messages, which lie outside any key prefix");
    }
    List<RawKey> keys = new ArrayList<>();
    write.checks().forEach(c -> keys.add(c.key()));
    write.mutations().forEach(m -> keys.add(m.key()));
    write.enqueues().forEach(e -> keys.addAll(e.keysIfUndelivered()));
    for (RawKey key : keys) {
      if (!token.covers(key)) {
        throw forbidden("write keys outside its prefixes");
      }
    }
  }

  /** Queue messages belong to no key: only a token that may read and write everything. */
  void checkQueue(AccessToken token) throws Refused {
    if (token.readOnly()) {
      throw forbiddenToReadOnly("take queue messages");
    }
    if (!token.prefixes().isEmpty()) {
      throw forbidden("take queue messages, which lie outside any key prefix");
    }
  }

  private static Refused forbidden(String what) {
    return new Refused(403, "This access token may not " + what + ".");
  }

  /**
   * Why a read-only token may not write or take messages: a server that serves for reading only
   * says so, rather than send its user to check a token that is not the reason.
   */
  private Refused forbiddenToReadOnly(String what) {
    return readOnly ? new Refused(403, "This server serves reads only: it may not " + what
        + " for any token.") : forbidden(what);
  }
}
