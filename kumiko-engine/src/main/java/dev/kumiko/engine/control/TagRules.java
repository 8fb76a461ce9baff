package dev.kumiko.engine.control;

import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.control.CreateTableRequest.TagInput;
import java.util.List;

/** Tag limits from the API Reference: key 1-128 characters, value 0-256, 50 tags per resource. */
final class TagRules {
    static final int TAGS_MAX = 50;

    /** The Developer Guide's tag characters: letters, white space, numbers and + - = . _ : / */
    private static final java.util.regex.Pattern TAG_CHARACTERS =
            java.util.regex.Pattern.compile("[\\p{L}\\p{Z}\\p{N}\\s+\\-=._:/]*");

    private TagRules() {}

    /** Keys and values hold only the documented characters. UNVERIFIED wording. */
    static void checkCharacters(List<TagInput> tags) {
        if (tags == null) {
            return;
        }
        for (TagInput t : tags) {
            if (!TAG_CHARACTERS.matcher(t.key()).matches()
                    || !TAG_CHARACTERS.matcher(t.value()).matches()) {
                throw dev.kumiko.error.DynamoException.invalidParameter("Invalid tag: key '" + t.key() + "', value '"
                        + t.value() + "'. Tags may contain letters, white space, numbers and + - = . _ : /");
            }
        }
    }

    static void checkMembers(Constraints c, String path, List<TagInput> tags) {
        if (tags == null) {
            return;
        }
        for (int i = 0; i < tags.size(); i++) {
            TagInput t = tags.get(i);
            // A JSON null in the list (found by the fuzzer): DynamoDB's constraint form names the member.
            if (!c.notNull(path + "." + (i + 1) + ".member", t)) {
                continue;
            }
            String p = path + "." + (i + 1) + ".member.";
            if (c.notNull(p + "key", t.key())) {
                c.length(p + "key", t.key(), 1, 128);
            }
            if (c.notNull(p + "value", t.value())) {
                c.length(p + "value", t.value(), 0, 256);
            }
        }
    }
}
