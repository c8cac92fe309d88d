package dev.herald.tasks.contract;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskLimitExceededException;
import dev.herald.tasks.TaskOutcome;
import dev.herald.tasks.TaskOwner;
import dev.herald.tasks.TaskStore;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The {@link TaskStore} contract as tests: every store implementation extends this class, says how
 * to make a fresh store, and runs the same body (durable creation, isolation, expiry, bounds,
 * pagination, listeners, one winner of racing terminal changes, close). Time is the {@code now}
 * the store API takes; nothing sleeps.
 *
 * <p>Listeners of a shared store may be called on another thread, later: the tests wait for the
 * last expected notification, then assert the whole sequence.
 *
 * <p>Another module gets this class from herald-core's test jar ({@code <type>test-jar</type>},
 * test scope; it holds only this package) next to herald-testing, JUnit Jupiter and AssertJ. The
 * package is not part of herald-core's module: on a module path, open it to JUnit the way
 * herald-core's own Surefire configuration does.
 *
 * {@snippet :
 * class RedisTaskStoreTest extends TaskStoreContract {
 *   @Override
 *   protected TaskStore newStore(int maxActivePerOwner, int maxTasks) {
 *     return new RedisTaskStore(redis, maxActivePerOwner, maxTasks);
 *   }
 * }
 * }
 */
public abstract class TaskStoreContract {

  /** The time every test starts at. */
  protected static final Instant T0 = Instant.parse("2026-07-28T10:00:00Z");

  protected static final TaskOwner ALICE = TaskOwner.session("alice-session");
  protected static final TaskOwner BOB = TaskOwner.principal("bob-digest");
  protected static final Duration TTL = Duration.ofMinutes(5);
  protected static final Duration POLL = Duration.ofSeconds(1);

  /** How many times the race tests race. */
  protected static final int ROUNDS = 200;

  private final List<TaskStore> stores = new ArrayList<>();

  /**
   * A fresh, empty store.
   *
   * @param maxActivePerOwner how many tasks that are not terminal one owner may have
   * @param maxTasks how many tasks it keeps in all
   */
  protected abstract TaskStore newStore(int maxActivePerOwner, int maxTasks);

  /** A fresh store that this class closes after the test. */
  protected final TaskStore store(int maxActivePerOwner, int maxTasks) {
    TaskStore s = newStore(maxActivePerOwner, maxTasks);
    stores.add(s);
    return s;
  }

  protected final TaskStore store() {
    return store(100, 10_000);
  }

  @AfterEach
  void closeStores() {
    stores.forEach(TaskStore::close);
  }

