package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The catalog layer and the layered view a session sees, without a session around them. */
class CatalogTest {
  /** An entry: a key and which layer's version it is. */
  record Item(String key, String from) {}

  private static final Catalog.Kind<Item> SORTED =
      new Catalog.Kind<>(CatalogArea.TOOLS, Item::key, Catalog.Order.BY_KEY);
  private static final Catalog.Kind<Item> REGISTERED =
      new Catalog.Kind<>(CatalogArea.RESOURCES, Item::key, Catalog.Order.BY_REGISTRATION);

  private final List<String> serverTold = new CopyOnWriteArrayList<>();
  private final List<String> sessionTold = new CopyOnWriteArrayList<>();

  private Catalog<Item> server(Catalog.Kind<Item> kind, String... keys) {
    List<Item> initial = new ArrayList<>();
    for (String k : keys) {
      initial.add(new Item(k, "server"));
    }
    return new Catalog<>(kind, area -> serverTold.add(area.method()), initial);
  }

  private LayeredCatalog<Item> session(Catalog<Item> server) {
    return new LayeredCatalog<>(server, area -> sessionTold.add(area.method()));
  }

  private static List<String> keys(List<Item> items) {
    return items.stream().map(Item::key).toList();
  }

  @Test
  void aSessionEntryShadowsTheServersEntryWithTheSameKeyInThatViewOnly() {
    Catalog<Item> server = server(SORTED, "a", "b");
    LayeredCatalog<Item> mine = session(server);
    LayeredCatalog<Item> other = session(server);

    mine.overlay().put(new Item("b", "session"));

    assertThat(mine.get("b")).isEqualTo(new Item("b", "session"));
    assertThat(mine.list()).containsExactly(new Item("a", "server"), new Item("b", "session"));
    assertThat(other.get("b")).isEqualTo(new Item("b", "server"));
    assertThat(other.list()).containsExactly(new Item("a", "server"), new Item("b", "server"));
    assertThat(server.list()).containsExactly(new Item("a", "server"), new Item("b", "server"));
  }

  @Test
  void removingAnOverlayEntryShowsTheServersAgain() {
    Catalog<Item> server = server(REGISTERED, "x", "y");
    LayeredCatalog<Item> mine = session(server);
    mine.overlay().put(new Item("x", "session"));
    assertThat(mine.list()).containsExactly(new Item("x", "session"), new Item("y", "server"));

    assertThat(mine.overlay().remove("x")).isTrue();

    assertThat(mine.get("x")).isEqualTo(new Item("x", "server"));
    assertThat(mine.list()).containsExactly(new Item("x", "server"), new Item("y", "server"));
    assertThat(mine.overlay().remove("x")).isFalse();
    assertThat(server.get("x")).isEqualTo(new Item("x", "server"));
  }

  @Test
  void sortedKindsListTheUnionByKeyWithTheOverlayWinningTies() {
    Catalog<Item> server = server(SORTED, "b", "d", "f");
    LayeredCatalog<Item> mine = session(server);
    mine.overlay().put(new Item("g", "session"));
    mine.overlay().put(new Item("a", "session"));
    mine.overlay().put(new Item("d", "session"));

    assertThat(mine.list())
        .containsExactly(
            new Item("a", "session"),
            new Item("b", "server"),
            new Item("d", "session"),
            new Item("f", "server"),
            new Item("g", "session"));
  }

  @Test
  void registrationOrderKeepsTheServersPlacesThenTheSessionsOwnInTheirOrder() {
    Catalog<Item> server = server(REGISTERED, "z", "m", "a");
    LayeredCatalog<Item> mine = session(server);
    mine.overlay().put(new Item("q", "session"));
    mine.overlay().put(new Item("m", "session"));
    mine.overlay().put(new Item("b", "session"));

    assertThat(mine.list())
        .containsExactly(
            new Item("z", "server"),
            new Item("m", "session"),
            new Item("a", "server"),
            new Item("q", "session"),
            new Item("b", "session"));
  }

  @Test
  void aReplacedEntryKeepsItsPlaceInRegistrationOrder() {
    Catalog<Item> server = server(REGISTERED, "one", "two", "three");

    server.put(new Item("two", "replaced"));

    assertThat(server.list())
        .containsExactly(
            new Item("one", "server"), new Item("two", "replaced"), new Item("three", "server"));
  }

