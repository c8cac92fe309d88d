package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.ErrorCodes;
import dev.herald.wire.ListResourceTemplatesResult;
import dev.herald.wire.ListResourcesResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ReadResourceParams;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceContents;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.ServerCapabilities;
import org.junit.jupiter.api.Test;

class ResourcesTest {

  static McpServer server() {
    return builder().build();
  }

  static McpServer.Builder builder() {
    return McpServer.builder()
        .eventListenerFactory(Counts.PER_SESSION)
        .resource(
            Resource.of("test://static-text", "static-text", "text/plain"),
            ResourceHandler.text(
                "text/plain", () -> "This is the content of the static text resource."))
        .resource(
            Resource.of("test://static-binary", "static-binary", "image/png"),
            ResourceHandler.blob("image/png", () -> "iVBORw0KGgo="))
        .resourceTemplate(
            ResourceTemplate.of("test://template/{id}/data", "template", "application/json"),
            read ->
                ReadResourceResult.of(
                    ResourceContents.text(
                        read.uri(),
                        "application/json",
                        "{\"id\":\"" + read.variable("id") + "\"}")))
        .resource(
            Resource.of("test://secret", "secret", "text/plain"),
            ResourceHandler.text("text/plain", () -> "s3cret"))
        .resourceAccess((session, uri) -> !uri.equals("test://secret"));
  }

  static ReadResourceResult read(Peers.Peer peer, String uri) throws Exception {
    return McpJson.resultFromTree(
        peer.request(McpMethods.RESOURCES_READ, McpJson.toObject(ReadResourceParams.of(uri))),
        ReadResourceResult.class);
  }

