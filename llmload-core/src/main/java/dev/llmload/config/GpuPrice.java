package dev.llmload.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one GPU costs per hour ({@code --gpu-hour-price 2.49USD}), as written and as read. With the
 * server's GPU count it gives the run's cost per token; llmload never assumes a price or a currency.
 *
 * @param text     as written
 * @param amount   the price of one GPU for one hour, greater than 0
 * @param currency three capital letters, e.g. {@code USD}, {@code EUR}
 */
public record GpuPrice(String text, double amount, String currency) {

    private static final Pattern FORM = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]{3})\\s*");

    public GpuPrice {
        if (!(amount > 0) || Double.isInfinite(amount)) {
            throw new ConfigException("--gpu-hour-price must be above 0, got " + amount);
        }
        if (currency == null || !currency.matches("[A-Z]{3}")) {
            throw new ConfigException("--gpu-hour-price needs a currency of three letters, e.g. 2.49USD");
        }
    }

    /** Reads {@code AMOUNT CURRENCY} (the space optional): {@code 2.49USD}, {@code 3 EUR}; null stays null. */
    public static GpuPrice parse(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new ConfigException(
                    "--gpu-hour-price expects an amount and a currency, e.g. 2.49USD, got '" + text + "'");
        }
        return new GpuPrice(text, Double.parseDouble(m.group(1)), m.group(2).toUpperCase(Locale.ROOT));
    }
}
