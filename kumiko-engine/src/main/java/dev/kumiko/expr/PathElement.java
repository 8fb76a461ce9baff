package dev.kumiko.expr;

/** One step of a document path: a map key (a name or a {@code #placeholder}) or a list index. */
public sealed interface PathElement {

    /** A name as written; {@code text} starts with '#' when it is a placeholder. */
    record Name(String text) implements PathElement {
        public boolean isPlaceholder() {
            return text.startsWith("#");
        }

        @Override
        public String toString() {
            return text;
        }
    }

    record Index(int index) implements PathElement {
        @Override
        public String toString() {
            return "[" + index + "]";
        }
    }
}
