package dev.llmload.workload.tokenizer;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes tokenizers from the user's spec: a tiktoken encoding name ({@code cl100k_base},
 * {@code o200k_base}, {@code p50k_base}, {@code r50k_base}) or the path of a HuggingFace
 * {@code tokenizer.json} (or of a directory holding one). Encodings are shared: asking twice for
 * the same name returns the same instance.
 *
 * <p>The runnable jar carries the {@link #DEFAULT} encoding only. The other encodings'
 * vocabularies and the reader of {@code tokenizer.json} (a {@link TokenizerFileLoader}) are in the
 * optional {@value #OPTIONAL_JAR}, looked up only when a spec needs it; without it the spec fails
 * with a one-line message that says where the jar goes.
 *
 * <p>An encoding's vocabulary is found here but read on the tokenizer's first use, so a run reads
 * it after its first request is sent (see {@link JtokkitTokenizer}). A {@code tokenizer.json} is
 * read here, whole: it is the user's file, and a bad one should stop the run before anything else.
 */
public final class Tokenizers {

    /** The encoding used when the user names none: GPT-4's, close to most Llama-3-class models. */
    public static final String DEFAULT = "cl100k_base";

    /** The optional jar with every tokenizer but the default, as the build names it. */
    public static final String OPTIONAL_JAR = "llmload-tokenizers.jar";

    private static final Map<String, EncodingType> ENCODINGS = Map.of(
            "cl100k_base", EncodingType.CL100K_BASE,
            "o200k_base", EncodingType.O200K_BASE,
            "p50k_base", EncodingType.P50K_BASE,
            "r50k_base", EncodingType.R50K_BASE);

    /** Where jtokkit reads an encoding's vocabulary from the class path. */
    private static final String VOCABULARY = "com/knuddels/jtokkit/%s.tiktoken";

    private static final Map<String, Tokenizer> SHARED = new ConcurrentHashMap<>();

    private Tokenizers() {}

    /** The {@link #DEFAULT} encoding. */
    public static Tokenizer defaultTokenizer() {
        return byName(DEFAULT);
    }

    /**
     * The tokenizer a spec names.
     *
     * @throws IllegalArgumentException with a one-line message for the user when the spec is
     *         neither a known encoding nor a readable tokenizer.json, or when it needs
     *         {@value #OPTIONAL_JAR} and that is not on the class path
     */
    public static Tokenizer byName(String spec) {
        String key = spec.strip().toLowerCase(Locale.ROOT);
        EncodingType type = ENCODINGS.get(key);
        if (type != null) {
            return SHARED.computeIfAbsent(key, name -> {
                checkVocabulary(name);
                return new JtokkitTokenizer(name, () -> Registry.INSTANCE.getEncoding(type));
            });
        }
        Path path = Path.of(spec.strip());
        if (Files.isDirectory(path)) {
            path = path.resolve("tokenizer.json");
        }
        if (Files.isRegularFile(path)) {
            return fileLoader(path).load(path);
        }
        throw new IllegalArgumentException("unknown tokenizer '" + spec
                + "': expected cl100k_base, o200k_base, p50k_base, r50k_base or the path of a tokenizer.json");
    }

    /** Finds an encoding's vocabulary on the class path without reading it (the tokenizer reads it on first use). */
    private static void checkVocabulary(String name) {
        if (Tokenizers.class.getClassLoader().getResource(VOCABULARY.formatted(name)) == null) {
            throw needsOptionalJar("tokenizer '" + name + "'");
        }
    }

    private static TokenizerFileLoader fileLoader(Path file) {
        return ServiceLoader.load(TokenizerFileLoader.class, Tokenizers.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> needsOptionalJar("tokenizer " + file));
    }

    private static IllegalArgumentException needsOptionalJar(String what) {
        return new IllegalArgumentException(what + " needs " + OPTIONAL_JAR + " on the class path: put it beside"
                + " llmload.jar (./mvnw package builds both into llmload-cli/target; see docs/workloads.md)");
    }

    /** Loads jtokkit's vocabularies only when an encoding is first asked for. */
    private static final class Registry {
        static final EncodingRegistry INSTANCE = Encodings.newLazyEncodingRegistry();
    }
}
