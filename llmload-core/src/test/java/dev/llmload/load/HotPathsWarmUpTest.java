package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThatCode;

import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every dialect's warm-up sample is read as the dialect means it, each pass as a new response. */
class HotPathsWarmUpTest {

    @ParameterizedTest
    @EnumSource(value = ApiKind.class, names = "AUTO", mode = EnumSource.Mode.EXCLUDE)
    void everyDialectWarmsUpOnItsOwnSample(ApiKind api) {
        Dialect dialect = Dialect.of(new RequestOptions(api, "m", true, true, null));
        assertThatCode(() -> HotPaths.warmUp(dialect)).doesNotThrowAnyException();
    }
}
