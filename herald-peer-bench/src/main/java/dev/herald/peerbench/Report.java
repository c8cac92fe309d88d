package dev.herald.peerbench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The comparison table: one row per figure, a value per column (Herald, the Java SDK, the
 * ceiling), each Herald figure with its ratio to the peer and to the ceiling. Rows keep the order
 * in which the scenarios fill them; a missing value prints as "n/a" and its reason goes to the
 * notes under the table.
 */
final class Report {
  static final String HERALD = "herald";
  static final String SDK = "sdk";
  static final String CEILING = "ceiling";

  /** One figure: its label, unit, decimals, whether lower is better, and the values measured. */
  static final class Row {
    final String key;
    final String label;
    final int decimals;
    final boolean lowerIsBetter;
    final Map<String, Double> values = new LinkedHashMap<>();

    Row(String key, String label, int decimals, boolean lowerIsBetter) {
      this.key = key;
      this.label = label;
      this.decimals = decimals;
      this.lowerIsBetter = lowerIsBetter;
    }

    Double get(String column) {
      return values.get(column);
    }
  }

  private final Map<String, Row> rows = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();

  /** Declares a row (once) so that it keeps its place even when no value arrives. */
  Row row(String key, String label, int decimals, boolean lowerIsBetter) {
    return rows.computeIfAbsent(key, k -> new Row(k, label, decimals, lowerIsBetter));
  }

  void put(String key, String column, double value) {
    Row r = rows.get(key);
    if (r == null) {
      throw new IllegalArgumentException("undeclared row " + key);
    }
    r.values.put(column, value);
  }

  void note(String note) {
    notes.add(note);
  }

  List<Row> rows() {
    return List.copyOf(rows.values());
  }

  List<String> notes() {
    return List.copyOf(notes);
  }

  /** The Markdown table and its notes. */
  String markdown() {
    StringBuilder b = new StringBuilder();
    b.append("| scenario | Herald | Java SDK | ceiling | Herald/SDK | Herald/ceiling |\n");
    b.append("|---|---:|---:|---:|---:|---:|\n");
    for (Row r : rows.values()) {
      b.append("| ")
          .append(r.label)
          .append(r.lowerIsBetter ? " (lower is better)" : " (higher is better)")
          .append(" | ")
          .append(number(r.get(HERALD), r.decimals))
          .append(" | ")
          .append(number(r.get(SDK), r.decimals))
          .append(" | ")
          .append(number(r.get(CEILING), r.decimals))
          .append(" | ")
          .append(ratio(r.get(HERALD), r.get(SDK)))
          .append(" | ")
          .append(ratio(r.get(HERALD), r.get(CEILING)))
          .append(" |\n");
    }
    if (!notes.isEmpty()) {
      b.append('\n');
      for (String n : notes) {
        b.append("- ").append(n).append('\n');
      }
    }
    return b.toString();
  }

  static String number(Double v, int decimals) {
    if (v == null) {
      return "n/a";
    }
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "n/a";
    }
    return String.format(Locale.ROOT, "%,." + decimals + "f", v);
  }

  static String ratio(Double a, Double b) {
    if (a == null || b == null || b == 0 || Double.isNaN(a) || Double.isNaN(b)) {
      return "";
    }
    return String.format(Locale.ROOT, "%.2f×", a / b);
  }

  /** The rows as JSON: key, label, unit-less values per column and the ratios. */
  String json(Map<String, String> context) {
    StringBuilder b = new StringBuilder("{\n");
    for (Map.Entry<String, String> e : context.entrySet()) {
      b.append("  \"").append(e.getKey()).append("\": ").append(quote(e.getValue())).append(",\n");
    }
    b.append("  \"rows\": [\n");
    int i = 0;
    for (Row r : rows.values()) {
      b.append("    {\"key\": ")
          .append(quote(r.key))
          .append(", \"label\": ")
          .append(quote(r.label))
          .append(", \"lowerIsBetter\": ")
          .append(r.lowerIsBetter);
      for (String c : List.of(HERALD, SDK, CEILING)) {
        Double v = r.get(c);
        b.append(", \"").append(c).append("\": ");
        b.append(v == null || v.isNaN() || v.isInfinite() ? "null" : Double.toString(v));
      }
      b.append('}').append(++i < rows.size() ? ",\n" : "\n");
    }
    b.append("  ],\n  \"notes\": [");
    for (int k = 0; k < notes.size(); k++) {
      b.append(k == 0 ? "" : ", ").append(quote(notes.get(k)));
    }
    b.append("]\n}\n");
    return b.toString();
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        default -> {
          if (c < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
