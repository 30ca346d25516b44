import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingType;
import java.nio.charset.StandardCharsets;

/** See bench/sim-json-parse.sh. */
public class SimJsonParse {
    public static void main(String[] a) throws Exception {
        String words = "art title live words amount order view section look today require organ forward country simple assert open work side during body front render query background exception ";
        String prompt = words.repeat(12).substring(0, 1400).trim();
        byte[] body = ("{\"inputs\":\"" + prompt + "\",\"parameters\":{\"max_new_tokens\":64,\"details\":true}}").getBytes(StandardCharsets.UTF_8);
        ObjectMapper threadLocal = new ObjectMapper();
        ObjectMapper none = new ObjectMapper(JsonFactory.builder().recyclerPool(JsonRecyclerPools.nonRecyclingPool()).build());
        var enc = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
        for (int round = 0; round < 3; round++) {
            System.out.printf("round %d: thread-local %.2f us, non-recycling %.2f us, tokenizing %.2f us%n", round,
                time(() -> threadLocal.readTree(body).get("inputs").asText().length()),
                time(() -> none.readTree(body).get("inputs").asText().length()),
                time(() -> enc.countTokens(prompt)));
        }
    }
    interface Op { int run() throws Exception; }
    static double time(Op op) throws Exception {
        int n = 50_000; long sink = 0;
        for (int i = 0; i < n; i++) sink += op.run();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) sink += op.run();
        long t1 = System.nanoTime();
        if (sink == 42) System.out.println();
        return (t1 - t0) / 1e3 / n;
    }
}
