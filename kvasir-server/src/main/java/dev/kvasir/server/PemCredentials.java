package dev.kvasir.server;

import dev.kvasir.base.FileErrorReason;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A certificate chain and its private key in PEM files, as certificate tools (certbot, cert-manager,
 * openssl, step) write them, read into the in-memory key store that TLS is served from
 * (docs/operations.md §7). The key may be PKCS#8 ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE
 * KEY}) or SEC 1 ({@code EC PRIVATE KEY}); an encrypted key is refused, and so is a key that does
 * not belong to the first certificate of the chain.
 */
final class PemCredentials {
  /** The password of the in-memory key store; it never leaves the process. */
  static final String STORE_PASSWORD = "kvasir";

  private static final Pattern BLOCK = Pattern.compile(
      "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");

  private PemCredentials() {}

  /**
   * A PKCS12 key store holding the key under the alias {@code kvasir} with its chain.
   *
   * @throws IllegalArgumentException naming the file and what is wrong with it
   */
  static KeyStore load(Path certificateChain, Path privateKey) {
    List<X509Certificate> chain = certificates(certificateChain);
    PrivateKey key = privateKey(privateKey, chain.get(0));
    requireMatch(key, chain.get(0), certificateChain, privateKey);
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("kvasir", key, STORE_PASSWORD.toCharArray(),
          chain.toArray(Certificate[]::new));
      return store;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException("cannot hold the key of " + privateKey + ": " + e, e);
    }
  }

  private static List<X509Certificate> certificates(Path file) {
    String text = read(file);
    if (!text.contains("-----BEGIN CERTIFICATE-----")) {
      throw new IllegalArgumentException(file + " holds no PEM certificate (-----BEGIN"
          + " CERTIFICATE-----)");
    }
    try {
      return CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)))
          .stream().map(X509Certificate.class::cast).toList();
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(file + " holds a certificate that does not parse: "
          + e.getMessage(), e);
    }
  }

  private static PrivateKey privateKey(Path file, X509Certificate certificate) {
    Matcher m = BLOCK.matcher(read(file));
    while (m.find()) {
      String type = m.group(1);
      if (!type.endsWith("PRIVATE KEY")) {
        continue; // e.g. "EC PARAMETERS", which openssl writes before an EC key
      }
      byte[] der;
      try {
        der = Base64.getMimeDecoder().decode(m.group(2));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ": the " + type + " is not valid base64", e);
      }
      String algorithm = certificate.getPublicKey().getAlgorithm();
      try {
        KeySpec spec = switch (type) {
          case "PRIVATE KEY" -> new PKCS8EncodedKeySpec(der);
          case "RSA PRIVATE KEY" -> rsa(der);
          case "EC PRIVATE KEY" -> ec(der, certificate);
          case "ENCRYPTED PRIVATE KEY" -> throw new IllegalArgumentException(file
              + " holds an encrypted key; give the key unencrypted (openssl pkey -in KEY -out"
              + " PLAIN) in a file only the server's user may read");
          default -> throw new IllegalArgumentException(file + ": unknown key type " + type);
        };
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException | Der.Malformed e) {
        throw new IllegalArgumentException(file + ": the " + type + " does not parse as an "
            + algorithm + " key (" + e.getMessage() + ")", e);
      }
    }
    throw new IllegalArgumentException(file + " holds no PEM private key (-----BEGIN PRIVATE"
        + " KEY-----)");
  }

  /** PKCS#1 RSAPrivateKey: version, n, e, d, p, q, d mod (p−1), d mod (q−1), q⁻¹ mod p. */
  private static KeySpec rsa(byte[] der) {
    Der seq = new Der(der).sequence();
    seq.integer(); // version
    return new RSAPrivateCrtKeySpec(seq.integer(), seq.integer(), seq.integer(), seq.integer(),
        seq.integer(), seq.integer(), seq.integer(), seq.integer());
  }

  /** SEC 1 ECPrivateKey: version, the private scalar, then optional curve and public key. */
  private static KeySpec ec(byte[] der, X509Certificate certificate) {
    Der seq = new Der(der).sequence();
    seq.integer(); // version
    BigInteger scalar = new BigInteger(1, seq.octetString());
    if (!(certificate.getPublicKey() instanceof ECPublicKey pub)) {
      throw new Der.Malformed("an EC key for a certificate with a "
          + certificate.getPublicKey().getAlgorithm() + " key");
    }
    return new ECPrivateKeySpec(scalar, pub.getParams()); // the certificate's curve
  }

  /** Signs with the key and verifies with the certificate, which holds only for a pair. */
  private static void requireMatch(PrivateKey key, X509Certificate certificate, Path chainFile,
      Path keyFile) {
    String algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      default -> key.getAlgorithm(); // Ed25519, Ed448
    };
    try {
      byte[] probe = new byte[32];
      new SecureRandom().nextBytes(probe);
      Signature sign = Signature.getInstance(algorithm);
      sign.initSign(key);
      sign.update(probe);
      byte[] signature = sign.sign();
      Signature verify = Signature.getInstance(algorithm);
      verify.initVerify(certificate.getPublicKey());
      verify.update(probe);
      if (verify.verify(signature)) {
        return;
      }
    } catch (GeneralSecurityException e) {
      // reported below
    }
    throw new IllegalArgumentException("the key in " + keyFile + " does not belong to the first"
        + " certificate in " + chainFile + " (" + certificate.getSubjectX500Principal() + ")");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file + ": " + FileErrorReason.of(e), e);
    }
  }

  /** Just enough DER to read the two key structures above. */
  private static final class Der {
    private final byte[] bytes;
    private int pos;
    private final int end;

    Der(byte[] bytes) {
      this(bytes, 0, bytes.length);
    }

    private Der(byte[] bytes, int from, int end) {
      this.bytes = bytes;
      this.pos = from;
      this.end = end;
    }

    Der sequence() {
      int length = header(0x30);
      Der inner = new Der(bytes, pos, pos + length);
      pos += length;
      return inner;
    }

    BigInteger integer() {
      int length = header(0x02);
      BigInteger value = new BigInteger(Arrays.copyOfRange(bytes, pos, pos + length));
      pos += length;
      return value;
    }

    byte[] octetString() {
      int length = header(0x04);
      byte[] value = Arrays.copyOfRange(bytes, pos, pos + length);
      pos += length;
      return value;
    }

    /** Reads a tag and a length; returns the length, the position at the contents. */
    private int header(int tag) {
      if (pos >= end || (bytes[pos] & 0xff) != tag) {
        throw new Malformed(String.format("expected DER tag 0x%02x at byte %d", tag, pos));
      }
      pos++;
      if (pos >= end) {
        throw new Malformed("truncated at byte " + pos);
      }
      int first = bytes[pos++] & 0xff;
      int length = first;
      if (first >= 0x80) {
        int count = first & 0x7f;
        if (count == 0 || count > 3 || pos + count > end) {
          throw new Malformed("bad length at byte " + pos);
        }
        length = 0;
        for (int i = 0; i < count; i++) {
          length = length << 8 | (bytes[pos++] & 0xff);
        }
      }
      if (pos + length > end) {
        throw new Malformed("truncated at byte " + pos);
      }
      return length;
    }

    static final class Malformed extends RuntimeException {
      private static final long serialVersionUID = 1L;

      Malformed(String message) {
        super(message);
      }
    }
  }
}
