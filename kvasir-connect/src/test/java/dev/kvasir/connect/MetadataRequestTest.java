package dev.kvasir.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A server reads the versions a client offers as denokv does (docs/kv-connect.md §8): a list of
 * unsigned whole numbers, each field once; anything else is the caller's error, never a guess.
 */
class MetadataRequestTest {
  @Test
  void wholeNumbers_areTheOfferedVersions_andTooLargeOnesNameNone() {
    assertThat(Metadata.offeredVersions("{\"supportedVersions\":[3, 2, 0]}"))
        .containsExactly(3, 2, 0);
    // 2^64 - 1 and 2^32 + 3 are whole numbers no version has: offered, matching none (asInt()
    // read the second as 3).
    assertThat(Metadata.offeredVersions("{\"supportedVersions\":[18446744073709551615, 1]}"))
        .containsExactly(1);
    assertThat(Metadata.offeredVersions("{\"supportedVersions\":[4294967299]}")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"[\"3\"]", "[3.5]", "[3.0]", "[-1, 3]", "[true]",
      "[null]", "[[3]]", "[1e400]", "[18446744073709551616]"})
  void anythingButAnUnsignedWholeNumber_isRefused_notReadAsAnotherVersion(String list) {
    String body = "{\"supportedVersions\":" + list + "}";
    assertThatThrownBy(() -> Metadata.offeredVersions(body))
        .isInstanceOf(BadRequestException.class)
        .hasMessageStartingWith("\"supportedVersions\" must hold protocol version numbers");
  }

  @Test
  void unclosedJson_isRefused_namingWhereItOpened_inTheCallersTerms() {
    assertThatThrownBy(() -> Metadata.offeredVersions("{\"supportedVersions\":[3]"))
        .isInstanceOf(BadRequestException.class)
        .hasMessage("The metadata request is not valid JSON: Unexpected end-of-input: expected"
            + " close marker for Object (start marker at line 1, column 1)");
  }

  @Test
  void aFieldGivenTwice_isRefused_notReadAsTheLastOne() {
    assertThatThrownBy(() -> Metadata.offeredVersions(
        "{\"supportedVersions\":[3], \"supportedVersions\":[1]}"))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("Duplicate field 'supportedVersions'");
  }
}
