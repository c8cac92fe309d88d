package dev.herald.bench;

import dev.herald.wire.DecodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProgressNotificationParams;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.node.ObjectNode;

/**
 * The wire codec on the three messages a long tool call is made of: the {@code tools/call}
 * request, its {@code notifications/progress} stream and the {@code CallToolResult} response.
 *
 * <p>Decode starts from the frame's bytes (as a transport hands them over) and ends with a
 * classified {@link DecodedMessage} holding a JSON tree; encode starts from that message and ends
 * with the frame's bytes. {@link #progressFromTree()} is the typed view the receiver makes of each
 * progress notification's params.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CodecBenchmark {

  /** A progress notification as Herald's emitter sends it: a 128-bit hex token, value, total, message. */
  static final String PROGRESS =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":"
          + "{\"progressToken\":\"9f86d081884c7d659a2feaa0c55ad015\",\"progress\":42,\"total\":100,"
          + "\"message\":\"Processing item 42 of 100\"}}";

  /** A tools/call request with small arguments and a progress token, as Herald's client sends it. */
  static final String TOOLS_CALL =
      "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3},"
          + "\"_meta\":{\"progressToken\":\"9f86d081884c7d659a2feaa0c55ad015\"}}}";

  /** A CallToolResult with one text block. */
  static final String CALL_TOOL_RESULT =
      "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"The sum is 5.\"}]}}";

  byte[] progressBytes;
  byte[] toolsCallBytes;
  byte[] callToolResultBytes;

  JsonRpcMessage progressMessage;
  JsonRpcMessage toolsCallMessage;
  JsonRpcMessage callToolResultMessage;

  ObjectNode progressParams;

  @Setup
  public void setup() {
    progressBytes = PROGRESS.getBytes(StandardCharsets.UTF_8);
    toolsCallBytes = TOOLS_CALL.getBytes(StandardCharsets.UTF_8);
    callToolResultBytes = CALL_TOOL_RESULT.getBytes(StandardCharsets.UTF_8);

    progressMessage = valid(progressBytes);
    toolsCallMessage = valid(toolsCallBytes);
    callToolResultMessage = valid(callToolResultBytes);
    progressParams = ((JsonRpcMessage.Notification) progressMessage).params();

    // Guard against measuring something else: encode must reproduce each frame byte for byte,
    // and the typed view must read the value.
    roundTrips(progressMessage, progressBytes);
    roundTrips(toolsCallMessage, toolsCallBytes);
    roundTrips(callToolResultMessage, callToolResultBytes);
    if (McpJson.fromTree(progressParams, ProgressNotificationParams.class).progressValue() != 42) {
      throw new IllegalStateException("fromTree read the wrong progress value");
    }
  }

  private static JsonRpcMessage valid(byte[] frame) {
    if (MessageCodec.decode(frame) instanceof DecodedMessage.Valid v) {
      return v.message();
    }
    throw new IllegalStateException(
        "benchmark frame does not decode: " + new String(frame, StandardCharsets.UTF_8));
  }

  private static void roundTrips(JsonRpcMessage message, byte[] frame) {
    byte[] encoded = MessageCodec.encode(message);
    if (!Arrays.equals(encoded, frame)) {
      throw new IllegalStateException(
          "encode does not reproduce the frame: " + new String(encoded, StandardCharsets.UTF_8));
    }
  }

  @Benchmark
  public DecodedMessage decodeProgress() {
    return MessageCodec.decode(progressBytes);
  }

  @Benchmark
  public DecodedMessage decodeToolsCall() {
    return MessageCodec.decode(toolsCallBytes);
  }

  @Benchmark
  public DecodedMessage decodeCallToolResult() {
    return MessageCodec.decode(callToolResultBytes);
  }

  @Benchmark
  public byte[] encodeProgress() {
    return MessageCodec.encode(progressMessage);
  }

  @Benchmark
  public byte[] encodeToolsCall() {
    return MessageCodec.encode(toolsCallMessage);
  }

  @Benchmark
  public byte[] encodeCallToolResult() {
    return MessageCodec.encode(callToolResultMessage);
  }

  @Benchmark
  public ProgressNotificationParams progressFromTree() {
    return McpJson.fromTree(progressParams, ProgressNotificationParams.class);
  }
}
