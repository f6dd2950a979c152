package io.fleetkit.adapter.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SlurmTokenTest {
  private static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdW4iOiJyb290In0.c2lnbmF0dXJl";

  @Test
  void toString_value_redacted() {
    SlurmToken t = SlurmToken.of("root", JWT);
    assertThat(t.toString()).isEqualTo("SlurmToken[user=root, from value, value=<redacted>]").doesNotContain(JWT);
    assertThat(t.jwt()).isEqualTo(JWT);
  }

  @Test
  void fromFile_scontrolOutput_prefixStrippedAndReReadEachTime(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("jwt.token");
    Files.writeString(f, "SLURM_JWT=" + JWT + "\n");
    SlurmToken t = SlurmToken.fromFile("root", f);
    assertThat(t.jwt()).isEqualTo(JWT);
    Files.writeString(f, "rotated.token.value");
    assertThat(t.jwt()).isEqualTo("rotated.token.value");
    assertThat(t.toString()).contains(f.toString()).doesNotContain("rotated");
  }

  @Test
  void fromFile_missing_messageNamesFileOnly(@TempDir Path dir) {
    SlurmToken t = SlurmToken.fromFile("root", dir.resolve("absent"));
    assertThatThrownBy(t::jwt).isInstanceOf(SlurmException.class)
        .hasMessageContaining("cannot read token file " + dir.resolve("absent"));
  }

  @Test
  void fromFile_garbage_messageGivesIndexNotContent(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("t");
    Files.writeString(f, "secret part\u0001more");
    assertThatThrownBy(SlurmToken.fromFile("root", f)::jwt).hasMessageNotContaining("secret")
        .hasMessageContaining("index 6");
  }

  @Test
  void fromEnv_setAndUnset() {
    Map<String, String> env = Map.of("SLURM_JWT", JWT);
    assertThat(SlurmToken.fromEnv("root", "SLURM_JWT", env::get).jwt()).isEqualTo(JWT);
    assertThatThrownBy(SlurmToken.fromEnv("root", "OTHER", env::get)::jwt)
        .hasMessage("slurm token: environment variable OTHER is not set");
    assertThat(SlurmToken.fromEnv("root", "SLURM_JWT", env::get).toString())
        .isEqualTo("SlurmToken[user=root, from environment variable SLURM_JWT, value=<redacted>]");
  }

  @Test
  void of_blankUser_rejected() {
    assertThatThrownBy(() -> SlurmToken.of(" ", JWT)).hasMessage("slurm token: userName must not be blank");
  }
}
