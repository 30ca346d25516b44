package dev.llmload.sim.engine.batching;

/**
 * The paged KV cache: {@code numBlocks} blocks with reference counts, a free queue in LRU order and
 * an index from prefix hash to the block that holds that prefix, as in vLLM's V1 block pool.
 *
 * <p>A block whose reference count drops to zero goes to the tail of the free queue but keeps its
 * hash, so a later request with the same prefix can take it back ({@link #touch}) instead of
 * recomputing it. A fresh block is always taken from the head of the queue, evicting the hash of
 * whatever was there: the cached prefix least recently released is the one that is lost.
 *
 * <p>Every operation is O(1) (touch, allocate, release of one block) and nothing is allocated after
 * construction: the queue is intrusive, in two {@code int} arrays. Not thread-safe: owned by the
 * {@link BatchScheduler}'s thread.
 */
final class BlockPool {

    private static final int NONE = -1;

    private final int numBlocks;
    private final int[] refCount;
    private final long[] hash;
    private final boolean[] hashed;
    /** Free queue links; a block is in the queue exactly when its reference count is zero. */
    private final int[] prev;

    private final int[] next;
    private int head = NONE;
    private int tail = NONE;
    private int numFree;
    private final LongIntMap blockByHash;

    BlockPool(int numBlocks) {
        this.numBlocks = numBlocks;
        refCount = new int[numBlocks];
        hash = new long[numBlocks];
        hashed = new boolean[numBlocks];
        prev = new int[numBlocks];
        next = new int[numBlocks];
        blockByHash = new LongIntMap(numBlocks);
        for (int b = 0; b < numBlocks; b++) {
            append(b);
        }
    }

    int numBlocks() {
        return numBlocks;
    }

    /** Blocks with no reference, cached or not: what {@link #allocate} can still hand out. */
    int numFree() {
        return numFree;
    }

    /** Takes a block from the head of the free queue, dropping the prefix it cached; needs {@code numFree() > 0}. */
    int allocate() {
        int b = head;
        if (b == NONE) {
            throw new IllegalStateException("no free KV block");
        }
        unlink(b);
        if (hashed[b]) {
            blockByHash.remove(hash[b]);
            hashed[b] = false;
        }
        refCount[b] = 1;
        return b;
    }

    /** The block caching the prefix with this hash chain value, or -1. */
    int cachedBlock(long prefixHash) {
        return blockByHash.get(prefixHash);
    }

    /** True when the block has no reference, so {@link #touch} takes it out of the free queue. */
    boolean isFree(int block) {
        return refCount[block] == 0;
    }

    /** Adds a reference to a cached block found by {@link #cachedBlock}. */
    void touch(int block) {
        if (refCount[block]++ == 0) {
            unlink(block);
        }
    }

    /** Drops a reference; the block joins the tail of the free queue when none is left. */
    void release(int block) {
        if (--refCount[block] == 0) {
            append(block);
        } else if (refCount[block] < 0) {
            throw new IllegalStateException("block " + block + " released more often than taken");
        }
    }

    /**
     * Records that {@code block} now holds the fully computed prefix identified by {@code prefixHash}.
     * When another block already holds the same prefix (two requests prefilled it at once), that one
     * stays the cached copy and this block remains private.
     */
    void register(int block, long prefixHash) {
        if (hashed[block] || blockByHash.get(prefixHash) != LongIntMap.ABSENT) {
            return;
        }
        blockByHash.put(prefixHash, block);
        hash[block] = prefixHash;
        hashed[block] = true;
    }

    private void append(int b) {
        prev[b] = tail;
        next[b] = NONE;
        if (tail == NONE) {
            head = b;
        } else {
            next[tail] = b;
        }
        tail = b;
        numFree++;
    }

    private void unlink(int b) {
        if (prev[b] == NONE) {
            head = next[b];
        } else {
            next[prev[b]] = next[b];
        }
        if (next[b] == NONE) {
            tail = prev[b];
        } else {
            prev[next[b]] = prev[b];
        }
        numFree--;
    }
}
