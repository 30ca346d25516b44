package dev.llmload.sim.engine.batching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class BatchingEngineConfigTest {

    @Test
    void readsAPartialDocumentOverTheDefaults() throws Exception {
        String json = """
                {"maxNumSeqs": 8, "profile": "h100-llama3-8b", "coefficients": {"mfu": 0.4},
                 "outputLength": {"mean": 100, "sigma": 0.5}, "speedup": 20}
                """;
        BatchingEngineConfig c = new ObjectMapper().readValue(json, BatchingEngineConfig.class);
        assertThat(c.maxNumSeqs()).isEqualTo(8);
        assertThat(c.profile()).isEqualTo(StepTimeProfile.H100_LLAMA3_8B);
        assertThat(c.stepTimeModel().coefficients()).containsEntry("mfu", 0.4);
        assertThat(c.outputLength()).isEqualTo(new OutputLength(100, 0.5));
        assertThat(c.speedup()).isEqualTo(20);
        assertThat(c)
                .isEqualTo(BatchingEngineConfig.defaults().toBuilder()
                        .maxNumSeqs(8)
                        .profile(StepTimeProfile.H100_LLAMA3_8B)
                        .coefficients(java.util.Map.of("mfu", 0.4))
                        .outputLength(new OutputLength(100, 0.5))
                        .speedup(20)
                        .build());
        // And writes back to what it reads.
        ObjectMapper mapper = new ObjectMapper();
        assertThat(mapper.readValue(mapper.writeValueAsString(c), BatchingEngineConfig.class))
                .isEqualTo(c);
    }

    @Test
    void rejectsConfigurationsThatCannotWork() {
        assertThatThrownBy(() -> BatchingEngineConfig.builder().numBlocks(10).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxModelLen 8192 does not fit");
        assertThatThrownBy(() -> BatchingEngineConfig.builder()
                        .coefficients(java.util.Map.of("nope", 1.0))
                        .build())
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> StepTimeProfile.of("h200")).hasMessageContaining("dynamo");
        assertThatThrownBy(() -> BatchingEngineConfig.builder().speedup(0).build())
                .hasMessageContaining("speedup");
    }
}