  @Test
  void resourcesAndTemplatesAreListedInRegistrationOrderWithoutThoseTheSessionMayNotRead()
      throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) {
      ListResourcesResult list =
          McpJson.resultFromTree(
              peer.request(McpMethods.RESOURCES_LIST, McpJson.object()), ListResourcesResult.class);
      ListResourceTemplatesResult templates =
          McpJson.resultFromTree(
              peer.request(McpMethods.RESOURCES_TEMPLATES_LIST, McpJson.object()),
              ListResourceTemplatesResult.class);

      assertThat(list.resources())
          .extracting(Resource::uri)
          .containsExactly("test://static-text", "test://static-binary");
      assertThat(list.nextCursor()).isNull();
      assertThat(templates.resourceTemplates())
          .extracting(ResourceTemplate::uriTemplate)
          .containsExactly("test://template/{id}/data");
    }
  }

  @Test
  void readReturnsTextBlobAndTemplateContents() throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) {
      assertThat(read(peer, "test://static-text").contents())
          .containsExactly(
              ResourceContents.text(
                  "test://static-text",
                  "text/plain",
                  "This is the content of the static text resource."));
      assertThat(read(peer, "test://static-binary").contents())
          .containsExactly(
              ResourceContents.blob("test://static-binary", "image/png", "iVBORw0KGgo="));
      assertThat(read(peer, "test://template/a%20b/data").contents())
          .containsExactly(
              ResourceContents.text(
                  "test://template/a%20b/data", "application/json", "{\"id\":\"a b\"}"));
    }
  }

  @Test
  void unknownUriIsResourceNotFoundWithTheUriAsData() throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) {
      McpException e =
          peer.error(
              McpMethods.RESOURCES_READ, McpJson.toObject(ReadResourceParams.of("test://nope")));

      assertThat(e.code()).isEqualTo(ErrorCodes.RESOURCE_NOT_FOUND);
      assertThat(e.getMessage()).isEqualTo("Resource not found");
      assertThat(e.data()).isEqualTo(McpJson.object().put("uri", "test://nope"));
      // a template's literal parts must match too, and a variable never spans a '/'
      assertThat(
              peer.error(
                      McpMethods.RESOURCES_READ,
                      McpJson.toObject(ReadResourceParams.of("test://template/1/2/data")))
                  .code())
          .isEqualTo(ErrorCodes.RESOURCE_NOT_FOUND);
      peer.client().ping(); // the session is still usable
    }
  }

  @Test
  void readOfAResourceTheAccessHookRefusesLooksLikeAnUnknownOne() throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) {
      McpException e =
          peer.error(
              McpMethods.RESOURCES_READ, McpJson.toObject(ReadResourceParams.of("test://secret")));

      assertThat(e.code()).isEqualTo(ErrorCodes.RESOURCE_NOT_FOUND);
      assertThat(e.data()).isEqualTo(McpJson.object().put("uri", "test://secret"));
      assertThat(read(peer, "test://static-text").contents()).hasSize(1);
    }
  }

  @Test
  void aFailingHandlerAnswersInternalErrorWithoutDetail() throws Exception {
    McpServer server =
        McpServer.builder()
            .resource(
                Resource.of("test://boom", "boom", null),
                read -> {
                  throw new java.io.IOException("disk /var/secret unreadable");
                })
            .build();
    try (Peers.Peer peer = Peers.connect(server)) {
      McpException e =
          peer.error(
              McpMethods.RESOURCES_READ, McpJson.toObject(ReadResourceParams.of("test://boom")));

      assertThat(e.code()).isEqualTo(ErrorCodes.INTERNAL_ERROR);
      assertThat(e.getMessage()).isEqualTo("Internal error");
    }
  }

  @Test
  void capabilitiesDeclareResourcesOnlyWhenTheCatalogHasEntries() throws Exception {
    try (Peers.Peer with = Peers.connect(server());
        Peers.Peer without = Peers.connect(McpServer.builder().build())) {
      assertThat(with.client().serverCapabilities().resources())
          .isEqualTo(new ServerCapabilities.Resources(true, true));
      assertThat(with.client().serverCapabilities().prompts()).isNull();
      assertThat(with.client().serverCapabilities().completions()).isNull();
      assertThat(without.client().serverCapabilities().resources()).isNull();
      assertThat(without.error(McpMethods.RESOURCES_LIST, McpJson.object()).code())
          .isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
    }
  }

  @Test
  void catalogChangesAtRunTimeReachEverySessionAsOneCoalescedListChanged() throws Exception {
    ManualScheduler clock = new ManualScheduler();
    McpServer server = builder().scheduler(clock).build();
    try (Peers.Peer a = Peers.connect(server);
        Peers.Peer b = Peers.connect(server)) {
      server
          .resources()
          .add(
              Resource.of("test://new", "new", "text/plain"),
              ResourceHandler.text("text/plain", () -> "fresh"));
      server.resources().remove("test://static-binary");
      assertThat(server.resources().remove("test://never-there")).isFalse();
      a.client().ping();
      b.client().ping();
      // the first change at once, the rest of the burst not before the window closes
      assertThat(a.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).hasSize(1);
      assertThat(b.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).hasSize(1);

      clock.advance(java.time.Duration.ofMillis(10));
      clock.advance(java.time.Duration.ofMillis(10));
      a.client().ping();
      b.client().ping();

      assertThat(a.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).hasSize(2);
      assertThat(b.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).hasSize(2);
      assertThat(read(a, "test://new").contents())
          .containsExactly(ResourceContents.text("test://new", "text/plain", "fresh"));
      assertThat(server.resources().list())
          .extracting(Resource::uri)
          .containsExactly("test://static-text", "test://secret", "test://new");
    }
  }

  @Test
  void capabilitiesComeFromOneSourceAndEachAreaCoalescesOnItsOwn() throws Exception {
    ManualScheduler clock = new ManualScheduler();
    McpServer server =
        builder()
            .scheduler(clock)
            .toolsListChanged(false)
            .completion(
                dev.herald.wire.ResourceTemplateReference.of("test://template/{id}/data"),
                req -> java.util.List.of("1"))
            .build();
    try (Peers.Peer peer = Peers.connect(server)) {
      ServerCapabilities declared = peer.client().serverCapabilities();
      assertThat(declared)
          .isEqualTo(server.capabilities())
          .isEqualTo(peer.session().serverCapabilities());
      assertThat(declared.resources()).isEqualTo(new ServerCapabilities.Resources(true, true));
      assertThat(declared.completions()).isEqualTo(McpJson.object());
      assertThat(declared.supportsLogging()).isTrue();
      assertThat(declared.toolsListChanged()).isFalse();

      server.addTool(
          dev.herald.wire.Tool.builder("late").build(),
          call -> dev.herald.wire.CallToolResult.text("x"));
      server
          .resources()
          .add(Resource.of("test://a", "a", null), ResourceHandler.text("text/plain", () -> "a"));
      server
          .resources()
          .add(Resource.of("test://b", "b", null), ResourceHandler.text("text/plain", () -> "b"));
      clock.advance(java.time.Duration.ofMillis(10));
      clock.advance(java.time.Duration.ofMillis(10));
      peer.client().ping();

      // resources: the leading change and one for the rest of the burst; tools: none
      assertThat(peer.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).hasSize(2);
      assertThat(peer.wire().notifications(McpMethods.TOOLS_LIST_CHANGED)).isEmpty();
      assertThat(Counts.of(peer.session()).gated()).isEqualTo(1); // the tools change, not declared
    }
  }

  @Test
  void aSessionThatWasNotToldAboutResourcesGetsNoListChanged() throws Exception {
    ManualScheduler clock = new ManualScheduler();
    McpServer server =
        McpServer.builder().eventListenerFactory(Counts.PER_SESSION).scheduler(clock).build();
    try (Peers.Peer peer = Peers.connect(server)) {
      server
          .resources()
          .add(
              Resource.of("test://late", "late", null),
              ResourceHandler.text("text/plain", () -> "x"));
      clock.advance(java.time.Duration.ofMillis(10));
      peer.client().ping();

      assertThat(peer.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).isEmpty();
      assertThat(Counts.of(peer.session()).gated()).isEqualTo(1);
    }
  }

  @Test
  void builderRefusesDuplicatesAndTemplatesBeyondLevelOne() {
    McpServer.Builder b =
        McpServer.builder()
            .resource(
                Resource.of("a://x", "x", null), ResourceHandler.text("text/plain", () -> ""));
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            b.resource(
                Resource.of("a://x", "x2", null), ResourceHandler.text("text/plain", () -> "")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a://x was already registered");
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            b.resourceTemplate(
                ResourceTemplate.of("a://{+path}", "p", null),
                ResourceHandler.text("text/plain", () -> "")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a level-1 variable");
  }
}