  @Test
  void theListingIsTheSameWhileNothingChangesSoPagesLineUp() {
    Catalog<Item> server = server(SORTED, "a", "c", "e");
    LayeredCatalog<Item> mine = session(server);
    mine.overlay().put(new Item("b", "session"));

    List<Item> first = mine.list();
    List<Item> second = mine.list();
    assertThat(second).isSameAs(first);
    assertThat(server.list()).isSameAs(server.list());

    server.put(new Item("d", "server"));
    assertThat(keys(mine.list())).containsExactly("a", "b", "c", "d", "e");
    assertThat(keys(first))
        .as("an earlier listing is a snapshot")
        .containsExactly("a", "b", "c", "e");
  }

  @Test
  void aSessionThatAddsNothingHasNoOverlayAndSeesTheServersListItself() {
    Catalog<Item> server = server(SORTED, "a");
    LayeredCatalog<Item> mine = session(server);

    assertThat(mine.overlayIfPresent()).isNull();
    assertThat(mine.list()).isSameAs(server.list());
    assertThat(mine.get("nope")).isNull();
    assertThat(mine.overlayIfPresent()).isNull();
    assertThat(mine.overlay()).isSameAs(mine.overlay());
  }

  @Test
  void
      eachChangeIsToldToItsOwnLayersAudienceOnlyAndNothingIsToldForTheInitialEntriesOrANoOpRemoval() {
    Catalog<Item> server = server(SORTED, "a");
    LayeredCatalog<Item> mine = session(server);
    assertThat(serverTold).isEmpty();

    server.put(new Item("b", "server"));
    mine.overlay().put(new Item("c", "session"));
    mine.overlay().remove("c");
    server.remove("b");
    server.remove("never-there");
    mine.overlay().remove("never-there");

    assertThat(serverTold).containsExactly(CatalogArea.TOOLS.method(), CatalogArea.TOOLS.method());
    assertThat(sessionTold).containsExactly(CatalogArea.TOOLS.method(), CatalogArea.TOOLS.method());
  }

  @Test
  void concurrentChangesAndListingsNeverFailAndEveryListingIsSortedAndUnique() throws Exception {
    Catalog<Item> server = server(SORTED);
    LayeredCatalog<Item> mine = session(server);
    int perWriter = 300;
    CountDownLatch start = new CountDownLatch(1);
    AtomicBoolean writing = new AtomicBoolean(true);
    List<Future<?>> writers = new ArrayList<>();
    List<Future<Integer>> readers = new ArrayList<>();
    // Platform threads: the readers spin without blocking, and spinning virtual threads would hold
    // every carrier thread on a two-core machine and starve the writers.
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      for (int w = 0; w < 2; w++) {
        int writer = w;
        writers.add(
            pool.submit(() -> {
              start.await();
              for (int i = 0; i < perWriter; i++) {
                String key = String.format("k%d-%04d", writer, i);
                server.put(new Item(key, "server"));
                mine.overlay().put(new Item(String.format("s%d-%04d", writer, i), "session"));
                if (i % 3 == 0) {
                  mine.overlay().put(new Item(key, "session")); // shadows the server's
                }
              }
              return null;
            }));
      }
      for (int r = 0; r < 2; r++) {
        readers.add(
            pool.submit(() -> {
              start.await();
              int listings = 0;
              do {
                List<Item> listed = mine.list();
                for (int i = 1; i < listed.size(); i++) {
                  if (listed.get(i - 1).key().compareTo(listed.get(i).key()) >= 0) {
                    throw new AssertionError("not sorted and unique at " + i + ": " + keys(listed));
                  }
                }
                listings++;
              } while (writing.get());
              return listings;
            }));
      }
      start.countDown();
      for (Future<?> f : writers) {
        f.get(30, TimeUnit.SECONDS);
      }
      writing.set(false);
      for (Future<Integer> f : readers) {
        assertThat(f.get(30, TimeUnit.SECONDS)).isPositive();
      }
    } finally {
      writing.set(false); // a failed writer must not leave the readers spinning
      pool.shutdownNow();
    }

    List<Item> all = mine.list();
    assertThat(all).hasSize(4 * perWriter);
    assertThat(all.stream().filter(i -> i.from().equals("session")))
        .hasSize(2 * perWriter + 2 * ((perWriter + 2) / 3));
    assertThat(server.list()).hasSize(2 * perWriter);
  }
}
