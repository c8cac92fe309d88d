package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class UriTemplateTest {

  @Test
  void levelOneVariablesMatchOneSegmentAndArePercentDecoded() {
    UriTemplate t = UriTemplate.parse("file:///{dir}/{name}.txt");

    assertThat(t.variables()).containsExactly("dir", "name");
    assertThat(t.match("file:///docs/read%2Fme.txt"))
        .contains(Map.of("dir", "docs", "name", "read/me"));
    assertThat(t.match("file:///docs/a+b.txt")).contains(Map.of("dir", "docs", "name", "a+b"));
    assertThat(t.match("file:///docs/sub/x.txt")).isEmpty();
    assertThat(t.match("file:///docs/x.md")).isEmpty();
    assertThat(t.match("file:////x.txt")).isEmpty();
  }

  @Test
  void regexCharactersInLiteralsAreLiteral() {
    assertThat(UriTemplate.parse("a://x.y/(z)/{id}").match("a://xzy/(z)/1")).isEmpty();
    assertThat(UriTemplate.parse("a://x.y/(z)/{id}").match("a://x.y/(z)/1"))
        .contains(Map.of("id", "1"));
  }

  @Test
  void operatorsAndBrokenBracesAreRefused() {
    assertThatThrownBy(() -> UriTemplate.parse("a://{?q}"))
        .hasMessageContaining("not a level-1 variable");
    assertThatThrownBy(() -> UriTemplate.parse("a://{x*}"))
        .hasMessageContaining("not a level-1 variable");
    assertThatThrownBy(() -> UriTemplate.parse("a://{x")).hasMessageContaining("without '}'");
    assertThatThrownBy(() -> UriTemplate.parse("a://x}")).hasMessageContaining("without '{'");
    assertThatThrownBy(() -> UriTemplate.parse("a://{x}/{x}")).hasMessageContaining("twice");
  }
}
