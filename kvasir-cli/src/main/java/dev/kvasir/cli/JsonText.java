package dev.kvasir.cli;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.regex.Pattern;

/**
 * JSON text given to a command (a VALUE, an import line) read as JavaScript's
 * {@code JSON.parse} reads it, where Jackson's own tree reading differs:
 *
 * <ul>
 *   <li>exactly one value: text after it ({@code 1 2}, {@code [1] x}) is refused, not
 *       dropped, and so is text with no value at all;
 *   <li>{@code -0} is the number minus zero, a value of its own in V8 (and a distinct key part),
 *       where Jackson reads an integer 0.
 * </ul>
 *
 * <p>A repeated property keeps the last value at the first one's place, as in both.
 */
final class JsonText {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** Where Jackson's messages say a place: {@code [Source: …; line: 1, column: 9]}. */
  private static final Pattern SOURCE_LOCATION =
      Pattern.compile("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]");

  private JsonText() {}

  /**
   * Jackson's own words for what is wrong with a text, with a place in it as {@code line 1,
   * column 9}: its message names the place of an unclosed object's start as {@code [Source:
   * REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1]},
   * which speaks of its API to a user who typed JSON.
   */
  static String problem(JsonProcessingException e) {
    return SOURCE_LOCATION.matcher(e.getOriginalMessage()).replaceAll("line $1, column $2");
  }

  /**
   * The one value in {@code text}.
   *
   * @throws JsonProcessingException for text that is not exactly one JSON value
   */
  static JsonNode parse(String text) throws JsonProcessingException {
    try (JsonParser tokens = Render.JSON.createParser(text)) {
      if (tokens.nextToken() == null) {
        throw new JsonParseException(tokens, "no value, only white space");
      }
      JsonNode value = value(tokens);
      if (tokens.nextToken() != null) {
        throw new JsonParseException(tokens, "more text after the value, at column "
            + tokens.currentTokenLocation().getColumnNr());
      }
      return value;
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a String has no I/O to fail
    }
  }

  /** The value that starts at the current token, its last token then current. */
  private static JsonNode value(JsonParser tokens) throws IOException {
    JsonToken token = tokens.currentToken();
    switch (token) {
      case START_OBJECT: {
        ObjectNode object = NODES.objectNode();
        while (tokens.nextToken() == JsonToken.FIELD_NAME) {
          String name = tokens.currentName();
          tokens.nextToken();
          object.set(name, value(tokens));
        }
        return object;
      }
      case START_ARRAY: {
        ArrayNode array = NODES.arrayNode();
        while (tokens.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(tokens));
        }
        return array;
      }
      case VALUE_STRING:
        return NODES.textNode(tokens.getText());
      case VALUE_NUMBER_INT:
        if (tokens.getText().equals("-0")) {
          return NODES.numberNode(-0.0);
        }
        return switch (tokens.getNumberType()) {
          case INT -> NODES.numberNode(tokens.getIntValue());
          case LONG -> NODES.numberNode(tokens.getLongValue());
          default -> NODES.numberNode(tokens.getBigIntegerValue());
        };
      case VALUE_NUMBER_FLOAT:
        return NODES.numberNode(tokens.getDoubleValue());
      case VALUE_TRUE:
        return NODES.booleanNode(true);
      case VALUE_FALSE:
        return NODES.booleanNode(false);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        throw new JsonParseException(tokens, "unexpected " + token);
    }
  }
}
