package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PostgresConfigTest {
  @Test
  void url_splitsIntoJdbcUrlCredentialsAndKvasirParameters() {
    PostgresConfig c = PostgresConfig.of(
        "postgresql://app:s%40cret@db.example:6543/shop?sslmode=require&schema=kv_one&poolSize=4"
            + "&retryTimeoutMs=1500");
    assertThat(c.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/shop?sslmode=require");
    assertThat(c.user()).isEqualTo("app");
    assertThat(c.password()).isEqualTo("s@cret");
    assertThat(c.schema()).isEqualTo("kv_one");
    assertThat(c.poolSize()).isEqualTo(4);
    assertThat(c.retryTimeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(c.toString()).doesNotContain("s@cret").doesNotContain("cret");
  }

  /**
   * libpq's URLs may carry the user and password as parameters; the password then appeared in
   * the server's banner, {@code kvasir info} and every error message.
   */
  @Test
  void userAndPasswordParameters_areCredentials_andNoPasswordIsShown() {
    PostgresConfig c = PostgresConfig.of("postgresql://db.example/shop?user=app"
        + "&password=hun%40ter2&sslmode=verify-full&sslpassword=keypass");
    assertThat(c.user()).isEqualTo("app");
    assertThat(c.password()).isEqualTo("hun@ter2");
    assertThat(c.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example/shop?sslmode=verify-full"
        + "&sslpassword=keypass");
    assertThat(c.describe()).isEqualTo("jdbc:postgresql://db.example/shop?sslmode=verify-full"
        + "&sslpassword=*** (schema kvasir)");
    assertThat(c.toString()).doesNotContain("hun").doesNotContain("keypass");
  }

  @Test
  void url_minimal_usesDefaults() {
    PostgresConfig c = PostgresConfig.of("postgres://localhost");
    assertThat(c.jdbcUrl()).isEqualTo("jdbc:postgresql://localhost/");
    assertThat(c.user()).isNull();
    assertThat(c.schema()).isEqualTo("kvasir");
    assertThat(c.poolSize()).isEqualTo(10);
    assertThat(c.retryTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.queuePoll()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void options_overrideTheUrl() {
    PostgresConfig c = PostgresConfig.from("postgresql://u@h/d?schema=a",
        KvOptions.defaults().with("postgres.schema", "b").with("postgres.poolSize", "3")
            .with("postgres.queuePollMs", "60000"));
    assertThat(c.schema()).isEqualTo("b");
    assertThat(c.poolSize()).isEqualTo(3);
    assertThat(c.queuePoll()).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void passwordOption_suppliesThePasswordTheUrlLeavesOut() {
    PostgresConfig c = PostgresConfig.from("postgresql://app@db/shop",
        KvOptions.defaults().with("password", "from-a-file"));
    assertThat(c.user()).isEqualTo("app");
    assertThat(c.password()).isEqualTo("from-a-file");
    assertThat(c.toString()).doesNotContain("from-a-file");
  }

  @Test
  void malformedInput_failsNamingTheProblem_withoutThePassword() {
    assertThatThrownBy(() -> PostgresConfig.of("postgres:/db?password=hunter2"))
        .isInstanceOf(KvArgumentException.class)
        .hasMessageContaining("not a PostgreSQL URL").hasMessageNotContaining("hunter2");
    // psql's URL of the local socket: said why, where it was "not a PostgreSQL URL".
    assertThatThrownBy(() -> PostgresConfig.of("postgresql://u:hunter2@/db"))
        .isInstanceOf(KvArgumentException.class)
        .hasMessageStartingWith("a postgresql:// URL needs a host name: without one, libpq and"
            + " psql use the server's Unix socket").hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> PostgresConfig.of("postgresql:///db"))
        .hasMessageContaining("e.g. postgresql://localhost/db");
    assertThatThrownBy(() -> PostgresConfig.of("postgresql://h/d?schema=Robert'); drop"))
        .isInstanceOf(KvArgumentException.class).hasMessageContaining("schema must be");
    assertThatThrownBy(() -> PostgresConfig.of("postgresql://h/d?poolSize=lots"))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("poolSize must be an integer: received lots");
    assertThatThrownBy(() -> PostgresConfig.of("postgresql://h/d?poolSize=2"))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("poolSize must be 3 to 1000: received 2");
  }

  /** The driver ignores a name it does not know: ?sslmod=require connected unencrypted. */
  @Test
  void aParameterNeitherKvasirNorTheDriverReads_isRefused_namingTheOneMeant() {
    assertThatThrownBy(() -> PostgresConfig.of("postgresql://h/d?sslmod=require"))
        .isInstanceOf(KvArgumentException.class)
        .hasMessageStartingWith("'sslmod' is no parameter of a postgresql:// URL")
        .hasMessageNotContaining("did you mean");
    assertThatThrownBy(() -> PostgresConfig.of("postgresql://h/d?connect_timeout=5"))
        .isInstanceOf(KvArgumentException.class)
        .hasMessageEndingWith("did you mean connectTimeout?");
    assertThat(PostgresConfig.of("postgresql://h/d?ApplicationName=shop&connectTimeout=5")
        .jdbcUrl()).isEqualTo("jdbc:postgresql://h/d?ApplicationName=shop&connectTimeout=5");
  }

  /** By the options' names; a pool size of 4294967299, cast to an int, was 3. */
  @Test
  void optionsOutOfRange_areRefused_namingTheOption() {
    assertThatThrownBy(() -> PostgresConfig.from("postgresql://h/d", KvOptions.defaults()
        .with("postgres.poolSize", "4294967299"))).isInstanceOf(KvArgumentException.class)
        .hasMessage("postgres.poolSize must be 3 to 1000: received 4294967299");
    assertThatThrownBy(() -> PostgresConfig.from("postgresql://h/d", KvOptions.defaults()
        .with("postgres.retryTimeoutMs", "-1"))).isInstanceOf(KvArgumentException.class)
        .hasMessage("postgres.retryTimeoutMs must not be negative: received -1");
    assertThatThrownBy(() -> PostgresConfig.from("postgresql://h/d", KvOptions.defaults()
        .with("postgres.queuePollMs", "0"))).isInstanceOf(KvArgumentException.class)
        .hasMessage("postgres.queuePollMs must be at least 1 ms: received 0 ms");
  }
}
