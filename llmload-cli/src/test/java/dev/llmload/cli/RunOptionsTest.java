package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.config.OptionTable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link OptionTable} (with run's own options) is the one table: every run option, every preset key and every sweep option is in it. */
class RunOptionsTest {

    @Test
    void everyPresetAndEveryRunOptionIsInTheOneTable() {
        for (Scenarios preset : Scenarios.values()) {
            assertThat(preset.defaults().keySet()).as(preset.cliName()).allMatch(key -> RunOptions.key(key) != null);
        }
        var run = Main.commandLine().getSubcommands().get("run").getCommandSpec();
        // vLLM's spellings that translate their value set llmload's own options; they are not keys.
        var vllm = run.mixins().get("vllm").options();
        List<String> options = run.options().stream()
                .filter(o -> !o.usageHelp() && !o.versionHelp())
                .filter(o -> !vllm.contains(o))
                .map(o -> RunOptions.canonicalName(o).substring(2))
                .toList();
        assertThat(RunOptions.keys()).containsExactlyInAnyOrderElementsOf(options);
        var sweep = Main.commandLine().getSubcommands().get("sweep").getCommandSpec();
        assertThat(OptionTable.ROWS.stream().filter(row -> !row.point()))
                .allMatch(row -> sweep.findOption("--" + row.name()) != null);
    }
}
