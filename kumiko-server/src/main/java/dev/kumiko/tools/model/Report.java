package dev.kumiko.tools.model;

import dev.kumiko.tools.model.Model.Design;
import dev.kumiko.tools.model.Model.Request;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/** The outcome of {@code kumiko model check}: per design, its measured patterns, storage and cost. */
public record Report(Model model, String endpoint, int scale, Prices prices, List<DesignResult> designs) {

    public record DesignResult(
            Design design, String tableName, List<PatternResult> patterns, Storage storage, Cost cost) {
        public PatternResult pattern(String name) {
            for (PatternResult p : patterns) {
                if (p.pattern().name().equals(name)) {
                    return p;
                }
            }
            return null;
        }
    }

    public DesignResult main() {
        return designs.get(0);
    }

    public DesignResult design(String name) {
        for (DesignResult d : designs) {
            if (d.design().name().equals(name)) {
                return d;
            }
        }
        return null;
    }

    /** Every broken budget as one line naming the design and the pattern. */
    public List<String> violations() {
        List<String> out = new ArrayList<>();
        for (DesignResult d : designs) {
            for (PatternResult p : d.patterns()) {
                for (String v : p.violations()) {
                    out.add("budget exceeded: " + d.design().name() + " / "
                            + p.pattern().name() + ": " + v);
                }
            }
        }
        return out;
    }

    /** Every pattern whose read found nothing though its model does not allow that, as one line each. */
    public List<String> missedData() {
        List<String> out = new ArrayList<>();
        for (DesignResult d : designs) {
            for (PatternResult p : d.patterns()) {
                if (p.missedTheData()) {
                    out.add("found nothing: " + d.design().name() + " / "
                            + p.pattern().name() + ": its keys "
                            + "miss the sample data (if finding nothing is right, give it \"mayFindNothing\": true)");
                }
            }
        }
        return out;
    }

    /** What fails the check (exit 1): broken budgets, then patterns that found nothing. */
    public List<String> failures() {
        List<String> out = new ArrayList<>(violations());
        out.addAll(missedData());
        return out;
    }

    /** How a pattern's requests read: "GetItem", "Query GSI1", "GetItem + Query". */
    static String operations(Model.AccessPattern p) {
        List<String> parts = new ArrayList<>();
        for (Request r : p.steps()) {
            Object index = r.fields().get("index");
            parts.add(index == null ? r.operation() : r.operation() + " " + index);
        }
        return String.join(" + ", parts);
    }

    /** A number as a capacity table shows it: at most 4 decimals, no trailing zeros. */
    static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return String.valueOf(d);
        }
        return new BigDecimal(d)
                .setScale(4, RoundingMode.HALF_UP)
                .stripTrailingZeros()
                .toPlainString();
    }

    static String grouped(double d) {
        BigDecimal b = new BigDecimal(d).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros();
        if (b.scale() <= 0) {
            return String.format("%,d", b.longValue());
        }
        return String.format("%,." + b.scale() + "f", b.doubleValue());
    }

    static String dollars(double d) {
        return d < 0.01 && d > 0 ? String.format("$%.4f", d) : String.format("$%,.2f", d);
    }

    static String bytes(double b) {
        if (b < 1024) {
            return String.format("%.0f B", b);
        }
        if (b < 1024 * 1024) {
            return String.format("%.1f KB", b / 1024);
        }
        if (b < 1024.0 * 1024 * 1024) {
            return String.format("%.1f MB", b / 1024 / 1024);
        }
        return String.format("%.2f GB", b / 1024 / 1024 / 1024);
    }
}
