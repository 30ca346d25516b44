package dev.llmload.config;

/**
 * A run configuration that cannot be run: a bad value or a contradiction. The message is one
 * line that names the option as the command line spells it (e.g. {@code --num-requests must be at
 * least 1, got 0}), so the command line and a library user see the same words; the command line
 * exits with its usage code.
 */
public final class ConfigException extends IllegalArgumentException {

    public ConfigException(String message) {
        super(message);
    }

    /** Runs {@code parse}, turning its IllegalArgumentException into one prefixed with {@code option}. */
    static <T> T parsing(String option, java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (ConfigException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(option + ": " + e.getMessage());
        }
    }
}
