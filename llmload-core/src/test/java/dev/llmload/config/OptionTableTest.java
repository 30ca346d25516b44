package dev.llmload.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.report.ReportFiles;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link OptionTable} is whole: every row has help text and says where report.json records it and
 * how its value is read back, or why it is not recorded; every key earlier versions wrote is still
 * written by a row; names are unique; and each default is the value a configuration built without
 * the option records.
 */
class OptionTableTest {

    @Test
    void everyRowHasHelpAndAReportKeyOrAReason() {
        for (RunOption<?> row : OptionTable.ROWS) {
            assertThat(row.help()).as(row.name()).isNotBlank();
            assertThat(row.report()).as(row.name()).isNotNull();
            switch (row.report()) {
                case RunOption.Report.Key<?> key -> {
                    assertThat(key.path()).as(row.name()).matches("[a-z_]+(\\.[a-z_]+)*");
                    assertThat(key.fields()).as(row.name()).isNotEmpty();
                }
                case RunOption.Report.NotRecorded<?> not ->
                    assertThat(not.reason()).as(row.name()).isNotBlank();
            }
        }
    }

    @Test
    void everyKeyEarlierVersionsWroteIsStillWrittenByARow() {
        List<String> written =
                ReportLayout.fields().stream().map(ReportLayout.Field::path).toList();
        assertThat(written).doesNotHaveDuplicates().containsAll(ReportLayout.EARLIER_KEYS);
        assertThat(written.subList(0, ReportLayout.EARLIER_KEYS.size()))
                .as("earlier keys first, in their order")
                .containsExactlyElementsOf(ReportLayout.EARLIER_KEYS);
    }

    @Test
    void aRowWithoutHelpOrReportKeyIsRefused() {
        RunOption.Report.Key<String> key = new RunOption.Report.Key<>(
                "x", List.of(ReportLayout.Field.always("x", c -> null)), s -> s.get("x", String.class), true);
        assertThatThrownBy(() -> new RunOption<>(
                        "x", List.of(), "X", RunOption.Value.TEXT, null, " ", key, RunOption.Use.CONFIG, false, false))
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
                        false))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new RunOption.Report.NotRecorded<String>(" "))
                .hasMessage("a row not recorded says why");
        assertThatThrownBy(() -> new RunOption.Report.Key<>(
                        "data.x", List.of(ReportLayout.Field.always("x", c -> null)), s -> null, true))
                .hasMessage("config.data.x is in none of its row's fields");
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
    void eachDefaultIsWhatARunWithoutTheOptionRecords() throws Exception {
        RunConfig plain = RunConfig.builder().build();
        Map<RunOption<?>, Object> recorded = ReportLayout.values(
                new ReportLayout.Section(ReportFiles.JSON.valueToTree(plain), ReportFiles.JSON::treeToValue), false);
        int checked = 0;
        for (RunOption<?> row : OptionTable.ROWS) {
            Object value = recorded.get(row);
            if (row.defaultText() == null || value == null) {
                continue;
            }
            assertThat(String.valueOf(value)).as(row.name()).isEqualTo(String.valueOf(row.defaultValue()));
            checked++;
        }
        assertThat(checked).as("rows with a default that a plain run records").isEqualTo(11);
    }

    @Test
    void aBareNumberOfSecondsIsRefusedWithTheFix() {
        assertThatThrownBy(() -> RunOption.time("10")).hasMessage("'10' has no unit: write 10s (or 10ms, 10m)");
        assertThat(RunOption.time("10s")).isEqualTo(java.time.Duration.ofSeconds(10));
        // report.json records times in ISO-8601, which a replay reads back.
        assertThat(RunOption.time("PT0.5S")).isEqualTo(java.time.Duration.ofMillis(500));
    }
}
