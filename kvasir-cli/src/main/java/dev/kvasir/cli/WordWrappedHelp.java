package dev.kvasir.cli;

import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.Layout;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Usage help that breaks lines between words only, and prints examples as they are written.
 *
 * <p>picocli wraps with the JDK's line-break rules, which also break after a dot, a colon, a
 * slash or a quote: {@code ./kvasir.} at the end of one line and {@code sqlite3} at the start
 * of the next, {@code sqlite.} / {@code busyTimeoutMs=30000}, a synopsis cut inside
 * {@code [--db-option=NAME=VALUE[,NAME=VALUE...]]}, and examples cut in two
 * ({@code --to 2026-11-23T11:} / {@code 00:00Z}), which no longer ran when copied. Every table
 * picocli fills is made here with {@link WordWrappedTable}, which breaks only at spaces; a
 * footer line indented by two spaces (an example) is never wrapped, as in a man page.
 */
final class WordWrappedHelp extends Help {
  WordWrappedHelp(CommandSpec command, ColorScheme colors) {
    super(command, colors);
  }

  @Override
  public Layout createDefaultLayout(List<OptionSpec> options,
      List<PositionalParamSpec> positionals, ColorScheme colors) {
    Column[] columns = TextTable.forDefaultColumns(colors,
        calcLongOptionColumnWidth(options, positionals, colors), width()).columns();
    return new Layout(colors, new WordWrappedTable(colors, columns),
        createDefaultOptionRenderer(), createDefaultParameterRenderer());
  }

  @Override
  public String commandList(Map<String, Help> subcommands) {
    if (subcommands.isEmpty()) {
      return "";
    }
    int nameWidth = Math.min(width() / 2,
        subcommands.keySet().stream().mapToInt(String::length).max().orElse(0)) + 2;
    TextTable table = new WordWrappedTable(colorScheme(),
        new Column(nameWidth, 2, Column.Overflow.SPAN),
        new Column(width() - nameWidth, 2, Column.Overflow.WRAP));
    for (Help help : subcommands.values()) {
      UsageMessageSpec usage = help.commandSpec().usageMessage();
      String[] summary = usage.header().length > 0 ? usage.header() : usage.description();
      Text[] lines = colorScheme().text(format(summary.length > 0 ? summary[0] : ""))
          .splitLines();
      for (int i = 0; i < lines.length; i++) {
        table.addRowValues(i == 0 ? help.commandNamesText(", ") : colorScheme().text(""),
            lines[i]);
      }
    }
    return table.toString();
  }

  @Override
  public String description(Object... params) {
    return paragraphs(commandSpec().usageMessage().description(), params);
  }

  @Override
  public String header(Object... params) {
    return paragraphs(commandSpec().usageMessage().header(), params);
  }

  @Override
  public String footer(Object... params) {
    StringBuilder text = new StringBuilder();
    for (String line : commandSpec().usageMessage().footer()) {
      text.append(line.startsWith("  ") ? format(line, params) + System.lineSeparator()
          : paragraphs(new String[] {line}, params));
    }
    return text.toString();
  }

  @Override
  protected String insertSynopsisCommandName(int headingLength, Text details) {
    String name = commandSpec().qualifiedName();
    // Later lines start under the first option, unless that is past the middle of the line.
    int indent = headingLength + name.length() + 1;
    if (indent > width() / 2) {
      indent = headingLength;
    }
    TextTable table = new WordWrappedTable(colorScheme(), new Column(width(), 0,
        Column.Overflow.WRAP));
    table.indentWrappedLines = indent;
    // The heading ("Usage: ") is printed before this text: its room is held, then cut off.
    Text heading = Ansi.OFF.new Text(" ".repeat(headingLength), colorScheme());
    table.addRowValues(heading.concat(colorScheme().commandText(name)).concat(details));
    return table.toString().substring(headingLength);
  }

  private String paragraphs(String[] lines, Object... params) {
    TextTable table = new WordWrappedTable(colorScheme(), new Column(width(), 0,
        Column.Overflow.WRAP));
    table.indentWrappedLines = 0;
    for (String line : lines) {
      table.addRowValues(format(line, params));
    }
    return table.toString();
  }

  /** As picocli formats a line of help: with the parameters, else as written. */
  private static String format(String line, Object... params) {
    try {
      return String.format(line, params);
    } catch (IllegalFormatException e) {
      return line;
    }
  }

  private int width() {
    return commandSpec().usageMessage().width();
  }

  /** A table whose wrapping columns break lines at spaces only. */
  static final class WordWrappedTable extends TextTable {
    WordWrappedTable(ColorScheme colors, Column... columns) {
      super(colors, columns);
    }

    /**
     * Cuts the value into lines of whole words that fit the column and gives picocli one line
     * per row, which it then has no reason to break. A single word wider than the column is
     * left to picocli.
     */
    @Override
    public Cell putValue(int row, int col, Text value) {
      Column column = columns()[col];
      if (column.overflow != Column.Overflow.WRAP || value == null) {
        return super.putValue(row, col, value);
      }
      int indent = column.indent;
      List<Text> lines = lines(value, column.width - indent,
          column.width - indent - indentWrappedLines);
      Cell cell = super.putValue(row, col, lines.get(0));
      try {
        column.indent = indent + indentWrappedLines;
        for (Text line : lines.subList(1, lines.size())) {
          addEmptyRow();
          cell = super.putValue(cell.row + 1, col, line);
        }
      } finally {
        column.indent = indent;
      }
      return cell;
    }

    /** {@code text} cut at spaces into lines of at most {@code first}, then {@code later}. */
    static List<Text> lines(Text text, int first, int later) {
      String plain = text.plainString();
      List<Text> lines = new ArrayList<>();
      int start = 0;
      int width = Math.max(1, first);
      while (plain.length() - start > width) {
        int cut = plain.lastIndexOf(' ', start + width);
        if (cut <= start) {
          cut = plain.indexOf(' ', start + width); // a word wider than the line
          if (cut < 0) {
            break;
          }
        }
        lines.add(text.substring(start, cut));
        start = cut + 1;
        while (start < plain.length() && plain.charAt(start) == ' ') {
          start++;
        }
        width = Math.max(1, later);
      }
      lines.add(text.substring(start, plain.length()));
      return lines;
    }
  }
}
