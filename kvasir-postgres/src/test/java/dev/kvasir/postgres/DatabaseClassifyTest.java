package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How the engine takes PostgreSQL's errors: which it retries, and as what. */
class DatabaseClassifyTest {
  @ParameterizedTest
  @CsvSource({
      "08006, CONNECTION", // the connection broke
      "57P01, CONNECTION", // the server shuts down
      "57P05, CONNECTION", // idle_session_timeout ended the session
      "25P03, CONNECTION", // idle_in_transaction_session_timeout ended it
      "25P04, CONNECTION", // transaction_timeout ended it
      "40001, CONFLICT",
      "55P03, CONFLICT", // lock_timeout
      "57014, CONFLICT", // statement_timeout
      "25006, REFUSED", // a read-only server
      "53100, REFUSED", // its disk is full
      "23505, OTHER"})
  void theStateSaysWhatToDo(String state, Database.Failure expected) {
    SQLException e = new SQLException("from the server", state);
    assertThat(Database.classify(e)).isEqualTo(expected);
    assertThat(Database.classify(new SQLException("wrapped", null, e))).isEqualTo(expected);
  }
}
