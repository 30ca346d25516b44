package dev.llmload.record;

/** How a request ended. */
public sealed interface Outcome {

    Success SUCCESS = new Success();

    /** The key written to {@code requests.jsonl}: {@code success} or a failure class. */
    String key();

    record Success() implements Outcome {
        @Override
        public String key() {
            return "success";
        }
    }

    /** @param timeoutKind set only for {@link FailureClass#TIMEOUT} */
    record Failure(FailureClass failureClass, TimeoutKind timeoutKind, String message) implements Outcome {

        public static Failure of(FailureClass failureClass, String message) {
            return new Failure(failureClass, null, message);
        }

        public static Failure timeout(TimeoutKind kind, String message) {
            return new Failure(FailureClass.TIMEOUT, kind, message);
        }

        @Override
        public String key() {
            return failureClass.key();
        }
    }
}
