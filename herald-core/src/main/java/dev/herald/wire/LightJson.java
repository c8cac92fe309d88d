package dev.herald.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.BigIntegerNode;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Reads and writes the common shapes of JSON-RPC messages by hand, for a process that has not
 * built the mapper yet.
 *
 * <p>Design note (docs/benchmarks.md, "Cold start"). Building Herald's {@code JsonMapper} is most
 * of the CPU a stdio server spends before it answers {@code initialize}. Until the mapper exists
 * ({@link McpJson#mapperBuilt()}), {@link MessageCodec} reads and writes through these: the same
 * trees and the same bytes as the mapper's, for the subset of JSON these know. Anything else (a
 * fraction or an exponent, a duplicate member, an escape or a control character they do not
 * write, deep nesting, a node kind other than the parser's plain ones, a surrogate character)
 * makes them give up ({@code null}), and the caller takes the mapper's path, which also words
 * every error: this path never decides a refusal. {@code LightJsonTest} compares both over
 * random documents and trees.
 *
 * <p>Stateless; thread-safe.
 */
final class LightJson {
  private LightJson() {}

  /** Deeper documents go to the mapper, which enforces {@link McpJson#MAX_NESTING_DEPTH}. */
  private static final int MAX_DEPTH = 32;

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** Gives up: the caller goes to the mapper. */
  private static final class GiveUp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private GiveUp() {
      super(null, null, false, false); // no stack: it is control flow
    }
  }

  // ---- reading ----

  /**
   * The tree the mapper's {@code readTree} gives for this strict UTF-8 slice, or {@code null} when
   * the slice holds anything this reader does not know (the mapper then reads it).
   */
  static @Nullable JsonNode read(byte[] b, int offset, int length) {
    Reader r = new Reader(b, offset, offset + length);
    try {
      r.ws();
      if (r.at >= r.end) {
        return null;
      }
      JsonNode v = r.value(0);
      r.ws();
      return r.at == r.end ? v : null;
    } catch (GiveUp e) {
      return null;
    }
  }

  private static final class Reader {
    final byte[] b;
    int at;
    final int end;
    private final StringBuilder sb = new StringBuilder();

    Reader(byte[] b, int at, int end) {
      this.b = b;
      this.at = at;
      this.end = end;
    }

    void ws() {
      while (at < end) {
        byte c = b[at];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
          at++;
        } else {
          return;
        }
      }
    }

    int next() {
      if (at >= end) {
        throw new GiveUp();
      }
      return b[at++];
    }

    JsonNode value(int depth) {
      if (at >= end) {
        throw new GiveUp();
      }
      int c = b[at];
      return switch (c) {
        case '{' -> object(depth + 1);
        case '[' -> array(depth + 1);
        case '"' -> {
          at++;
          yield F.stringNode(string());
        }
        case 't' -> {
          literal("true");
          yield F.booleanNode(true);
        }
        case 'f' -> {
          literal("false");
          yield F.booleanNode(false);
        }
        case 'n' -> {
          literal("null");
          yield F.nullNode();
        }
        default -> {
          if (c == '-' || (c >= '0' && c <= '9')) {
            yield number();
          }
          throw new GiveUp();
        }
      };
    }

    private void literal(String word) {
      if (end - at < word.length()) {
        throw new GiveUp();
      }
      for (int i = 0; i < word.length(); i++) {
        if (b[at + i] != word.charAt(i)) {
          throw new GiveUp();
        }
      }
      at += word.length();
      delimiter();
    }

    /** What may follow a scalar: the end, whitespace, or a structural character. */
    private void delimiter() {
      if (at < end) {
        byte c = b[at];
        if (!(c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r'
            || c == '\t')) {
          throw new GiveUp();
        }
      }
    }

    private JsonNode number() {
      boolean negative = b[at] == '-';
      if (negative) {
        at++;
      }
      int digitsFrom = at;
      while (at < end && b[at] >= '0' && b[at] <= '9') {
        at++;
      }
      int digits = at - digitsFrom;
      // no digits, a leading zero, a fraction or an exponent: the mapper's
      if (digits == 0 || digits > 18 || (digits > 1 && b[digitsFrom] == '0')) {
        throw new GiveUp();
      }
      if (at < end && (b[at] == '.' || b[at] == 'e' || b[at] == 'E')) {
        throw new GiveUp();
      }
      delimiter();
      long v = 0;
      for (int i = digitsFrom; i < at; i++) {
        v = v * 10 + (b[i] - '0');
      }
      if (negative) {
        v = -v;
      }
      if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
        return F.numberNode((int) v);
      }
      return F.numberNode(v);
    }

    /** A string's characters after its opening quote, up to and past the closing one. */
    private String string() {
      int start = at;
      // the common case: ASCII without escapes
      while (at < end) {
        byte c = b[at];
        if (c == '"') {
          String s = new String(b, start, at - start, StandardCharsets.ISO_8859_1);
          at++;
          return s;
        }
        if (c == '\\' || c < 0x20) { // a byte >= 0x80 is negative
          break;
        }
        at++;
      }
      sb.setLength(0);
      sb.append(new String(b, start, at - start, StandardCharsets.ISO_8859_1));
      while (true) {
        int c = next();
        if (c == '"') {
          return sb.toString();
        }
        if (c == '\\') {
          escape();
        } else if (c >= 0x20) {
          sb.append((char) c);
        } else if (c >= 0) {
          throw new GiveUp(); // a raw control character: the mapper refuses it
        } else {
          multiByte(c);
        }
      }
    }

    private void escape() {
      int e = next();
      switch (e) {
        case '"' -> sb.append('"');
        case '\\' -> sb.append('\\');
        case '/' -> sb.append('/');
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          int v = 0;
          for (int i = 0; i < 4; i++) {
            int h = Character.digit(next(), 16);
            if (h < 0) {
              throw new GiveUp();
            }
            v = v * 16 + h;
          }
          sb.append((char) v);
        }
        default -> throw new GiveUp();
      }
    }

    /** A character of two to four bytes (the frame was checked to be strict UTF-8). */
    private void multiByte(int first) {
      int lead = first & 0xff;
      int cp;
      int more;
      if (lead >= 0xf0) {
        cp = lead & 0x07;
        more = 3;
      } else if (lead >= 0xe0) {
        cp = lead & 0x0f;
        more = 2;
      } else {
        cp = lead & 0x1f;
        more = 1;
      }
      for (int i = 0; i < more; i++) {
        cp = (cp << 6) | (next() & 0x3f);
      }
      sb.appendCodePoint(cp);
    }

    private ObjectNode object(int depth) {
      if (depth > MAX_DEPTH) {
        throw new GiveUp();
      }
      at++; // {
      ObjectNode o = F.objectNode();
      ws();
      if (at < end && b[at] == '}') {
        at++;
        return o;
      }
      while (true) {
        ws();
        if (next() != '"') {
          throw new GiveUp();
        }
        String key = string();
        ws();
        if (next() != ':') {
          throw new GiveUp();
        }
        ws();
        JsonNode v = value(depth);
        if (o.replace(key, v) != null) {
          throw new GiveUp(); // a duplicate member: the mapper's rule decides
        }
        ws();
        int c = next();
        if (c == '}') {
          return o;
        }
        if (c != ',') {
          throw new GiveUp();
        }
      }
    }

    private ArrayNode array(int depth) {
      if (depth > MAX_DEPTH) {
        throw new GiveUp();
      }
      at++; // [
      ArrayNode a = F.arrayNode();
      ws();
      if (at < end && b[at] == ']') {
        at++;
        return a;
      }
      while (true) {
        ws();
        a.add(value(depth));
        ws();
        int c = next();
        if (c == ']') {
          return a;
        }
        if (c != ',') {
          throw new GiveUp();
        }
      }
    }
  }

  // ---- writing ----

  /**
   * The bytes {@link MessageCodec#encode} writes through the mapper, or {@code null} when the
   * message holds a node kind or a character this writer does not write.
   */
  static byte @Nullable [] encode(JsonRpcMessage message) {
    Writer w = new Writer();
    try {
      w.raw("{\"jsonrpc\":\"2.0\"");
      switch (message) {
        case JsonRpcMessage.Request r -> {
          w.id(r.id());
          w.raw(",\"method\":");
          w.string(r.method());
          if (r.params() != null) {
            w.raw(",\"params\":");
            w.node(r.params(), 0);
          }
        }
        case JsonRpcMessage.Notification n -> {
          w.raw(",\"method\":");
          w.string(n.method());
          if (n.params() != null) {
            w.raw(",\"params\":");
            w.node(n.params(), 0);
          }
        }
        case JsonRpcMessage.Result r -> {
          w.id(r.id());
          w.raw(",\"result\":");
          w.node(r.result(), 0);
        }
        case JsonRpcMessage.Error e -> {
          if (e.id() == null) {
            w.raw(",\"id\":null");
          } else {
            w.id(e.id());
          }
          w.raw(",\"error\":{\"code\":");
          w.raw(Integer.toString(e.error().code()));
          w.raw(",\"message\":");
          w.string(e.error().message());
          JsonNode data = e.error().data();
          if (data != null) {
            w.raw(",\"data\":");
            w.node(data, 0);
          }
          w.out.write('}');
        }
      }
      w.out.write('}');
      return w.out.toByteArray();
    } catch (GiveUp e) {
      return null;
    }
  }

  private static final class Writer {
    final ByteArrayOutputStream out = new ByteArrayOutputStream(256);

    void raw(String ascii) {
      for (int i = 0, n = ascii.length(); i < n; i++) {
        out.write(ascii.charAt(i));
      }
    }

    void id(RequestId id) {
      raw(",\"id\":");
      switch (id) {
        case RequestId.Text t -> string(t.value());
        case RequestId.Number n -> raw(Long.toString(n.value()));
      }
    }

    void node(JsonNode node, int depth) {
      if (depth > MAX_DEPTH) {
        throw new GiveUp();
      }
      switch (node) {
        case ObjectNode o -> {
          out.write('{');
          boolean first = true;
          for (Map.Entry<String, JsonNode> e : o.properties()) {
            if (!first) {
              out.write(',');
            }
            first = false;
            string(e.getKey());
            out.write(':');
            node(e.getValue(), depth + 1);
          }
          out.write('}');
        }
        case ArrayNode a -> {
          out.write('[');
          for (int i = 0, n = a.size(); i < n; i++) {
            if (i > 0) {
              out.write(',');
            }
            node(a.get(i), depth + 1);
          }
          out.write(']');
        }
        case StringNode s -> string(s.stringValue());
        case BooleanNode bool -> raw(bool.booleanValue() ? "true" : "false");
        case NullNode n -> raw("null");
        case IntNode i -> raw(Integer.toString(i.intValue()));
        case LongNode l -> raw(Long.toString(l.longValue()));
        case BigIntegerNode big -> raw(big.bigIntegerValue().toString());
        default -> throw new GiveUp();
      }
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    void string(String s) {
      out.write('"');
      for (int i = 0, n = s.length(); i < n; i++) {
        char c = s.charAt(i);
        if (c < 0x80) {
          if (c >= 0x20 && c != '"' && c != '\\') {
            out.write(c);
            continue;
          }
          out.write('\\');
          switch (c) {
            case '"' -> out.write('"');
            case '\\' -> out.write('\\');
            case '\b' -> out.write('b');
            case '\t' -> out.write('t');
            case '\n' -> out.write('n');
            case '\f' -> out.write('f');
            case '\r' -> out.write('r');
            default -> {
              out.write('u');
              out.write('0');
              out.write('0');
              out.write(HEX[c >> 4]);
              out.write(HEX[c & 0xf]);
            }
          }
        } else if (c < 0x800) {
          out.write(0xc0 | (c >> 6));
          out.write(0x80 | (c & 0x3f));
        } else if (Character.isSurrogate(c)) {
          throw new GiveUp();
        } else {
          out.write(0xe0 | (c >> 12));
          out.write(0x80 | ((c >> 6) & 0x3f));
          out.write(0x80 | (c & 0x3f));
        }
      }
      out.write('"');
    }
  }
}
