package dev.herald.client.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class PkceTest {

  @Test
  void theChallengeIsTheBase64UrlSha256OfTheVerifier() {
    // computed independently (Python hashlib + base64.urlsafe_b64encode, padding stripped)
    assertThat(Pkce.challenge("dBjftJeZ4CVP-mJ92K9qj5LeGbvU8FqKt1pmTFVVRtI"))
        .isEqualTo("EcJLrkE3oX63HXzcdRsucwrgvIcfS9YzLquiX2qEums");
  }

  @Test
  void aVerifierHas43UnreservedCharactersAndIsNeverReused() {
    SecureRandom random = new SecureRandom();
    Pkce a = Pkce.generate(random);
    Pkce b = Pkce.generate(random);
    assertThat(a.verifier()).hasSize(43).matches("[A-Za-z0-9_-]+");
    assertThat(a.challenge()).isEqualTo(Pkce.challenge(a.verifier())).doesNotContain("=");
    assertThat(a.verifier()).isNotEqualTo(b.verifier());
  }
}
