package dev.llmload.sim.engine.batching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BlockPoolTest {

    @Test
    void releasedBlocksKeepTheirPrefixUntilEvictedLeastRecentlyReleasedFirst() {
        BlockPool pool = new BlockPool(3);
        int a = pool.allocate();
        int b = pool.allocate();
        pool.register(a, 100);
        pool.register(b, 200);
        pool.release(a);
        pool.release(b);
        assertThat(pool.numFree()).isEqualTo(3);
        assertThat(pool.cachedBlock(100)).isEqualTo(a);

        // The never-used block goes first, then the least recently released (a); b survives.
        pool.allocate();
        pool.allocate();
        assertThat(pool.cachedBlock(100)).isEqualTo(-1);
        assertThat(pool.cachedBlock(200)).isEqualTo(b);

        // Taking a cached block back removes it from the free queue without losing its prefix.
        assertThat(pool.isFree(b)).isTrue();
        pool.touch(b);
        assertThat(pool.numFree()).isZero();
        assertThat(pool.cachedBlock(200)).isEqualTo(b);
    }

    @Test
    void aSecondBlockWithTheSameContentStaysPrivate() {
        BlockPool pool = new BlockPool(4);
        int a = pool.allocate();
        int b = pool.allocate();
        pool.register(a, 7);
        pool.register(b, 7);
        pool.release(a);
        pool.release(b);
        assertThat(pool.cachedBlock(7)).isEqualTo(a);
    }

    @Test
    void longIntMapAgreesWithHashMapUnderChurn() {
        LongIntMap map = new LongIntMap(512);
        Map<Long, Integer> reference = new HashMap<>();
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 200_000; i++) {
            long key = random.nextInt(700) * 0x1_0000_0001L; // few distinct keys, many collisions of slots
            if (random.nextBoolean() && (reference.size() < 512 || reference.containsKey(key))) {
                int value = random.nextInt(1_000_000);
                map.put(key, value);
                reference.put(key, value);
            } else {
                map.remove(key);
                reference.remove(key);
            }
            assertThat(map.get(key)).isEqualTo(reference.getOrDefault(key, LongIntMap.ABSENT));
        }
        assertThat(map.size()).isEqualTo(reference.size());
        reference.forEach((k, v) -> assertThat(map.get(k)).isEqualTo(v));
    }
}
