package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NetworkFilesystemTest {
  @TempDir Path dir;

  @Test
  void networkTypes_asLinuxNamesThem_areRecognised() {
    assertThat(NetworkFilesystem.isNetwork("nfs4")).isTrue();
    assertThat(NetworkFilesystem.isNetwork("cifs")).isTrue();
    assertThat(NetworkFilesystem.isNetwork("fuse.sshfs")).isTrue();
    assertThat(NetworkFilesystem.isNetwork("9p")).isTrue(); // WSL 2's Windows drives
    assertThat(NetworkFilesystem.isNetwork("ext4")).isFalse();
    assertThat(NetworkFilesystem.isNetwork("overlay")).isFalse();
    assertThat(NetworkFilesystem.isNetwork("tmpfs")).isFalse();
  }

  @Test
  void aLocalDirectory_isNotOne_andANewFileIsJudgedByItsDirectory() {
    assertThat(NetworkFilesystem.of(dir.resolve("new.sqlite3"))).isEmpty();
    assertThat(NetworkFilesystem.of(dir.resolve("missing-dir/new.sqlite3"))).isEmpty();
  }
}
