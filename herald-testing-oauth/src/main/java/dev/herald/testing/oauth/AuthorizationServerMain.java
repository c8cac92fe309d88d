package dev.herald.testing.oauth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.oauth2.server.authorization.OAuth2AuthorizationServerConfigurer;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.client.InMemoryRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.settings.OAuth2TokenFormat;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenClaimsContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.context.SecurityContextHolderFilter;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Spring Authorization Server configured for Herald's tests, run in a child JVM by {@link
 * AuthorizationServerProcess} (which passes the arguments below); never shipped.
 *
 * <p>Arguments (Spring Boot properties): {@code --server.port}, {@code --herald.issuer} (the
 * issuer identifier), {@code --herald.token-ttl} (ISO-8601, the access tokens' lifetime, 5
 * minutes by default), {@code --herald.auto-login} (a user name: the authorization endpoint treats
 * every request as that user's, already logged in, so a test can follow the authorization URL
 * with a plain HTTP client), {@code --herald.redirect-uris} (comma-separated, the public client's
 * redirect URIs besides {@code http://127.0.0.1/callback}).
 *
 * <p>RFC 8707: the access token's {@code aud} is the {@code resource} parameter(s) of the token
 * request, else of the authorization request, else the client id (Spring Authorization Server's
 * own default). The clients, users and secrets are {@link AuthorizationServerProcess}'s constants.
 * {@code POST /testing/rotate-keys} replaces the signing key with a new one (new key id).
 */
@SpringBootApplication(proxyBeanMethods = false)
public class AuthorizationServerMain {

  public static void main(String[] args) {
    SpringApplication.run(AuthorizationServerMain.class, args);
  }

  @Bean
  SecurityFilterChain securityFilterChain(HttpSecurity http, Environment env) throws Exception {
    OAuth2AuthorizationServerConfigurer as = new OAuth2AuthorizationServerConfigurer();
    http.with(
            as,
            c ->
                c.oidc(Customizer.withDefaults())
                    .clientRegistrationEndpoint(r -> r.openRegistrationAllowed(true)))
        .authorizeHttpRequests(a ->
            a.requestMatchers("/testing/**", "/oauth2/register", "/error")
                .permitAll()
                .anyRequest()
                .authenticated())
        .csrf(c ->
            c.ignoringRequestMatchers(as.getEndpointsMatcher())
                .ignoringRequestMatchers("/testing/**"))
        .oauth2ResourceServer(rs -> rs.jwt(Customizer.withDefaults()))
        .formLogin(Customizer.withDefaults());
    String autoLogin = env.getProperty("herald.auto-login", "");
    if (!autoLogin.isEmpty()) {
      http.addFilterAfter(new AutoLogin(autoLogin), SecurityContextHolderFilter.class);
    }
    return http.build();
  }

  /** Treats requests to the authorization endpoint as those of a logged-in user. */
  static final class AutoLogin extends OncePerRequestFilter {
    private final String user;

    AutoLogin(String user) {
      this.user = user;
    }

    @Override
    protected void doFilterInternal(
        HttpServletRequest request, HttpServletResponse response, FilterChain chain)
        throws ServletException, IOException {
      if (request.getRequestURI().equals("/oauth2/authorize")
          && SecurityContextHolder.getContext().getAuthentication() == null) {
        SecurityContextHolder.getContext()
            .setAuthentication(
                UsernamePasswordAuthenticationToken.authenticated(
                    user, null, List.of(new SimpleGrantedAuthority("ROLE_USER"))));
      }
      chain.doFilter(request, response);
    }
  }

  @Bean
  UserDetailsService users() {
    return new InMemoryUserDetailsManager(
        User.withUsername(AuthorizationServerProcess.USER)
            .password("{noop}" + AuthorizationServerProcess.PASSWORD)
            .roles("USER")
            .build());
  }

  @Bean
  RegisteredClientRepository clients(Environment env) {
    Duration ttl = Duration.parse(env.getProperty("herald.token-ttl", "PT5M"));
    List<String> scopes = List.of("openid", "tools:read", "tools:call", "admin");
    List<RegisteredClient> clients = new ArrayList<>();
    clients.add(
        machine(
            AuthorizationServerProcess.MACHINE_CLIENT_ID,
            AuthorizationServerProcess.MACHINE_CLIENT_SECRET,
            ttl,
            scopes,
            OAuth2TokenFormat.SELF_CONTAINED));
    clients.add(
        machine(
            AuthorizationServerProcess.SHORT_LIVED_CLIENT_ID,
            AuthorizationServerProcess.SHORT_LIVED_CLIENT_SECRET,
            Duration.ofSeconds(1),
            scopes,
            OAuth2TokenFormat.SELF_CONTAINED));
    clients.add(
        machine(
            AuthorizationServerProcess.OPAQUE_CLIENT_ID,
            AuthorizationServerProcess.OPAQUE_CLIENT_SECRET,
            ttl,
            scopes,
            OAuth2TokenFormat.REFERENCE));
    clients.add(
        machine(
            AuthorizationServerProcess.RESOURCE_CLIENT_ID,
            AuthorizationServerProcess.RESOURCE_CLIENT_SECRET,
            ttl,
            List.of("introspect"),
            OAuth2TokenFormat.SELF_CONTAINED));
    List<String> redirects = new ArrayList<>();
    redirects.add(AuthorizationServerProcess.REDIRECT_URI);
    for (String uri : env.getProperty("herald.redirect-uris", "").split(",", -1)) {
      if (!uri.isBlank()) {
        redirects.add(uri.strip());
      }
    }
    clients.add(browser(AuthorizationServerProcess.PUBLIC_CLIENT_ID, null, ttl, scopes, redirects));
    clients.add(
        browser(
            AuthorizationServerProcess.CONFIDENTIAL_CLIENT_ID,
            AuthorizationServerProcess.CONFIDENTIAL_CLIENT_SECRET,
            ttl,
            scopes,
            redirects));
    return new InMemoryRegisteredClientRepository(clients);
  }

  /**
   * A client of the authorization code grant with PKCE and refresh tokens: public (no secret,
   * authentication {@code none}) or confidential (a secret, basic or post).
   */
  private static RegisteredClient browser(
      String id,
      @Nullable String secret,
      Duration ttl,
      List<String> scopes,
      List<String> redirects) {
    RegisteredClient.Builder b = RegisteredClient.withId(UUID.randomUUID().toString()).clientId(id);
    if (secret == null) {
      b.clientAuthenticationMethod(ClientAuthenticationMethod.NONE);
    } else {
      b.clientSecret("{noop}" + secret)
          .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
          .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_POST);
    }
    return b.authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
        .authorizationGrantType(AuthorizationGrantType.REFRESH_TOKEN)
        .redirectUris(uris -> uris.addAll(redirects))
        .scopes(s -> s.addAll(scopes))
        .clientSettings(
            ClientSettings.builder()
                .requireProofKey(true)
                .requireAuthorizationConsent(false)
                .build())
        .tokenSettings(TokenSettings.builder().accessTokenTimeToLive(ttl).build())
        .build();
  }

  private static RegisteredClient machine(
      String id, String secret, Duration ttl, List<String> scopes, OAuth2TokenFormat format) {
    return RegisteredClient.withId(UUID.randomUUID().toString())
        .clientId(id)
        .clientSecret("{noop}" + secret)
        .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
        .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_POST)
        .authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
        .scopes(s -> s.addAll(scopes))
        .tokenSettings(
            TokenSettings.builder().accessTokenTimeToLive(ttl).accessTokenFormat(format).build())
        .build();
  }

  @Bean
  AuthorizationServerSettings settings(Environment env) {
    AuthorizationServerSettings.Builder b = AuthorizationServerSettings.builder();
    String issuer = env.getProperty("herald.issuer", "");
    if (!issuer.isEmpty()) {
      b.issuer(issuer);
    }
    return b.build();
  }

  @Bean
  SigningKeys signingKeys() {
    return new SigningKeys();
  }

  @Bean
  JWKSource<SecurityContext> jwkSource(SigningKeys keys) {
    return (selector, context) -> selector.select(keys.current());
  }

  @Bean
  JwtDecoder jwtDecoder(JWKSource<SecurityContext> jwkSource) {
    return NimbusJwtDecoder.withJwkSource(jwkSource).build();
  }

  @Bean
  OAuth2TokenCustomizer<JwtEncodingContext> jwtAudience() {
    return context -> {
      if (OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType())) {
        context.getClaims().claim("client_id", context.getRegisteredClient().getClientId());
        List<String> resources = resources(context);
        if (!resources.isEmpty()) {
          context.getClaims().audience(resources);
        }
      }
    };
  }

  @Bean
  OAuth2TokenCustomizer<OAuth2TokenClaimsContext> opaqueAudience() {
    return context -> {
      if (OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType())) {
        context.getClaims().claim("client_id", context.getRegisteredClient().getClientId());
        List<String> resources = resources(context);
        if (!resources.isEmpty()) {
          context.getClaims().audience(resources);
        }
      }
    };
  }

  /** The RFC 8707 resource indicators of the token request, else of the authorization request. */
  static List<String> resources(OAuth2TokenContext context) {
    List<String> out = new ArrayList<>();
    if (context.getAuthorizationGrant()
        instanceof
        org.springframework.security.oauth2.server.authorization.authentication
                .OAuth2AuthorizationGrantAuthenticationToken
            grant) {
      add(out, grant.getAdditionalParameters().get("resource"));
    }
    OAuth2Authorization authorization = context.getAuthorization();
    if (out.isEmpty() && authorization != null) {
      OAuth2AuthorizationRequest request =
          authorization.getAttribute(OAuth2AuthorizationRequest.class.getName());
      if (request != null) {
        add(out, request.getAdditionalParameters().get("resource"));
      }
    }
    return out;
  }

  private static void add(List<String> out, Object value) {
    if (value instanceof String s) {
      out.add(s);
    } else if (value instanceof String[] a) {
      out.addAll(Arrays.asList(a));
    } else if (value instanceof Collection<?> c) {
      c.forEach(o -> out.add(String.valueOf(o)));
    }
  }

  /** The signing key, replaced by {@code POST /testing/rotate-keys}. */
  static final class SigningKeys {
    private volatile JWKSet current = new JWKSet(newKey());

    JWKSet current() {
      return current;
    }

    String rotate() {
      RSAKey key = newKey();
      current = new JWKSet(key);
      return key.getKeyID();
    }

    private static RSAKey newKey() {
      try {
        return new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate();
      } catch (JOSEException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @RestController
  static class Testing {
    private final SigningKeys keys;

    Testing(SigningKeys keys) {
      this.keys = keys;
    }

    @PostMapping("/testing/rotate-keys")
    Map<String, String> rotate() {
      return Map.of("kid", keys.rotate());
    }
  }
}
