package dev.kumiko.tools.model;

import java.util.ArrayList;
import java.util.List;

/** A table of cells printed as aligned plain text or as a Markdown table. */
final class TableText {
    private final List<String[]> rows = new ArrayList<>();
    private final boolean[] rightAligned;

    TableText(String... header) {
        rows.add(header);
        rightAligned = new boolean[header.length];
    }

    /** Columns whose cells are numbers, aligned right. */
    TableText right(int... columns) {
        for (int c : columns) {
            rightAligned[c] = true;
        }
        return this;
    }

    TableText row(String... cells) {
        rows.add(cells);
        return this;
    }

    String render(boolean markdown) {
        int[] widths = new int[rows.get(0).length];
        for (String[] r : rows) {
            for (int c = 0; c < r.length; c++) {
                widths[c] = Math.max(widths[c], r[c].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            line(out, rows.get(i), widths, markdown);
            if (i == 0) {
                String[] rule = new String[widths.length];
                for (int c = 0; c < widths.length; c++) {
                    String dashes = "-".repeat(Math.max(3, widths[c]));
                    rule[c] = markdown && rightAligned[c] ? dashes.substring(1) + ":" : dashes;
                }
                line(out, rule, widths, markdown);
            }
        }
        return out.toString();
    }

    private void line(StringBuilder out, String[] cells, int[] widths, boolean markdown) {
        StringBuilder line = new StringBuilder(markdown ? "| " : "");
        for (int c = 0; c < cells.length; c++) {
            String cell = markdown ? cells[c].replace("|", "\\|") : cells[c];
            String pad = " ".repeat(Math.max(0, widths[c] - cell.length()));
            line.append(rightAligned[c] ? pad + cell : cell + pad);
            if (c < cells.length - 1) {
                line.append(markdown ? " | " : "  ");
            }
        }
        if (markdown) {
            line.append(" |");
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }
}
