package io.fleetkit.store.etcd.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.meta.ObjectMeta;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Round trips of the kinds whose values are bytes (no etcd needed). */
final class ObjectCodecTest {
  private final ObjectCodec codec = new ObjectCodec();

  @Test
  void secretAndBinaryConfigMap_roundTripExactly_bytesAsBase64() {
    Secret s = new Secret(ObjectMeta.of("ns", "db"), Secret.TYPE_OPAQUE,
        Map.of("password", Bytes.ofUtf8("pw-1"), "blob", Bytes.of(new byte[] {0, (byte) 0xff, 7})), false);
    byte[] json = codec.encode(s);
    assertThat(new String(json, StandardCharsets.UTF_8)).contains("\"password\":\"cHctMQ==\"")
        .contains("\"blob\":\"AP8H\"");
    assertThat(codec.decode(json, Secret.class, "k")).isEqualTo(s);

    ConfigMap c = new ConfigMap(ObjectMeta.of("ns", "cfg"), Map.of("k", "v"), Map.of("bin", Bytes.ofUtf8("x")),
        false);
    assertThat(codec.decode(codec.encode(c), ConfigMap.class, "k")).isEqualTo(c);
  }
}
