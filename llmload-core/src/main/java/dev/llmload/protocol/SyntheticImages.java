package dev.llmload.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * The PNG images of {@code --images}, as {@code data:} URLs. Pixels are random noise drawn from the
 * run's seed, the request's index and the image's number: a seeded run sends the same bytes every
 * time, no two images of a run are alike (so no server cache answers one from another), and noise
 * does not compress, so the body is as large as a photograph of that size. Pure; called on the
 * preparation thread.
 */
final class SyntheticImages {

    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    private static final int RGB = 2;
    private static final int BIT_DEPTH = 8;

    private SyntheticImages() {}

    /** Image {@code number} of request {@code requestIndex}, as a {@code data:image/png;base64,} URL. */
    static String dataUrl(ImageInputs images, long seed, long requestIndex, int number) {
        byte[] png = png(images.width(), images.height(), new SplittableRandom(mix(seed, requestIndex, number)));
        return "data:image/png;base64," + Base64.getEncoder().encodeToString(png);
    }

    private static long mix(long seed, long requestIndex, int number) {
        return seed * 0x9E3779B97F4A7C15L + requestIndex * 0xBF58476D1CE4E5B9L + number;
    }

    static byte[] png(int width, int height, SplittableRandom random) {
        byte[] row = new byte[1 + width * 3];
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        ByteArrayOutputStream compressed = new ByteArrayOutputStream(height * row.length / 2 + 64);
        byte[] buffer = new byte[1 << 16];
        try {
            for (int y = 0; y < height; y++) {
                // Filter byte 0 (none), then the row's RGB bytes.
                random.nextBytes(row);
                row[0] = 0;
                deflater.setInput(row);
                while (!deflater.needsInput()) {
                    compressed.write(buffer, 0, deflater.deflate(buffer));
                }
            }
            deflater.finish();
            while (!deflater.finished()) {
                compressed.write(buffer, 0, deflater.deflate(buffer));
            }
        } finally {
            deflater.end();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(compressed.size() + 64);
        out.writeBytes(SIGNATURE);
        ByteBuffer header = ByteBuffer.allocate(13)
                .putInt(width)
                .putInt(height)
                .put((byte) BIT_DEPTH)
                .put((byte) RGB)
                .put((byte) 0)
                .put((byte) 0)
                .put((byte) 0);
        chunk(out, "IHDR", header.array());
        chunk(out, "IDAT", compressed.toByteArray());
        chunk(out, "IEND", new byte[0]);
        return out.toByteArray();
    }

    private static void chunk(ByteArrayOutputStream out, String type, byte[] data) {
        byte[] typeBytes = type.getBytes(StandardCharsets.US_ASCII);
        out.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
        out.writeBytes(typeBytes);
        out.writeBytes(data);
        CRC32 crc = new CRC32();
        crc.update(typeBytes);
        crc.update(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }
}
