package dev.llmload.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link OptionTable} is whole: every row has help text and says where report.json records it
 * (a key of {@link RunConfig.ReportLayout}'s layout) or why it does not; names are unique; and
 * each default is the value a configuration built without the option records.
 */
class OptionTableTest {

    @Test
    void everyRowHasHelpAndAReportKeyThatTheLayoutHas() {
        for (RunOption<?> row : OptionTable.ROWS) {
            assertThat(row.help()).as(row.name()).isNotBlank();
            switch (row.report()) {
                case RunOption.Report.Key key ->
                    assertThat(resolves(RunConfig.ReportLayout.Wire.class, key.path()))
                            .as("--%s records under config.%s, which report.json's layout has", row.name(), key.path())
                            .isTrue();
                case RunOption.Report.NotRecorded not ->
                    assertThat(not.reason()).as(row.name()).isNotBlank();
            }
        }
    }

    @Test
    void aRowWithoutHelpOrReportKeyIsRefused() {
        assertThatThrownBy(() -> new RunOption<>(
                        "x",
                        List.of(),
                        "X",
                        RunOption.Value.TEXT,
                        null,
                        " ",
                        new RunOption.Report.Key("x"),
                        RunOption.Use.CONFIG,
                        false,
                        false,
                        c -> null))
                .hasMessage("--x has no help text");
        assertThatThrownBy(() -> new RunOption<>(
                        "x",
                        List.of(),
                        "X",
                        RunOption.Value.TEXT,
                        null,
                        "Help.",
                        null,
                        RunOption.Use.CONFIG,
                        false,
                        false,
                        c -> null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new RunOption.Report.NotRecorded(" ")).hasMessage("a row not recorded says why");
    }

    @Test
    void namesAndAliasesAreUnique() {
        Set<String> seen = new HashSet<>();
        for (RunOption<?> row : OptionTable.ROWS) {
            for (String flag : row.flags()) {
                assertThat(seen.add(flag)).as(flag).isTrue();
            }
            assertThat(OptionTable.byName(row.name())).isSameAs(row);
        }
    }

    @Test
    void eachDefaultIsWhatARunWithoutTheOptionRecords() {
        RunConfig plain = RunConfig.builder().build();
        int checked = 0;
        for (RunOption<?> row : OptionTable.ROWS) {
            Object recorded = row.replayed().apply(plain);
            if (row.defaultText() == null || recorded == null) {
                continue;
            }
            assertThat(String.valueOf(recorded)).as(row.name()).isEqualTo(String.valueOf(row.defaultValue()));
            checked++;
        }
        assertThat(checked).as("rows with a default that a plain run records").isEqualTo(15);
    }

    @Test
    void aBareNumberOfSecondsIsRefusedWithTheFix() {
        assertThatThrownBy(() -> RunOption.time("10")).hasMessage("'10' has no unit: write 10s (or 10ms, 10m)");
        assertThat(RunOption.time("10s")).isEqualTo(java.time.Duration.ofSeconds(10));
        // report.json records times in ISO-8601, which a replay reads back.
        assertThat(RunOption.time("PT0.5S")).isEqualTo(java.time.Duration.ofMillis(500));
    }

    /** Whether a dot-separated snake_case path names components of nested records from {@code type}. */
    private static boolean resolves(Class<?> type, String path) {
        Class<?> at = type;
        for (String part : path.split("\\.")) {
            if (at == null || !at.isRecord()) {
                return false;
            }
            RecordComponent found = null;
            for (RecordComponent component : at.getRecordComponents()) {
                if (snake(component.getName()).equals(part)) {
                    found = component;
                }
            }
            if (found == null) {
                return false;
            }
            at = found.getGenericType() instanceof ParameterizedType ? null : found.getType();
        }
        return true;
    }

    private static String snake(String camel) {
        return camel.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
    }
}
