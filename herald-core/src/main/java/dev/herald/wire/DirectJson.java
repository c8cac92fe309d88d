package dev.herald.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
 * A message read from bytes into a tree, and a message written from its tree to bytes, without the
 * mapper's parser or generator: the request path's common messages (a {@code tools/call} and its
 * text result), read and written with the mapper's result and nothing else.
 *
 * <p>Design note (docs/benchmarks.md, "Server CPU per call"). For a body of a few hundred bytes
 * the mapper spends more on setting up (a parser or generator, its context, a recycled buffer, the
 * tree deserializer) than on the bytes. These read and write the JSON subset such messages use
 * directly: objects, arrays, strings, {@code true}, {@code false}, {@code null} and integers of up
 * to 18 digits. Anything else (a fraction or an exponent, a longer integer, a duplicate member,
 * deep nesting, an unpaired surrogate, invalid JSON of any kind, a node kind the mapper writes in
 * its own way) gives {@code null}, and the caller takes the mapper's path, which also words every
 * error: this never decides a refusal. The trees are the mapper's, node kinds included ({@code
 * DirectJsonTest} compares both over many random messages).
 *
 * <p>Stateless apart from one parse's cursor; thread-safe.
 */
final class DirectJson {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** Deeper than this, the mapper reads it (and applies its own nesting limit). */
  private static final int MAX_DEPTH = 64;

  /** Longer member names go to the mapper, whose own limit is far above this. */
  private static final int MAX_NAME = 1_000;

