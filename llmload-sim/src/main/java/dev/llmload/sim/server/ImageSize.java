package dev.llmload.sim.server;

/**
 * Width and height of a PNG (from its IHDR chunk) or a baseline or progressive JPEG (from its SOF
 * marker), read from the header bytes only. Pure; anything else is refused with a one-line reason.
 */
final class ImageSize {

    private ImageSize() {}

    /** {@code {width, height}} in pixels. */
    static int[] of(byte[] image) {
        if (image.length >= 24 && (image[0] & 0xFF) == 0x89 && image[1] == 'P' && image[2] == 'N' && image[3] == 'G') {
            return new int[] {int32(image, 16), int32(image, 20)};
        }
        if (image.length >= 4 && (image[0] & 0xFF) == 0xFF && (image[1] & 0xFF) == 0xD8) {
            int at = 2;
            while (at + 9 < image.length && (image[at] & 0xFF) == 0xFF) {
                int marker = image[at + 1] & 0xFF;
                int length = ((image[at + 2] & 0xFF) << 8) | (image[at + 3] & 0xFF);
                boolean startOfFrame =
                        marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
                if (startOfFrame) {
                    int height = ((image[at + 5] & 0xFF) << 8) | (image[at + 6] & 0xFF);
                    int width = ((image[at + 7] & 0xFF) << 8) | (image[at + 8] & 0xFF);
                    return new int[] {width, height};
                }
                at += 2 + length;
            }
        }
        throw new IllegalArgumentException("an image must be a PNG or JPEG whose header gives its size");
    }

    private static int int32(byte[] bytes, int at) {
        int value = ((bytes[at] & 0xFF) << 24)
                | ((bytes[at + 1] & 0xFF) << 16)
                | ((bytes[at + 2] & 0xFF) << 8)
                | (bytes[at + 3] & 0xFF);
        if (value <= 0) {
            throw new IllegalArgumentException("a PNG header gives a size of " + value + " pixels");
        }
        return value;
    }
}
