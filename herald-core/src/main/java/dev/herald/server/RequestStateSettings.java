package dev.herald.server;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How a server protects the {@code requestState} of its multi round-trip answers (MCP 2026-07-28
 * basic/patterns/mrtr, "Request State"): the client must echo the state exactly, and the
 * specification tells servers to treat it as attacker-controlled, to protect its integrity and to
 * bind it to the principal, an expiry and the request.
 *
 * <p>Herald signs every {@code requestState} it issues with HMAC-SHA256 under the current key and
 * accepts a state signed by any of the keys it knows, so keys rotate without breaking rounds in
 * flight: make the new key current and keep the old one as a verifying key for at least the
 * {@linkplain Builder#ttl lifetime} of a state. A state is bound to the request's method, the
 * tool or prompt name or resource uri, a digest of the arguments, an expiry and, when the
 * {@linkplain Builder#principal principal hook} names one, to that principal; any other use is
 * refused with -32602. The state is signed, not encrypted: the client can read what it carries
 * (its own answers and the handler's {@link InputRequired#state()}), so a handler must not put
 * secrets in its own state.
 *
 * <p>The default ({@link #defaults()}) signs with a random key made once per process: rounds
 * survive as long as the process does, but not a restart and not a hop to another instance. A
 * server behind a load balancer shares keys among its instances.
 *
 * {@snippet :
 * McpServer server = McpServer.builder()
 *     .requestState(RequestStateSettings.builder()
 *         .signingKey("2026-12", currentSecret)    // 32 random bytes or more
 *         .verifyingKey("2026-11", previousSecret)  // still accepted until its states expire
 *         .ttl(Duration.ofMinutes(5))
 *         .build())
 *     .build();
 * }
 *
 * <p>Immutable and thread-safe.
 */
public final class RequestStateSettings {
  /** Default lifetime of an issued state. */
  public static final Duration DEFAULT_TTL = Duration.ofMinutes(10);

  /** Default bound on the length of a state, issued or received, in characters. */
  public static final int DEFAULT_MAX_LENGTH = 64 * 1024;

  private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{1,32}");

  private static final RequestStateSettings DEFAULTS = builder().build();

  final String currentKeyId;

  /** The keys by id, or {@code null} for the process key alone (drawn on first use). */
  private final @Nullable Map<String, byte[]> keys;

  final Duration ttl;
  final Clock clock;
  final int maxLength;
  final Function<RequestContext, @Nullable String> principal;

  private RequestStateSettings(Builder b) {
    if (b.currentKeyId == null) {
      this.currentKeyId = ProcessKey.ID;
      this.keys = null; // not ProcessKey.KEY here: seeding SecureRandom would slow every start-up
    } else {
      this.currentKeyId = b.currentKeyId;
      this.keys = Map.copyOf(b.keys);
    }
    this.ttl = b.ttl;
    this.clock = b.clock;
    this.maxLength = b.maxLength;
    this.principal = b.principal;
  }

  /** The key with this id, or {@code null} if none. */
  byte @Nullable [] key(String id) {
    if (keys != null) {
      return keys.get(id);
    }
    return id.equals(ProcessKey.ID) ? ProcessKey.KEY : null;
  }

  /** Signing with a random per-process key, a lifetime of {@link #DEFAULT_TTL}, no principal. */
  public static RequestStateSettings defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** How long an issued state is accepted. */
  public Duration ttl() {
    return ttl;
  }

  /** Builds {@link RequestStateSettings}; not thread-safe. */
  public static final class Builder {
    private @Nullable String currentKeyId;
    private final Map<String, byte[]> keys = new LinkedHashMap<>();
    private Duration ttl = DEFAULT_TTL;
    private Clock clock = Clock.systemUTC();
    private int maxLength = DEFAULT_MAX_LENGTH;
    private Function<RequestContext, @Nullable String> principal = Builder::verifiedParty;

    private Builder() {}

    /**
     * The key that signs new states (also accepted when verifying). Default: a random key made
     * once per process.
     *
     * @param id a short name carried in every state it signs: 1 to 32 of {@code A-Z a-z 0-9 _ -}
     * @param key the secret, at least 32 bytes (copied)
     * @throws IllegalArgumentException if the id or the key is unfit, or a current key was already
     *     set
     */
    public Builder signingKey(String id, byte[] key) {
      if (currentKeyId != null) {
        throw new IllegalArgumentException("the signing key was already set to " + currentKeyId);
      }
      addKey(id, key);
      currentKeyId = id;
      return this;
    }

    /**
     * An older key whose states are still accepted (key rotation); it signs nothing new.
     *
     * @throws IllegalArgumentException if the id or the key is unfit or the id is taken
     */
    public Builder verifyingKey(String id, byte[] key) {
      addKey(id, key);
      return this;
    }

    private void addKey(String id, byte[] key) {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(key, "key");
      if (!KEY_ID.matcher(id).matches()) {
        throw new IllegalArgumentException(
            "a key id is 1 to 32 of A-Z a-z 0-9 _ -, was \"" + id + "\"");
      }
      if (key.length < 32) {
        throw new IllegalArgumentException(
            "key " + id + " has " + key.length + " bytes; at least 32 are needed");
      }
      if (keys.putIfAbsent(id, key.clone()) != null) {
        throw new IllegalArgumentException("key id " + id + " was already used");
      }
    }

    /**
     * How long an issued state is accepted (default {@link #DEFAULT_TTL}). Each round issues a
     * fresh state, so this bounds the time the client may take to answer one round.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder ttl(Duration ttl) {
      if (ttl.isNegative() || ttl.isZero()) {
        throw new IllegalArgumentException("ttl must be positive, was " + ttl);
      }
      this.ttl = ttl;
      return this;
    }

    /** The wall clock for expiry (default {@link Clock#systemUTC()}). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Bound on the length of a state in characters (default {@link #DEFAULT_MAX_LENGTH}): a
     * longer one received is refused with -32602, and a round whose state would be longer fails
     * with -32603.
     *
     * @throws IllegalArgumentException if less than 256
     */
    public Builder maxLength(int maxLength) {
      if (maxLength < 256) {
        throw new IllegalArgumentException("maxLength must be at least 256, was " + maxLength);
      }
      this.maxLength = maxLength;
      return this;
    }

    /**
     * The default principal hook: the party of {@link RequestContext#principal()} (issuer and
     * subject, so a refreshed or stepped-up token is the same party; {@link
     * dev.herald.auth.Principal#sameParty}), or {@code null} without authorization.
     */
    static @Nullable String verifiedParty(RequestContext context) {
      return context
          .principal()
          .map(p -> (p.issuer() == null ? "" : p.issuer()) + "\n" + p.subject())
          .orElse(null);
    }

    /**
     * Who is asking, for binding a state to its principal: the hook returns an identifier of the
     * authenticated principal behind the request, or {@code null} when there is none. The default
     * is the party of {@link RequestContext#principal()} (the principal an HTTP endpoint with
     * authorization verified: its issuer and subject), so states, tasks and {@code
     * subscriptions/listen} task notifications are bound to it with nothing to configure. A state issued to one principal is refused for another. Only a digest of the
     * identifier enters the state.
     */
    public Builder principal(Function<RequestContext, @Nullable String> principal) {
      this.principal = Objects.requireNonNull(principal, "principal");
      return this;
    }

    /**
     * The settings.
     *
     * @throws IllegalStateException if verifying keys were set without a signing key
     */
    public RequestStateSettings build() {
      if (currentKeyId == null && !keys.isEmpty()) {
        throw new IllegalStateException(
            "verifying keys " + keys.keySet() + " were set without a signing key");
      }
      return new RequestStateSettings(this);
    }
  }

  /** The random key of this process, made on first use. */
  private static final class ProcessKey {
    static final String ID = "p";
    static final byte[] KEY = new byte[32];

    static {
      new SecureRandom().nextBytes(KEY);
    }
  }
}
