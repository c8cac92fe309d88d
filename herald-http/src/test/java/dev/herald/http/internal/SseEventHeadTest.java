package dev.herald.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SseEventHeadTest {
  private static String head(String stream, long seq) {
    return new String(SseStream.eventHead(stream, seq), StandardCharsets.US_ASCII);
  }

  @Test
  void theHeadIsTheIdFieldThenTheStartOfTheDataField() {
    assertThat(head("1", 1)).isEqualTo("id: 1_1\ndata: ");
    assertThat(head("17", 9)).isEqualTo("id: 17_9\ndata: ");
    assertThat(head("17", 10)).isEqualTo("id: 17_10\ndata: ");
    assertThat(head("123456789", 1_000_000_007L)).isEqualTo("id: 123456789_1000000007\ndata: ");
    assertThat(head("3", Long.MAX_VALUE)).isEqualTo("id: 3_" + Long.MAX_VALUE + "\ndata: ");
  }

  @Test
  void everySequenceNumberIsWrittenWithAllItsDigitsAroundEachPowerOfTen() {
    for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10 * 10; p *= 10) {
      for (long v : new long[] {p - 1, p, p + 1}) {
        assertThat(SseSink.digits(v)).as("digits of %d", v).isEqualTo(Long.toString(v).length());
        assertThat(head("5", v)).isEqualTo("id: 5_" + v + "\ndata: ");
      }
      if (p > Long.MAX_VALUE / 10) {
        break;
      }
    }
    assertThat(SseSink.digits(0)).isEqualTo(1);
    assertThat(SseSink.digits(Long.MAX_VALUE)).isEqualTo(19);
  }
}
