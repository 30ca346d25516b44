package dev.llmload.protocol;

/**
 * Synthetic images attached to each chat request ({@code --images N:WxH}): {@code count} PNG
 * images of {@code width} by {@code height} pixels, sent as data URLs. Their pixels are made from
 * the run's seed and the request's index, so a seeded run sends the same images every time, and
 * two requests do not send the same image (a server's image cache cannot short-cut them).
 */
public record ImageInputs(int count, int width, int height) {

    /** Large enough for any vision model's input; beyond it a request body would be unreasonably large. */
    public static final int MAX_SIDE = 8192;

    public ImageInputs {
        if (count < 1 || count > 64) {
            throw new IllegalArgumentException("--images count must be 1 to 64, got " + count);
        }
        if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
            throw new IllegalArgumentException(
                    "--images size must be 1 to " + MAX_SIDE + " pixels a side, got " + width + "x" + height);
        }
    }

    /** Parses {@code N:WxH}, e.g. {@code 2:512x512}; a one-line reason when it is not that. */
    public static ImageInputs parse(String text) {
        String[] parts = text.trim().split(":");
        String[] size =
                parts.length == 2 ? parts[1].toLowerCase(java.util.Locale.ROOT).split("x") : new String[0];
        if (size.length != 2) {
            throw new IllegalArgumentException("--images expects N:WxH (e.g. 1:512x512), got '" + text + "'");
        }
        try {
            return new ImageInputs(
                    Integer.parseInt(parts[0].trim()),
                    Integer.parseInt(size[0].trim()),
                    Integer.parseInt(size[1].trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--images expects N:WxH (e.g. 1:512x512), got '" + text + "'");
        }
    }
}