  /** Thrown (without a stack) to leave a parse for the mapper. */
  private static final class Fallback extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Fallback() {
      super(null, null, false, false);
    }
  }

  // One shared instance, stackless and never seen outside this class: a parse leaves with it.
  @SuppressWarnings("StaticAssignmentOfThrowable")
  private static final Fallback FALLBACK = new Fallback();

  private final byte[] b;
  private final int end;
  private int at;

  private DirectJson(byte[] b, int at, int end) {
    this.b = b;
    this.at = at;
    this.end = end;
  }

  // ---------------------------------------------------------------- reading

  /**
   * The tree of a JSON object in {@code b[offset, offset + length)}, which must be valid UTF-8
   * (checked by the caller), as the mapper reads it; or null to let the mapper read it.
   */
  static @Nullable ObjectNode readObject(byte[] b, int offset, int length) {
    DirectJson p = new DirectJson(b, offset, offset + length);
    try {
      p.skipSpace();
      if (p.at >= p.end || b[p.at] != '{') {
        return null; // empty, a batch, a scalar, a byte-order mark: the mapper's
      }
      ObjectNode o = p.object(1);
      p.skipSpace();
      return p.at == p.end ? o : null;
    } catch (Fallback | ArrayIndexOutOfBoundsException e) {
      return null;
    }
  }

  private void skipSpace() {
    while (at < end) {
      byte c = b[at];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return;
      }
      at++;
    }
  }

  private byte next() {
    if (at >= end) {
      throw FALLBACK;
    }
    return b[at];
  }

  private JsonNode value(int depth) {
    skipSpace();
    byte c = next();
    return switch (c) {
      case '{' -> object(depth + 1);
      case '[' -> array(depth + 1);
      case '"' -> F.stringNode(string(Integer.MAX_VALUE));
      case 't' -> {
        literal("true");
        yield BooleanNode.TRUE;
      }
      case 'f' -> {
        literal("false");
        yield BooleanNode.FALSE;
      }
      case 'n' -> {
        literal("null");
        yield NullNode.instance;
      }
      default -> integer();
    };
  }

  private ObjectNode object(int depth) {
    if (depth > MAX_DEPTH) {
      throw FALLBACK;
    }
    at++; // '{'
    ObjectNode o = F.objectNode();
    skipSpace();
    if (next() == '}') {
      at++;
      return o;
    }
    while (true) {
      skipSpace();
      if (next() != '"') {
        throw FALLBACK;
      }
      String name = string(MAX_NAME);
      skipSpace();
      if (next() != ':') {
        throw FALLBACK;
      }
      at++;
      JsonNode v = value(depth);
      if (o.putIfAbsent(name, v) != null) {
        throw FALLBACK; // a duplicate member: the mapper decides what it means
      }
      skipSpace();
      byte c = next();
      at++;
      if (c == '}') {
        return o;
      }
      if (c != ',') {
        throw FALLBACK;
      }
    }
  }

  private ArrayNode array(int depth) {
    if (depth > MAX_DEPTH) {
      throw FALLBACK;
    }
    at++; // '['
    ArrayNode a = F.arrayNode();
    skipSpace();
    if (next() == ']') {
      at++;
      return a;
    }
    while (true) {
      a.add(value(depth));
      skipSpace();
      byte c = next();
      at++;
      if (c == ']') {
        return a;
      }
      if (c != ',') {
        throw FALLBACK;
      }
    }
  }

  private void literal(String word) {
    int n = word.length();
    if (end - at < n) {
      throw FALLBACK;
    }
    for (int i = 0; i < n; i++) {
      if (b[at + i] != word.charAt(i)) {
        throw FALLBACK;
      }
    }
    at += n;
  }

  /** An integer of at most 18 digits (no fraction, no exponent, no leading zero). */
  private JsonNode integer() {
    boolean negative = b[at] == '-';
    int i = negative ? at + 1 : at;
    int first = i;
    long v = 0;
    while (i < end && b[i] >= '0' && b[i] <= '9') {
      v = v * 10 + (b[i] - '0');
      i++;
      if (i - first > 18) {
        throw FALLBACK;
      }
    }
    int digits = i - first;
    if (digits == 0 || (digits > 1 && b[first] == '0') || (negative && v == 0)) {
      throw FALLBACK; // not a number, a leading zero, or minus zero
    }
    if (i < end && (b[i] == '.' || b[i] == 'e' || b[i] == 'E')) {
      throw FALLBACK; // a fraction or an exponent: the mapper's decimal
    }
    at = i;
    if (negative) {
      v = -v;
    }
    return v == (int) v ? F.numberNode((int) v) : F.numberNode(v);
  }

  /** A string whose opening quote is at {@link #at}, of at most {@code max} bytes. */
  private String string(int max) {
    int start = ++at;
    boolean ascii = true;
    while (true) {
      if (at >= end) {
        throw FALLBACK;
      }
      byte c = b[at];
      if (c == '"') {
        break;
      }
      if (c == '\\') {
        return escaped(start, max);
      }
      if (c >= 0 && c < 0x20) {
        throw FALLBACK; // a raw control character: the mapper refuses it
      }
      if (c < 0) {
        ascii = false;
      }
      at++;
    }
    int n = at - start;
    if (n > max) {
      throw FALLBACK;
    }
    at++;
    return new String(b, start, n, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
  }

  /** The rest of a string with escapes, from {@code start}; {@link #at} is on a backslash. */
  private String escaped(int start, int max) {
    StringBuilder s = new StringBuilder(at - start + 16);
    int run = start;
    while (true) {
      if (at >= end) {
        throw FALLBACK;
      }
      byte c = b[at];
      if (c == '"') {
        s.append(new String(b, run, at - run, StandardCharsets.UTF_8));
        at++;
        if (at - start > max) {
          throw FALLBACK;
        }
        return s.toString();
      }
      if (c >= 0 && c < 0x20) {
        throw FALLBACK;
      }
      if (c != '\\') {
        at++;
        continue;
      }
      s.append(new String(b, run, at - run, StandardCharsets.UTF_8));
      if (at + 1 >= end) {
        throw FALLBACK;
      }
      byte e = b[at + 1];
      at += 2;
      switch (e) {
        case '"' -> s.append('"');
        case '\\' -> s.append('\\');
        case '/' -> s.append('/');
        case 'b' -> s.append('\b');
        case 'f' -> s.append('\f');
        case 'n' -> s.append('\n');
        case 'r' -> s.append('\r');
        case 't' -> s.append('\t');
        case 'u' -> {
          if (end - at < 4) {
            throw FALLBACK;
          }
          int u = 0;
          for (int k = 0; k < 4; k++) {
            int d = Character.digit(b[at + k], 16);
            if (d < 0) {
              throw FALLBACK;
            }
            u = (u << 4) | d;
          }
          at += 4;
          s.append((char) u);
        }
        default -> throw FALLBACK;
      }
      run = at;
    }
  }

  // ---------------------------------------------------------------- writing

  /**
   * The bytes the mapper writes for {@code message}, or null to let the mapper write it (a tree
   * holding a node kind or a string this does not write as the mapper does).
   */
  static byte @Nullable [] write(JsonRpcMessage message) {
    Out out = new Out();
    try {
      out.raw("{\"jsonrpc\":\"2.0\"");
      // instanceof, not a type switch: a type switch's first run spins a class (docs/benchmarks.md,
      // "Cold start")
      if (message instanceof JsonRpcMessage.Request r) {
        out.id(r.id());
        out.raw(",\"method\":");
        out.string(r.method());
        if (r.params() != null) {
          out.raw(",\"params\":");
          out.tree(r.params(), 0);
        }
      } else if (message instanceof JsonRpcMessage.Notification n) {
        out.raw(",\"method\":");
        out.string(n.method());
        if (n.params() != null) {
          out.raw(",\"params\":");
          out.tree(n.params(), 0);
        }
      } else if (message instanceof JsonRpcMessage.Result r) {
        out.id(r.id());
        out.raw(",\"result\":");
        out.tree(r.result(), 0);
      } else {
        JsonRpcMessage.Error e = (JsonRpcMessage.Error) message;
        if (e.id() == null) {
          out.raw(",\"id\":null");
        } else {
          out.id(e.id());
        }
        out.raw(",\"error\":{\"code\":");
        out.raw(Integer.toString(e.error().code()));
        out.raw(",\"message\":");
        out.string(e.error().message());
        JsonNode data = e.error().data();
        if (data != null) {
          out.raw(",\"data\":");
          out.tree(data, 0);
        }
        out.raw("}");
      }
      out.raw("}");
      return out.bytes();
    } catch (Fallback f) {
      return null;
    }
  }

  /** A growing byte array. */
  private static final class Out {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private byte[] buf = new byte[256];
    private int n;

    byte[] bytes() {
      return Arrays.copyOf(buf, n);
    }

    private void room(int more) {
      if (n + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, n + more));
      }
    }

    @SuppressWarnings("deprecation") // ASCII only: getBytes(int, int, byte[], int)
    void raw(String ascii) {
      int len = ascii.length();
      room(len);
      ascii.getBytes(0, len, buf, n);
      n += len;
    }

    void id(RequestId id) {
      raw(",\"id\":");
      if (id instanceof RequestId.Text t) {
        string(t.value());
      } else {
        raw(Long.toString(((RequestId.Number) id).value()));
      }
    }

    @SuppressWarnings("IfChainToSwitch") // a type switch spins a class on its first run
    void tree(JsonNode node, int depth) {
      if (depth > MAX_DEPTH) {
        throw FALLBACK;
      }
      // instanceof, not a type switch: a type switch's first run spins a class (docs/benchmarks.md,
      // "Cold start")
      if (node instanceof ObjectNode o) {
        room(1);
        buf[n++] = '{';
        boolean first = true;
        for (Map.Entry<String, JsonNode> e : o.properties()) {
          if (!first) {
            room(1);
            buf[n++] = ',';
          }
          first = false;
          string(e.getKey());
          room(1);
          buf[n++] = ':';
          tree(e.getValue(), depth + 1);
        }
        room(1);
        buf[n++] = '}';
      } else if (node instanceof ArrayNode a) {
        room(1);
        buf[n++] = '[';
        for (int i = 0, size = a.size(); i < size; i++) {
          if (i > 0) {
            room(1);
            buf[n++] = ',';
          }
          tree(a.get(i), depth + 1);
        }
        room(1);
        buf[n++] = ']';
      } else if (node instanceof StringNode s) {
        string(s.stringValue());
      } else if (node instanceof BooleanNode v) {
        raw(v.booleanValue() ? "true" : "false");
      } else if (node instanceof NullNode) {
        raw("null");
      } else if (node instanceof IntNode v) {
        raw(Integer.toString(v.intValue()));
      } else if (node instanceof LongNode v) {
        raw(Long.toString(v.longValue()));
      } else if (node instanceof BigIntegerNode v) {
        raw(v.bigIntegerValue().toString());
      } else {
        throw FALLBACK; // decimals, doubles, binary, POJOs...: the mapper's
      }
    }

    /** A quoted string, escaped as the mapper escapes it; a surrogate goes to the mapper. */
    void string(String s) {
      int len = s.length();
      room(len + 2);
      buf[n++] = '"';
      for (int i = 0; i < len; i++) {
        char c = s.charAt(i);
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '/') {
          if (n >= buf.length) {
            room(1 + len - i);
          }
          buf[n++] = (byte) c;
          continue;
        }
        room(6 + len - i);
        if (c < 0x80) {
          escapeAscii(c);
        } else if (c < 0x800) {
          buf[n++] = (byte) (0xc0 | (c >> 6));
          buf[n++] = (byte) (0x80 | (c & 0x3f));
        } else if (Character.isSurrogate(c)) {
          throw FALLBACK; // pairs and lone halves: the mapper's
        } else {
          buf[n++] = (byte) (0xe0 | (c >> 12));
          buf[n++] = (byte) (0x80 | ((c >> 6) & 0x3f));
          buf[n++] = (byte) (0x80 | (c & 0x3f));
        }
      }
      room(1);
      buf[n++] = '"';
    }

    /** An ASCII character that is not plain: escaped, or as it is (DEL, and '/' if not escaped). */
    private void escapeAscii(char c) {
      byte e =
          switch (c) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '\b' -> 'b';
            case '\f' -> 'f';
            case '\n' -> 'n';
            case '\r' -> 'r';
            case '\t' -> 't';
            default -> 0;
          };
      if (e != 0) {
        buf[n++] = '\\';
        buf[n++] = e;
      } else if (c < 0x20) {
        buf[n++] = '\\';
        buf[n++] = 'u';
        buf[n++] = '0';
        buf[n++] = '0';
        buf[n++] = HEX[c >> 4];
        buf[n++] = HEX[c & 0xf];
      } else if (c == '/' && ESCAPE_SLASH) {
        buf[n++] = '\\';
        buf[n++] = '/';
      } else {
        buf[n++] = (byte) c;
      }
    }
  }

  /**
   * Whether the mapper writes {@code /} as {@code \/}: the feature's default, which the mapper
   * keeps ({@code DirectJsonTest} writes every character both ways). Not asked of the mapper
   * itself: that would build it, which nothing before a stdio server's first answer does.
   */
  private static final boolean ESCAPE_SLASH =
      tools.jackson.core.json.JsonWriteFeature.ESCAPE_FORWARD_SLASHES.enabledByDefault();
}
