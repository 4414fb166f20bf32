package dev.kvasir.dag.cid;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A content identifier (multiformats CID): version 0 is read, version 1 is read and written.
 * Version 1 is {@code varint(1) varint(codec) varint(hash code) varint(digest length) digest};
 * its text form is multibase base32 ({@code "bafy…"}). Version 0 is a bare sha2-256 multihash
 * of a dag-pb block, written in base58btc ({@code "Qm…"}).
 *
 * <p>Immutable; equal when the binary forms are equal. Only sha2-256 can be computed and
 * verified ({@link #of}, {@link #matches}); other hash functions are carried as they are.
 */
public final class Cid implements Comparable<Cid> {
  public static final long DAG_CBOR = 0x71;
  public static final long RAW = 0x55;
  public static final long DAG_PB = 0x70;
  public static final long SHA2_256 = 0x12;
  private static final int SHA2_256_LENGTH = 32;
  private static final int MAX_DIGEST = 128;
  /**
   * A digest per thread: {@code MessageDigest.getInstance} looks the algorithm up among the
   * providers and makes it by reflection, which took 8% of listing a {@code dag:} database when
   * every block checked made one.
   */
  private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  });

  private final int version;
  private final long codec;
  private final long hashFunction;
  /**
   * The digest's length: it is the end of {@link #bytes}. Not a copy of its own, which cost 48
   * bytes a CID, and a block log's index holds a CID for every block (docs/dag-engine.md §2).
   */
  private final int digestLength;
  private final byte[] bytes;
  private String text;
  private final int hash;

  private Cid(int version, long codec, long hashFunction, int digestLength, byte[] bytes) {
    this.version = version;
    this.codec = codec;
    this.hashFunction = hashFunction;
    this.digestLength = digestLength;
    this.bytes = bytes;
    this.hash = Arrays.hashCode(bytes);
  }

  /** The CIDv1 of {@code data} under {@code codec}, hashed with sha2-256. */
  public static Cid of(long codec, byte[] data) {
    return v1(codec, SHA2_256, sha256(data));
  }

  /** A CIDv1 from its parts. */
  public static Cid v1(long codec, long hashFunction, byte[] digest) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4 + digest.length);
    Varint.write(out, 1);
    Varint.write(out, codec);
    Varint.write(out, hashFunction);
    Varint.write(out, digest.length);
    out.writeBytes(digest);
    return new Cid(1, codec, hashFunction, digest.length, out.toByteArray());
  }

  /** Decodes a binary CID that fills {@code bytes} exactly. */
  public static Cid decode(byte[] bytes) {
    Cid cid = decodePrefix(bytes, 0);
    if (cid.bytes.length != bytes.length) {
      throw new CidFormatException("binary CID has " + (bytes.length - cid.bytes.length)
          + " trailing bytes");
    }
    return cid;
  }

  /** Decodes the binary CID that starts at {@code offset}; its length is {@link #byteLength}. */
  public static Cid decodePrefix(byte[] bytes, int offset) {
    try {
      if (bytes.length - offset >= 2 && bytes[offset] == SHA2_256
          && bytes[offset + 1] == SHA2_256_LENGTH) {
        if (bytes.length - offset < 2 + SHA2_256_LENGTH) {
          throw new CidFormatException("binary CIDv0 is truncated");
        }
        byte[] own = Arrays.copyOfRange(bytes, offset, offset + 2 + SHA2_256_LENGTH);
        return new Cid(0, DAG_PB, SHA2_256, SHA2_256_LENGTH, own);
      }
      Varint.Read version = Varint.read(bytes, offset);
      if (version.value() != 1) {
        throw new CidFormatException("unsupported CID version " + version.value()
            + " (only 0 and 1 exist)");
      }
      Varint.Read codec = Varint.read(bytes, version.end());
      Varint.Read function = Varint.read(bytes, codec.end());
      Varint.Read length = Varint.read(bytes, function.end());
      if (length.value() > MAX_DIGEST || length.value() > bytes.length - length.end()) {
        throw new CidFormatException("CID digest length " + length.value()
            + " runs past the end of the input");
      }
      int end = length.end() + (int) length.value();
      return new Cid(1, codec.value(), function.value(), (int) length.value(),
          Arrays.copyOfRange(bytes, offset, end));
    } catch (IllegalArgumentException e) {
      throw new CidFormatException("malformed binary CID: " + e.getMessage());
    }
  }

  /** Reads one binary CID from a stream (as in a CAR section). */
  public static Cid read(InputStream in) throws IOException {
    int first = in.read();
    if (first < 0) {
      throw new EOFException("stream ended before a CID");
    }
    ByteArrayOutputStream raw = new ByteArrayOutputStream(40);
    raw.write(first);
    if (first == SHA2_256) {
      raw.writeBytes(in.readNBytes(1 + SHA2_256_LENGTH));
    } else {
      for (int field = 0; field < 3; field++) {
        long v = Varint.read(in);
        if (v < 0) {
          throw new EOFException("stream ended inside a CID");
        }
        Varint.write(raw, v);
        if (field == 2) {
          if (v > MAX_DIGEST) {
            throw new CidFormatException("CID digest length " + v + " is too long");
          }
          raw.writeBytes(in.readNBytes((int) v));
        }
      }
    }
    return decode(raw.toByteArray());
  }

  /** Parses the text form: base32 CIDv1 ({@code b…}/{@code B…}), or base58 ({@code Qm…}, {@code z…}). */
  public static Cid parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new CidFormatException("empty CID; expected text like bafy…");
    }
    try {
      if (text.length() == 46 && text.startsWith("Qm")) {
        return decode(Base58.decode(text));
      }
      char base = text.charAt(0);
      if (base == 'b' || base == 'B') {
        return decode(Base32.decode(text.substring(1)));
      }
      if (base == 'z') {
        return decode(Base58.decode(text.substring(1)));
      }
      throw new CidFormatException("unsupported multibase prefix '" + base
          + "' (use base32 'b…' or base58 'Qm…'/'z…')");
    } catch (IllegalArgumentException | CidFormatException e) {
      throw new CidFormatException("not a CID: \"" + text + "\": " + e.getMessage());
    }
  }

  public int version() {
    return version;
  }

  public long codec() {
    return codec;
  }

  public long hashFunction() {
    return hashFunction;
  }

  public byte[] digest() {
    return Arrays.copyOfRange(bytes, bytes.length - digestLength, bytes.length);
  }

  /** The binary form (a copy). */
  public byte[] bytes() {
    return bytes.clone();
  }

  public int byteLength() {
    return bytes.length;
  }

  public void writeTo(ByteArrayOutputStream out) {
    out.writeBytes(bytes);
  }

  /**
   * Whether {@code data} hashes to this CID's digest.
   *
   * @throws UnsupportedOperationException for a hash function other than sha2-256
   */
  public boolean matches(byte[] data) {
    if (hashFunction != SHA2_256) {
      throw new UnsupportedOperationException("cannot verify " + this
          + ": hash function 0x" + Long.toHexString(hashFunction) + " is not sha2-256");
    }
    byte[] hash = sha256(data);
    return Arrays.equals(bytes, bytes.length - digestLength, bytes.length, hash, 0, hash.length);
  }

  static byte[] sha256(byte[] data) {
    return SHA_256.get().digest(data); // digest() leaves it reset for the next
  }

  @Override
  public int compareTo(Cid other) {
    return Arrays.compareUnsigned(bytes, other.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cid && hash == ((Cid) o).hash && Arrays.equals(bytes, ((Cid) o).bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    String t = text;
    if (t == null) {
      t = version == 0 ? Base58.encode(bytes) : "b" + Base32.encode(bytes);
      text = t;
    }
    return t;
  }
}
