package dev.kvasir.connect;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The client names itself as Deno's does ("Deno/2.9.6"), for servers' access logs. */
class UserAgentTest {
  @Test
  void namesKvasirAndJava_withTheirVersions() {
    assertThat(Transport.userAgent()).matches("kvasir/\\S+ Java/" + Runtime.version().feature());
  }
}
