package dev.llmload.report.html;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * The page skeleton ({@code report.html} resource) with uPlot and llmload's script and style
 * inlined, and the slot for the data. Everything but the data is fixed text from the classpath;
 * the data goes only into a JSON script element, escaped so it cannot end that element.
 */
final class PageTemplate {

    private static final String UPLOT = "/META-INF/resources/webjars/uplot/1.6.30/";
    private static final String OWN = "/dev/llmload/report/html/";

    /** The fixed parts, keyed by their placeholder in the skeleton. */
    private static final Map<String, String> PARTS = Map.of(
            "UPLOT_LICENSE", resource(UPLOT + "LICENSE"),
            "UPLOT_CSS", resource(UPLOT + "dist/uPlot.min.css"),
            "UPLOT_JS", resource(UPLOT + "dist/uPlot.iife.min.js"),
            "REPORT_CSS", resource(OWN + "report.css"),
            "REPORT_JS", resource(OWN + "report.js"));

    private static final String SKELETON = resource(OWN + "report.html");

    static {
        for (Map.Entry<String, String> part : PARTS.entrySet()) {
            // Inlined text that could end its element early would break the page.
            String text = part.getValue().toLowerCase(Locale.ROOT);
            if (text.contains("</script")
                    || text.contains("</style")
                    || text.contains("<!--")
                    || (part.getKey().equals("UPLOT_LICENSE") && text.contains("--"))) {
                throw new IllegalStateException(part.getKey() + " cannot be inlined as it is");
            }
        }
    }

    private PageTemplate() {}

    /** The whole page around {@code json}, which is escaped here. */
    static String fill(String json) {
        StringBuilder page = new StringBuilder(SKELETON.length() + json.length() + 100_000);
        // One pass over the skeleton only, so no inserted text is ever scanned for placeholders.
        int at = 0;
        while (true) {
            int open = SKELETON.indexOf("@@", at);
            if (open < 0) {
                break;
            }
            int close = SKELETON.indexOf("@@", open + 2);
            String name = SKELETON.substring(open + 2, close);
            page.append(SKELETON, at, open);
            page.append(name.equals("DATA") ? escapeForScript(json) : PARTS.get(name));
            at = close + 2;
        }
        return page.append(SKELETON, at, SKELETON.length()).toString();
    }

    /**
     * JSON made safe inside a {@code <script type="application/json">} element: {@code <}, {@code >}
     * and {@code &} can occur in JSON only inside strings, where {@code \}{@code u003c} etc. mean the
     * same to {@code JSON.parse}, and without them no {@code </script>} or {@code <!--} can appear.
     */
    static String escapeForScript(String json) {
        StringBuilder out = new StringBuilder(json.length() + 64);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '<' -> out.append("\\u003c");
                case '>' -> out.append("\\u003e");
                case '&' -> out.append("\\u0026");
                case '\u2028' -> out.append("\\u2028");
                case '\u2029' -> out.append("\\u2029");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static String resource(String path) {
        try (InputStream in = PageTemplate.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(
                        "missing resource " + path + " (is org.webjars.npm:uplot on the classpath?)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
