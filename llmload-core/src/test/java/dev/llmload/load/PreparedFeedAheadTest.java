package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.source.RequestSource;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The feed prepares every one of a load's first sends before its clock, also where they are more
 * than it usually keeps ahead (1,000 streams against {@link PreparedFeed#AHEAD}), so that none of
 * them waits for its prompt and no prompt is made in the load's first second; and it stops that
 * far ahead of an endless source. What the source was asked for is counted at the source.
 */
class PreparedFeedAheadTest {

    private static final Dialect DIALECT = Dialect.of(new RequestOptions(ApiKind.CHAT, "m", true, true, null));

    @Test
    void allOfTheFirstSendsAreReadyWhenTheyAreMoreThanTheUsualAhead() throws InterruptedException {
        int firstSends = PreparedFeed.AHEAD + 488;
        Counted source = new Counted();
        try (PreparedFeed feed = new PreparedFeed(source, DIALECT, -1)) {
            feed.start(firstSends);
            feed.awaitReady(Duration.ofSeconds(30));

            // Ready: the first sends; asked for: one more, made and waiting for room.
            assertThat(settled(source)).isEqualTo(firstSends + 1);
            assertThat(feed.poll()).isNotNull();
        }
    }

    @Test
    void fewerFirstSendsKeepTheUsualAhead() throws InterruptedException {
        Counted source = new Counted();
        try (PreparedFeed feed = new PreparedFeed(source, DIALECT, -1)) {
            feed.start(64);
            feed.awaitReady(Duration.ofSeconds(30));

            assertThat(settled(source)).isEqualTo(PreparedFeed.AHEAD + 1);
        }
    }

    /** What the source was asked for once the feed's thread has stopped asking (100 ms without a request). */
    private static long settled(Counted source) throws InterruptedException {
        long before;
        do {
            before = source.asked.get();
            Thread.sleep(100);
        } while (source.asked.get() != before);
        return before;
    }

    /** {@link HelloSource}, counting the requests it was asked for. */
    private static final class Counted implements RequestSource {

        private final HelloSource hello = new HelloSource(0);
        final AtomicLong asked = new AtomicLong();

        @Override
        public boolean hasNext() {
            return hello.hasNext();
        }

        @Override
        public RequestSpec next() {
            asked.incrementAndGet();
            return hello.next();
        }

        @Override
        public String describe() {
            return hello.describe();
        }

        @Override
        public String contentHash() {
            return hello.contentHash();
        }

        @Override
        public void close() {}
    }
}
