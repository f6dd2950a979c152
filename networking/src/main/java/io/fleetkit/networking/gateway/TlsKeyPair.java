package io.fleetkit.networking.gateway;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.Secret;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Whether a Secret can serve a listener as its certificate, as Go's {@code tls.X509KeyPair} decides for the
 * implementations upstream's conformance suite runs against: the Secret is of type {@value Secret#TYPE_TLS};
 * {@code tls.crt} holds at least one PEM {@code CERTIFICATE} block, each an X.509 certificate; {@code tls.key} holds
 * a PEM private key, PKCS#8 ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC 1 with its named curve
 * ({@code EC PRIVATE KEY}); and the key belongs to the first certificate (a signature made with the key verifies
 * with the certificate's public key). Only the JDK's {@code CertificateFactory}, {@code KeyFactory} and
 * {@code Signature} are used. Neither the certificate's validity dates nor its chain are checked (Go's function
 * does not either). Messages never contain key material. Stateless and thread-safe.
 */
final class TlsKeyPair {
  private static final Pattern PEM = Pattern.compile(
      "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)\\s*-----END \\1-----");
  private static final byte[] RSA_OID = {0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01};
  private static final byte[] EC_OID = {0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};

  private TlsKeyPair() {}

  /** Why {@code s} cannot serve as a listener's certificate, or {@code null} when it can. */
  static @Nullable String problem(Secret s) {
    if (!s.type().equals(Secret.TYPE_TLS)) {
      return "is of type " + (s.type().isEmpty() ? "\"\"" : s.type()) + ", not " + Secret.TYPE_TLS;
    }
    Bytes crt = s.data().get("tls.crt");
    Bytes key = s.data().get("tls.key");
    if (crt == null || key == null) {
      return "lacks " + (crt == null ? "tls.crt" : "tls.key");
    }
    List<X509Certificate> certs = new ArrayList<>();
    CertificateFactory cf;
    try {
      cf = CertificateFactory.getInstance("X.509");
    } catch (GeneralSecurityException e) {
      return "cannot be checked: no X.509 certificate factory (" + e.getMessage() + ")";
    }
    List<String[]> crtBlocks = blocks(crt);
    for (String[] b : crtBlocks) {
      if (!b[0].equals("CERTIFICATE")) {
        continue;
      }
      try {
        certs.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(decode(b[1]))));
      } catch (GeneralSecurityException | IllegalArgumentException e) {
        return "tls.crt: certificate " + (certs.size() + 1) + " is not a valid X.509 certificate";
      }
    }
    if (certs.isEmpty()) {
      return "tls.crt holds no PEM certificate";
    }
    String[] keyBlock = null;
    for (String[] b : blocks(key)) {
      if (b[0].endsWith("PRIVATE KEY")) {
        keyBlock = b;
        break;
      }
    }
    if (keyBlock == null) {
      return "tls.key holds no PEM private key";
    }
    PublicKey pub = certs.get(0).getPublicKey();
    PrivateKey priv;
    try {
      byte[] der = decode(keyBlock[1]);
      byte[] pkcs8 = switch (keyBlock[0]) {
        case "PRIVATE KEY" -> der;
        case "RSA PRIVATE KEY" -> Der.seq(Der.integer0(), Der.seq(Der.oid(RSA_OID), Der.NULL), Der.octets(der));
        case "EC PRIVATE KEY" -> Der.seq(Der.integer0(), Der.seq(Der.oid(EC_OID), Der.curveOfSec1(der)),
            Der.octets(der));
        default -> throw new IllegalArgumentException("unsupported");
      };
      priv = KeyFactory.getInstance(pub.getAlgorithm()).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return "tls.key: the " + keyBlock[0] + " is not a valid " + pub.getAlgorithm() + " private key";
    }
    return matches(priv, pub) ? null : "tls.key does not belong to the first certificate of tls.crt";
  }

  private static boolean matches(PrivateKey priv, PublicKey pub) {
    String alg = switch (pub.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      case "DSA" -> "SHA256withDSA";
      default -> pub.getAlgorithm(); // Ed25519, Ed448, EdDSA
    };
    byte[] probe = "fleetkit certificate check".getBytes(StandardCharsets.US_ASCII);
    try {
      Signature sign = Signature.getInstance(alg);
      sign.initSign(priv);
      sign.update(probe);
      byte[] sig = sign.sign();
      Signature verify = Signature.getInstance(alg);
      verify.initVerify(pub);
      verify.update(probe);
      return verify.verify(sig);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }

  /** The PEM blocks of {@code b}: type and base64 body. */
  private static List<String[]> blocks(Bytes b) {
    List<String[]> out = new ArrayList<>();
    Matcher m = PEM.matcher(new String(b.toByteArray(), StandardCharsets.US_ASCII));
    while (m.find()) {
      out.add(new String[] {m.group(1), m.group(2)});
    }
    return out;
  }

  private static byte[] decode(String base64) {
    return Base64.getMimeDecoder().decode(base64);
  }

  /** The few DER encodings the key wrapping needs. */
  private static final class Der {
    static final byte[] NULL = {0x05, 0x00};

    private Der() {}

    static byte[] integer0() {
      return new byte[] {0x02, 0x01, 0x00};
    }

    static byte[] oid(byte[] body) {
      return tlv(0x06, body);
    }

    static byte[] octets(byte[] body) {
      return tlv(0x04, body);
    }

    static byte[] seq(byte[]... parts) {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      for (byte[] p : parts) {
        body.writeBytes(p);
      }
      return tlv(0x30, body.toByteArray());
    }

    static byte[] tlv(int tag, byte[] body) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(tag);
      int n = body.length;
      if (n < 0x80) {
        out.write(n);
      } else {
        int bytes = n > 0xffffff ? 4 : n > 0xffff ? 3 : n > 0xff ? 2 : 1;
        out.write(0x80 | bytes);
        for (int i = bytes - 1; i >= 0; i--) {
          out.write(n >>> (8 * i));
        }
      }
      out.writeBytes(body);
      return out.toByteArray();
    }

    /**
     * The named curve's OID element ({@code parameters [0]}) of a SEC 1 {@code ECPrivateKey}.
     *
     * @throws IllegalArgumentException when it is not a SEC 1 key or names no curve
     */
    static byte[] curveOfSec1(byte[] der) {
      int[] seq = header(der, 0);
      if (der[0] != 0x30) {
        throw new IllegalArgumentException("not a SEQUENCE");
      }
      int p = seq[0];
      int end = p + seq[1];
      while (p < end) {
        int[] h = header(der, p);
        if ((der[p] & 0xff) == 0xa0) {
          int[] inner = header(der, h[0]);
          if (der[h[0]] != 0x06) {
            throw new IllegalArgumentException("parameters are not a named curve");
          }
          byte[] out = new byte[inner[0] + inner[1] - h[0]];
          System.arraycopy(der, h[0], out, 0, out.length);
          return out;
        }
        p = h[0] + h[1];
      }
      throw new IllegalArgumentException("no curve named");
    }

    /** The offset of the content of the element at {@code at}, and its length. */
    private static int[] header(byte[] der, int at) {
      if (at + 2 > der.length) {
        throw new IllegalArgumentException("truncated");
      }
      int len = der[at + 1] & 0xff;
      int p = at + 2;
      if (len >= 0x80) {
        int bytes = len & 0x7f;
        if (bytes == 0 || bytes > 4 || p + bytes > der.length) {
          throw new IllegalArgumentException("bad length");
        }
        len = 0;
        for (int i = 0; i < bytes; i++) {
          len = (len << 8) | (der[p++] & 0xff);
        }
      }
      if (len < 0 || p + len > der.length) {
        throw new IllegalArgumentException("truncated");
      }
      return new int[] {p, len};
    }
  }
}