  /** A new task id: 128 random bits, as the runtime makes them. */
  protected static String newId() {
    byte[] b = new byte[16];
    ThreadLocalRandom.current().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  protected static StoredTask task(TaskOwner owner, Instant createdAt, Duration ttl) {
    return StoredTask.create(
        newId(), owner, "tools/call", ProtocolVersion.Era.MODERN, createdAt, ttl, POLL);
  }

  protected static StoredTask task(TaskOwner owner) {
    return task(owner, T0, TTL);
  }

  protected static TaskOutcome result(String text) {
    var r = JsonNodeFactory.instance.objectNode();
    r.putArray("content").addObject().put("type", "text").put("text", text);
    return new TaskOutcome.Result(r);
  }

  protected static Function<StoredTask, Optional<StoredTask>> complete(Instant now) {
    return t -> t.complete(result("done"), now);
  }

  protected static Function<StoredTask, Optional<StoredTask>> cancel(Instant now) {
    return t -> t.cancel("cancelled by the requestor", now);
  }

  /** Records what the store's listeners are told, per task. */
  protected static final class Recorder {
    final List<StoredTask> all = new CopyOnWriteArrayList<>();

    void accept(StoredTask t) {
      all.add(t);
    }

    List<Long> versions(String taskId) {
      return all.stream().filter(t -> t.taskId().equals(taskId)).map(StoredTask::version).toList();
    }

    void awaitVersion(String taskId, long version) {
      eventually(
          () -> versions(taskId).contains(version),
          "the listener hears of version " + version + " of " + taskId);
    }
  }

  protected final Recorder record(TaskStore s) {
    Recorder r = new Recorder();
    s.listen(r::accept);
    return r;
  }

  // ---- durable creation ----

  @Test
  public void aCreatedTaskIsFoundAsSoonAsCreateReturns() {
    TaskStore s = store();
    StoredTask t = task(ALICE);
    s.create(t);
    assertThat(s.get(ALICE, t.taskId(), T0)).contains(t);
    assertThat(s.size()).isEqualTo(1);
  }

  @Test
  public void creatingATaskWhoseIdExistsIsRefusedAndKeepsTheFirst() {
    TaskStore s = store();
    StoredTask t = task(ALICE);
    s.create(t);
    StoredTask twin =
        StoredTask.create(
            t.taskId(), BOB, "tools/call", ProtocolVersion.Era.LEGACY, T0, null, POLL);
    assertThatThrownBy(() -> s.create(twin)).isInstanceOf(IllegalArgumentException.class);
    assertThat(s.get(ALICE, t.taskId(), T0)).contains(t);
    assertThat(s.get(BOB, t.taskId(), T0)).isEmpty();
  }

  @Test
  public void creatingATaskThatIsNotNewIsRefused() {
    TaskStore s = store();
    StoredTask done = task(ALICE).complete(result("x"), T0).orElseThrow();
    StoredTask changed = task(ALICE).withMessage("half way", T0).orElseThrow();
    assertThatThrownBy(() -> s.create(done)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> s.create(changed)).isInstanceOf(IllegalArgumentException.class);
    assertThat(s.size()).isZero();
  }

  // ---- isolation ----

  @Test
  public void anotherOwnerSeesNothingOfATask() {
    TaskStore s = store();
    StoredTask t = task(ALICE);
    s.create(t);
    assertThat(s.get(BOB, t.taskId(), T0)).isEmpty();
    assertThat(s.get(TaskOwner.anyone(), t.taskId(), T0)).isEmpty();
    assertThat(s.get(TaskOwner.session("bob-session"), t.taskId(), T0)).isEmpty();
    assertThat(s.list(BOB, null, 10, T0).tasks()).isEmpty();
    assertThat(s.list(ALICE, null, 10, T0).tasks()).containsExactly(t);
  }

  @Test
  public void aSessionAndAPrincipalWithTheSameIdAreDifferentOwners() {
    TaskStore s = store();
    StoredTask t = task(TaskOwner.session("x"));
    s.create(t);
    assertThat(s.get(TaskOwner.principal("x"), t.taskId(), T0)).isEmpty();
    assertThat(s.get(TaskOwner.session("x"), t.taskId(), T0)).contains(t);
  }

  @Test
  public void anUnknownIdIsEmptyEverywhere() {
    TaskStore s = store();
    assertThat(s.get(ALICE, newId(), T0)).isEmpty();
    assertThat(s.update(newId(), T0, complete(T0))).isEmpty();
  }

  // ---- atomic changes ----

  @Test
  public void anUpdateAddsOneVersionAndReportsBeforeAndAfter() {
    TaskStore s = store();
    StoredTask t = task(ALICE);
    s.create(t);
    TaskStore.Change c =
        s.update(t.taskId(), T0.plusSeconds(1), x -> x.withMessage("a", T0.plusSeconds(1)))
            .orElseThrow();
    assertThat(c.changed()).isTrue();
    assertThat(c.before()).isEqualTo(t);
    assertThat(c.after().version()).isEqualTo(2);
    assertThat(c.after().statusMessage()).isEqualTo("a");
    assertThat(s.get(ALICE, t.taskId(), T0.plusSeconds(1))).contains(c.after());
  }

  @Test
  public void anUpdateThatChangesNothingKeepsTheTaskAndTellsNoListener() {
    TaskStore s = store();
    Recorder r = record(s);
    StoredTask t = task(ALICE);
    s.create(t);
    r.awaitVersion(t.taskId(), 1);
    TaskStore.Change c = s.update(t.taskId(), T0, x -> Optional.empty()).orElseThrow();
    assertThat(c.changed()).isFalse();
    assertThat(c.after()).isEqualTo(t);
    s.update(t.taskId(), T0, complete(T0));
    r.awaitVersion(t.taskId(), 2);
    assertThat(r.versions(t.taskId())).containsExactly(1L, 2L);
  }

  @Test
  public void aChangeThatBreaksTheRecordIsRefusedAndChangesNothing() {
    TaskStore s = store();
    StoredTask t = task(ALICE);
    s.create(t);
    StoredTask skipping = t.withMessage("a", T0).orElseThrow().withMessage("b", T0).orElseThrow();
    StoredTask stolen =
        new StoredTask(
            t.taskId(),
            BOB,
            t.method(),
            t.era(),
            t.status(),
            "x",
            t.createdAt(),
            t.lastUpdatedAt(),
            t.ttl(),
            t.pollInterval(),
            Map.of(),
            null,
            2);
    assertThatThrownBy(() -> s.update(t.taskId(), T0, x -> Optional.of(skipping)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> s.update(t.taskId(), T0, x -> Optional.of(stolen)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(s.get(ALICE, t.taskId(), T0)).contains(t);
  }

  @Test
  public void aTerminalTaskNeverChangesThroughTheStore() {
    TaskStore s = store();
    StoredTask t = task(ALICE);
    s.create(t);
    StoredTask done = s.update(t.taskId(), T0, complete(T0)).orElseThrow().after();
    assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(s.update(t.taskId(), T0, cancel(T0)).orElseThrow().changed()).isFalse();
    StoredTask forced = t.cancel("forced", T0).orElseThrow();
    StoredTask after =
        new StoredTask(
            forced.taskId(),
            forced.owner(),
            forced.method(),
            forced.era(),
            forced.status(),
            forced.statusMessage(),
            forced.createdAt(),
            forced.lastUpdatedAt(),
            forced.ttl(),
            forced.pollInterval(),
            Map.of(),
            null,
            done.version() + 1);
    assertThatThrownBy(() -> s.update(t.taskId(), T0, x -> Optional.of(after)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(s.get(ALICE, t.taskId(), T0)).contains(done);
  }

  @Test
  public void whenCompletionAndCancellationRaceExactlyOneWins() throws Exception {
    TaskStore s = store(ROUNDS, ROUNDS * 2);
    Recorder r = record(s);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        StoredTask t = task(ALICE);
        s.create(t);
        CountDownLatch start = new CountDownLatch(1);
        Instant at = T0.plusMillis(round);
        List<Future<TaskStore.Change>> racers = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
          Function<StoredTask, Optional<StoredTask>> change =
              k % 2 == 0 ? complete(at) : cancel(at);
          racers.add(
              pool.submit(() -> {
                start.await();
                return s.update(t.taskId(), at, change).orElseThrow();
              }));
        }
        start.countDown();
        List<StoredTask> winners = new ArrayList<>();
        for (Future<TaskStore.Change> f : racers) {
          TaskStore.Change c = f.get(10, TimeUnit.SECONDS);
          if (c.changed()) {
            winners.add(c.after());
          }
        }
        assertThat(winners).as("winners of round %d", round).hasSize(1);
        StoredTask winner = winners.getFirst();
        assertThat(winner.version()).isEqualTo(2);
        assertThat(s.get(ALICE, t.taskId(), at)).contains(winner);
        r.awaitVersion(t.taskId(), 2);
        assertThat(r.all.stream().filter(x -> x.taskId().equals(t.taskId())).toList())
            .containsExactly(t, winner);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- expiry ----

  @Test
  public void aTaskIsNotFoundOnceItsTtlRanOut() {
    TaskStore s = store();
    StoredTask t = task(ALICE, T0, Duration.ofSeconds(30));
    s.create(t);
    assertThat(s.get(ALICE, t.taskId(), T0.plusSeconds(29))).contains(t);
    assertThat(s.get(ALICE, t.taskId(), T0.plusSeconds(30))).isEmpty();
    assertThat(s.update(t.taskId(), T0.plusSeconds(30), complete(T0.plusSeconds(30)))).isEmpty();
    assertThat(s.list(ALICE, null, 10, T0.plusSeconds(30)).tasks()).isEmpty();
  }

  @Test
  public void aTerminalTaskAlsoExpires() {
    TaskStore s = store();
    StoredTask t = task(ALICE, T0, Duration.ofSeconds(30));
    s.create(t);
    s.update(t.taskId(), T0, complete(T0));
    assertThat(s.get(ALICE, t.taskId(), T0.plusSeconds(30))).isEmpty();
    assertThat(s.purgeExpired(T0.plusSeconds(30))).isEqualTo(1);
  }

  @Test
  public void purgeDeletesExactlyTheExpiredTasks() {
    TaskStore s = store();
    StoredTask short1 = task(ALICE, T0, Duration.ofSeconds(10));
    StoredTask short2 = task(BOB, T0, Duration.ofSeconds(20));
    StoredTask longer = task(ALICE, T0, Duration.ofSeconds(60));
    StoredTask forever = task(ALICE, T0, null);
    for (StoredTask t : List.of(short1, short2, longer, forever)) {
      s.create(t);
    }
    assertThat(s.purgeExpired(T0.plusSeconds(5))).isZero();
    assertThat(s.purgeExpired(T0.plusSeconds(20))).isEqualTo(2);
    assertThat(s.size()).isEqualTo(2);
    assertThat(s.get(ALICE, longer.taskId(), T0.plusSeconds(20))).contains(longer);
    assertThat(s.purgeExpired(Instant.MAX)).isEqualTo(1);
    assertThat(s.get(ALICE, forever.taskId(), Instant.MAX)).contains(forever);
  }

  @Test
  public void purgeRacingUpdatesLeavesNoTaskAndNoActiveSlotBehind() throws Exception {
    int n = 100;
    TaskStore s = store(n, 10 * n);
    List<StoredTask> ts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      StoredTask t = task(ALICE, T0, Duration.ofSeconds(60));
      ts.add(t);
      s.create(t);
    }
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      Future<?> purger =
          pool.submit(() -> {
            start.await();
            return s.purgeExpired(T0.plusSeconds(61));
          });
      List<Future<?>> updaters = new ArrayList<>();
      for (int k = 0; k < 2; k++) {
        int from = k;
        updaters.add(
            pool.submit(() -> {
              start.await();
              for (int i = from; i < n; i += 2) {
                s.update(ts.get(i).taskId(), T0.plusSeconds(59), complete(T0.plusSeconds(59)));
              }
              return null;
            }));
      }
      start.countDown();
      purger.get(10, TimeUnit.SECONDS);
      for (Future<?> f : updaters) {
        f.get(10, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(s.size()).isZero();
    Instant later = T0.plusSeconds(120);
    for (int i = 0; i < n; i++) {
      s.create(task(ALICE, later, TTL));
    }
    assertThatThrownBy(() -> s.create(task(ALICE, later, TTL)))
        .isInstanceOf(TaskLimitExceededException.class);
  }

  // ---- bounds ----

  @Test
  public void anOwnerWithTooManyActiveTasksIsRefusedAndOthersAreNot() {
    TaskStore s = store(2, 100);
    s.create(task(ALICE));
    s.create(task(ALICE));
    assertThatThrownBy(() -> s.create(task(ALICE))).isInstanceOf(TaskLimitExceededException.class);
    s.create(task(BOB));
    assertThat(s.size()).isEqualTo(3);
  }

  @Test
  public void aTaskThatEndsFreesItsOwnersActiveSlot() {
    TaskStore s = store(2, 100);
    StoredTask a = task(ALICE);
    StoredTask b = task(ALICE);
    s.create(a);
    s.create(b);
    s.update(a.taskId(), T0, complete(T0));
    s.create(task(ALICE));
    assertThatThrownBy(() -> s.create(task(ALICE))).isInstanceOf(TaskLimitExceededException.class);
    s.update(b.taskId(), T0, cancel(T0));
    s.create(task(ALICE));
  }

  @Test
  public void inputRequiredStillHoldsAnActiveSlot() {
    TaskStore s = store(1, 100);
    StoredTask a = task(ALICE);
    s.create(a);
    s.update(a.taskId(), T0, t -> t.needInput(Map.of(), "need a word", T0));
    assertThatThrownBy(() -> s.create(task(ALICE))).isInstanceOf(TaskLimitExceededException.class);
  }

  @Test
  public void theStoreRefusesMoreTasksThanItsTotalBoundTerminalOnesIncluded() {
    TaskStore s = store(100, 3);
    for (int i = 0; i < 3; i++) {
      StoredTask t = task(i % 2 == 0 ? ALICE : BOB);
      s.create(t);
      s.update(t.taskId(), T0, complete(T0));
    }
    assertThatThrownBy(() -> s.create(task(TaskOwner.anyone())))
        .isInstanceOf(TaskLimitExceededException.class);
    assertThat(s.size()).isEqualTo(3);
  }

  @Test
  public void purgedTasksFreeTheirSlots() {
    TaskStore s = store(1, 2);
    s.create(task(ALICE, T0, Duration.ofSeconds(10)));
    s.create(task(BOB, T0, Duration.ofSeconds(10)));
    assertThat(s.purgeExpired(T0.plusSeconds(10))).isEqualTo(2);
    s.create(task(ALICE, T0.plusSeconds(10), TTL));
    s.create(task(BOB, T0.plusSeconds(10), TTL));
  }

  @Test
  public void racingCreationsAndCompletionsKeepTheActiveCountExact() throws Exception {
    int max = 4;
    TaskStore s = store(max, 100_000);
    Set<String> published = ConcurrentHashMap.newKeySet();
    AtomicInteger refused = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> all = new ArrayList<>();
      for (int k = 0; k < 2; k++) {
        all.add(
            pool.submit(() -> {
              start.await();
              for (int i = 0; i < 1_000; i++) {
                StoredTask t = task(ALICE);
                published.add(t.taskId()); // before create: a completer may hit it at once
                try {
                  s.create(t);
                } catch (TaskLimitExceededException e) {
                  refused.incrementAndGet();
                }
              }
              return null;
            }));
        all.add(
            pool.submit(() -> {
              start.await();
              for (int i = 0; i < 20_000 && published.size() < 2_000; i++) {
                for (String id : published) {
                  s.update(id, T0, complete(T0));
                }
              }
              return null;
            }));
      }
      start.countDown();
      for (Future<?> f : all) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    for (String id : published) {
      s.update(id, T0, complete(T0));
    }
    for (int i = 0; i < max; i++) {
      s.create(task(ALICE));
    }
    assertThatThrownBy(() -> s.create(task(ALICE))).isInstanceOf(TaskLimitExceededException.class);
  }

  // ---- pagination ----

  /** Creates {@code n} tasks of {@code owner}, a millisecond apart, two sharing each instant. */
  private static List<StoredTask> createMany(TaskStore s, TaskOwner owner, int n) {
    List<StoredTask> made = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      StoredTask t = task(owner, T0.plusMillis(i / 2), TTL);
      s.create(t);
      made.add(t);
    }
    made.sort(
        java.util.Comparator.comparing(StoredTask::createdAt).thenComparing(StoredTask::taskId));
    return made;
  }

  private static List<List<StoredTask>> walk(TaskStore s, TaskOwner owner, int limit) {
    List<List<StoredTask>> pages = new ArrayList<>();
    String cursor = null;
    do {
      TaskStore.Page p = s.list(owner, cursor, limit, T0);
      pages.add(p.tasks());
      cursor = p.nextCursor();
    } while (cursor != null && pages.size() < 1_000);
    return pages;
  }

  @Test
  public void pagesListEveryTaskOnceOldestFirst() {
    TaskStore s = store();
    List<StoredTask> alice = createMany(s, ALICE, 23);
    createMany(s, BOB, 5);
    List<List<StoredTask>> pages = walk(s, ALICE, 5);
    assertThat(pages).hasSize(5);
    assertThat(pages.getLast()).hasSize(3);
    assertThat(pages.stream().flatMap(List::stream).toList()).isEqualTo(alice);
    assertThat(walk(s, ALICE, 23)).containsExactly(alice);
    assertThat(walk(s, ALICE, 100)).containsExactly(alice);
  }

  @Test
  public void listingTheSameWayTwiceGivesTheSamePages() {
    TaskStore s = store();
    createMany(s, ALICE, 12);
    assertThat(walk(s, ALICE, 5)).isEqualTo(walk(s, ALICE, 5));
  }

  @Test
  public void aCursorStillWorksWhenTheTaskItStoppedAtIsGone() {
    TaskStore s = store();
    List<StoredTask> all = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      StoredTask t = task(ALICE, T0.plusSeconds(i), Duration.ofSeconds(100 + (i == 2 ? -90 : 0)));
      s.create(t);
      all.add(t);
    }
    TaskStore.Page first = s.list(ALICE, null, 3, T0);
    assertThat(first.tasks()).isEqualTo(all.subList(0, 3));
    assertThat(s.purgeExpired(T0.plusSeconds(13))).isEqualTo(1); // the third, where it stopped
    TaskStore.Page second = s.list(ALICE, first.nextCursor(), 3, T0.plusSeconds(13));
    assertThat(second.tasks()).isEqualTo(all.subList(3, 6));
    assertThat(second.nextCursor()).isNull();
  }

  @Test
  public void aTaskCreatedBetweenPagesAppearsOnALaterPage() {
    TaskStore s = store();
    List<StoredTask> old = createMany(s, ALICE, 4);
    TaskStore.Page first = s.list(ALICE, null, 2, T0);
    StoredTask young = task(ALICE, T0.plusSeconds(60), TTL);
    s.create(young);
    List<StoredTask> rest = new ArrayList<>();
    String cursor = first.nextCursor();
    while (cursor != null) {
      TaskStore.Page p = s.list(ALICE, cursor, 2, T0);
      rest.addAll(p.tasks());
      cursor = p.nextCursor();
    }
    assertThat(rest).containsExactly(old.get(2), old.get(3), young);
  }

  @Test
  public void aForgedOrGarbledCursorIsRefused() {
    TaskStore s = store();
    createMany(s, ALICE, 4);
    String good = s.list(ALICE, null, 2, T0).nextCursor();
    assertThat(good).isNotNull();
    String made =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(("1.0." + newId()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    List<String> bad = new ArrayList<>(List.of("", "not a cursor", "%%%", made, made + "." + made));
    bad.add(good.substring(0, good.length() - 1));
    bad.add(good + "A");
    bad.add(Character.toString(good.charAt(0) == 'A' ? 'B' : 'A') + good.substring(1));
    for (String c : bad) {
      assertThatThrownBy(() -> s.list(ALICE, c, 2, T0))
          .as("cursor %s", c)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  public void anotherOwnersCursorIsRefused() {
    TaskStore s = store();
    createMany(s, ALICE, 4);
    createMany(s, BOB, 4);
    String alices = s.list(ALICE, null, 2, T0).nextCursor();
    assertThatThrownBy(() -> s.list(BOB, alices, 2, T0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  public void aCursorOfAnotherStoreIsRefused() {
    TaskStore s = store();
    TaskStore other = store();
    createMany(s, ALICE, 4);
    String c = s.list(ALICE, null, 2, T0).nextCursor();
    assertThatThrownBy(() -> other.list(ALICE, c, 2, T0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  public void aLimitBelowOneIsRefused() {
    TaskStore s = store();
    assertThatThrownBy(() -> s.list(ALICE, null, 0, T0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // ---- listeners ----

  @Test
  public void listenersHearEachChangeOnceInVersionOrder() {
    TaskStore s = store();
    Recorder r = record(s);
    StoredTask t = task(ALICE);
    s.create(t);
    Instant at = T0.plusSeconds(1);
    s.update(t.taskId(), at, x -> x.withMessage("1/3", at));
    s.update(t.taskId(), at, x -> x.needInput(Map.of(), "need a word", at));
    s.update(t.taskId(), at, x -> x.working(null, at));
    s.update(t.taskId(), at, complete(at));
    s.update(t.taskId(), at, cancel(at)); // refused: already terminal
    r.awaitVersion(t.taskId(), 5);
    assertThat(r.all.stream().map(StoredTask::status).toList())
        .containsExactly(
            TaskStatus.WORKING,
            TaskStatus.WORKING,
            TaskStatus.INPUT_REQUIRED,
            TaskStatus.WORKING,
            TaskStatus.COMPLETED);
    assertThat(r.versions(t.taskId())).containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  public void concurrentChangesOfOneTaskReachListenersInVersionOrder() throws Exception {
    TaskStore s = store();
    Recorder r = record(s);
    List<StoredTask> ts = List.of(task(ALICE), task(ALICE), task(BOB));
    ts.forEach(s::create);
    int threads = 4;
    int perThread = 100;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int k = 0; k < threads; k++) {
        int thread = k;
        fs.add(
            pool.submit(() -> {
              start.await();
              for (int i = 0; i < perThread; i++) {
                String msg = thread + "/" + i;
                for (StoredTask t : ts) {
                  s.update(t.taskId(), T0, x -> x.withMessage(msg, T0));
                }
              }
              return null;
            }));
      }
      start.countDown();
      for (Future<?> f : fs) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    long last = 1 + (long) threads * perThread;
    for (StoredTask t : ts) {
      r.awaitVersion(t.taskId(), last);
      List<Long> expected = new ArrayList<>();
      for (long v = 1; v <= last; v++) {
        expected.add(v);
      }
      assertThat(r.versions(t.taskId())).isEqualTo(expected);
    }
  }

  @Test
  public void aClosedListenerHearsNothingMoreAndOthersStillHear() throws Exception {
    TaskStore s = store();
    Recorder gone = new Recorder();
    AutoCloseable handle = s.listen(gone::accept);
    Recorder stays = record(s);
    StoredTask t = task(ALICE);
    s.create(t);
    gone.awaitVersion(t.taskId(), 1);
    handle.close();
    s.update(t.taskId(), T0, complete(T0));
    stays.awaitVersion(t.taskId(), 2);
    assertThat(gone.versions(t.taskId())).containsExactly(1L);
  }

  @Test
  public void aFailingListenerDoesNotStopTheOthersNorTheChange() {
    TaskStore s = store();
    s.listen(t -> {
      throw new IllegalStateException("listener bug (expected by the test)");
    });
    Recorder r = record(s);
    StoredTask t = task(ALICE);
    s.create(t);
    assertThat(s.update(t.taskId(), T0, complete(T0)).orElseThrow().changed()).isTrue();
    r.awaitVersion(t.taskId(), 2);
    assertThat(r.versions(t.taskId())).containsExactly(1L, 2L);
  }

  // ---- close ----

  @Test
  public void aClosedStoreRefusesEveryCallAndClosingTwiceIsHarmless() throws Exception {
    TaskStore s = newStore(10, 10);
    AutoCloseable handle = s.listen(t -> {});
    StoredTask t = task(ALICE);
    s.create(t);
    s.close();
    s.close();
    handle.close();
    assertThatThrownBy(() -> s.create(task(ALICE))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> s.get(ALICE, t.taskId(), T0))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> s.update(t.taskId(), T0, complete(T0)))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> s.list(ALICE, null, 10, T0)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> s.purgeExpired(T0)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> s.listen(x -> {})).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(s::size).isInstanceOf(IllegalStateException.class);
  }
}
