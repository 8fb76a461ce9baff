package dev.kumiko.engine.control;

import dev.kumiko.engine.Constraints;
import dev.kumiko.engine.control.CreateTableRequest.TagInput;
import java.util.List;

/** Tag limits from the API Reference: key 1-128 characters, value 0-256, 50 tags per resource. */
final class TagRules {
    static final int TAGS_MAX = 50;

    private TagRules() {}

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
